"""A TCP proxy that loses one acknowledgement: it forwards every byte between a client
and a database, except the reply to the first write, which it drops (the write itself
reaches the database and commits). The client, waiting for that reply, times out and
retries; the test then checks that the retry created nothing.

    python faultproxy.py --protocol postgres|mongo --listen 127.0.0.1:PORT --target 127.0.0.1:PORT

It prints "ready" when listening, and "dropped the reply to <write>" when it did.
Writes are found by parsing the protocol's framing: a PostgreSQL Query or Parse message
whose SQL starts an INSERT/UPDATE; a MongoDB OP_MSG whose command is insert, update or
findAndModify.
"""

from __future__ import annotations

import argparse
import asyncio
import struct
import sys

STATE = {"dropped": False}


class Framer:
    """Splits a byte stream into whole protocol messages."""

    def __init__(self, protocol: str, startup: bool):
        self.protocol, self.buf, self.startup = protocol, b"", startup

    def feed(self, data: bytes):
        self.buf += data
        while True:
            if self.protocol == "mongo" or self.startup:
                if len(self.buf) < 4:
                    return
                size = struct.unpack("<i" if self.protocol == "mongo" else ">i", self.buf[:4])[0]
                start = 0
            else:
                if len(self.buf) < 5:
                    return
                size = struct.unpack(">i", self.buf[1:5])[0] + 1
                start = 0
            if len(self.buf) < size:
                return
            message, self.buf = self.buf[start:size], self.buf[size:]
            startup, self.startup = self.startup, False
            yield message, startup


def pg_write(message: bytes, startup: bool) -> str | None:
    if startup or message[:1] not in (b"Q", b"P"):
        return None
    sql = message[5:].decode("utf-8", "replace")
    if message[:1] == b"P":
        sql = sql.split("\0", 1)[1] if "\0" in sql else sql
    head = sql.lstrip().upper()
    return sql.strip().split("\n")[0][:60] if head.startswith(("INSERT", "UPDATE")) else None


def mongo_command(message: bytes) -> tuple[int, str | None]:
    request_id, _, opcode = struct.unpack("<iii", message[4:16])
    if opcode != 2013 or len(message) < 26 or message[20] != 0:
        return request_id, None
    # section kind 0: a BSON document; its first element's name is the command.
    name_start = 21 + 4 + 1
    name = message[name_start:message.index(b"\0", name_start)].decode()
    return request_id, name


async def pipe(reader, writer, inspect):
    try:
        while data := await reader.read(65536):
            out = inspect(data)
            if out:
                writer.write(out)
                await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def handle(client_r, client_w, protocol, target):
    host, port = target.rsplit(":", 1)
    server_r, server_w = await asyncio.open_connection(host, int(port))
    pending = {}  # what to drop on the way back
    up = Framer(protocol, startup=protocol == "postgres")
    down = Framer(protocol, startup=False)

    def upstream(data: bytes) -> bytes:
        for message, startup in up.feed(data):
            if STATE["dropped"]:
                continue
            if protocol == "postgres":
                write = pg_write(message, startup)
                if write:
                    pending["pg"] = write
            else:
                request_id, command = mongo_command(message)
                if command in ("insert", "update", "findAndModify"):
                    pending["mongo"] = (request_id, command)
        return data

    def downstream(data: bytes) -> bytes:
        kept = b""
        for message, _ in down.feed(data):
            if STATE["dropped"]:
                kept += message
                continue
            if protocol == "postgres" and "pg" in pending:
                # Everything up to ReadyForQuery belongs to the write's answer.
                if message[:1] == b"Z":
                    STATE["dropped"] = True
                    print(f"dropped the reply to {pending.pop('pg')}", flush=True)
                continue
            if protocol == "mongo" and "mongo" in pending:
                response_to = struct.unpack("<i", message[8:12])[0]
                if response_to == pending["mongo"][0]:
                    STATE["dropped"] = True
                    print(f"dropped the reply to {pending.pop('mongo')[1]}", flush=True)
                    continue
            kept += message
        return kept

    # The client must not negotiate TLS or GSS (sslmode=disable, gssencmode=disable): the
    # server's messages are then all framed, from the first.
    await asyncio.gather(pipe(client_r, server_w, upstream), pipe(server_r, client_w, downstream))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--protocol", choices=["postgres", "mongo"], required=True)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--target", required=True)
    args = parser.parse_args()
    host, port = args.listen.rsplit(":", 1)
    server = await asyncio.start_server(lambda r, w: handle(r, w, args.protocol, args.target), host, int(port))
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
