"""An HTTP/1.1 proxy in front of the registry that breaks what it is told to, for the
registry clients' tests in every language.

    python3 httpfaults.py --target 127.0.0.1:PORT [--listen 127.0.0.1:0]

It prints "listening HOST:PORT" once ready. Every request is forwarded on a connection
of its own, except those to the control paths, which any test reaches with plain HTTP:

- ``POST /__faults`` with a JSON list queues faults; each applies to the next request
  whose method and path start match its ``method`` and ``path`` (default: any), once:
  ``{"kind": "drop_response"}`` forwards the request, lets the registry answer, and
  closes the client's connection without the answer (a lost acknowledgement);
  ``{"kind": "cut_body", "after": N}`` forwards the head and N bytes of the body, then
  closes both connections (a client that died mid-upload);
  ``{"kind": "status", "status": 503, "retry_after": "1"}`` answers a problem document
  itself, forwarding nothing (``code`` ``database_unavailable`` unless given);
  ``{"kind": "delay", "seconds": S}`` holds the registry's answer for S seconds;
  ``{"kind": "cut_answer", "after": N}`` lets the registry answer (and commit), sends the
  client the answer's head and N bytes of its body, then closes (an answer cut mid-way);
  ``{"kind": "trickle", "interval": S}`` lets the registry answer, then sends the client
  the answer one byte every S seconds (an answer that never trips a per-read timeout).
- ``GET /__log`` answers every request seen so far (method, path, body bytes the client
  sent, whether it reached the registry, the status the client got or null, the fault),
  and ``POST /__reset`` clears the log and the queue.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

FAULTS: list[dict[str, Any]] = []
LOG: list[dict[str, Any]] = []
TARGET: tuple[str, int] = ("127.0.0.1", 0)


class Closed(Exception):
    """The peer closed before a whole message."""


async def read_head(reader: asyncio.StreamReader) -> bytes:
    try:
        return await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as e:
        raise Closed from e


def fields(head: bytes) -> tuple[str, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    out: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            out[name.strip().lower()] = value.strip()
    return lines[0], out


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str], until_close: bool) -> tuple[bytes, int]:
    """The body as it was framed (raw bytes to forward) and its payload length."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        raw, size = b"", 0
        while True:
            line = await reader.readuntil(b"\r\n")
            n = int(line.split(b";")[0], 16)
            raw += line
            if n == 0:
                raw += await reader.readuntil(b"\r\n")  # no trailers from our peers
                return raw, size
            chunk = await reader.readexactly(n + 2)
            raw += chunk
            size += n
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
        return body, len(body)
    if until_close:
        body = await reader.read()
        return body, len(body)
    return b"", 0


def matches(fault: dict[str, Any], method: str, path: str) -> bool:
    return fault.get("method", method) == method and path.startswith(fault.get("path", ""))


async def control(method: str, path: str, body: bytes, writer: asyncio.StreamWriter) -> None:
    if method == "POST" and path == "/__faults":
        FAULTS.extend(json.loads(body))
        answer: Any = {"queued": len(FAULTS)}
    elif method == "POST" and path == "/__reset":
        FAULTS.clear()
        LOG.clear()
        answer = {}
    else:
        answer = LOG
    data = json.dumps(answer).encode()
    writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(data), data))
    await writer.drain()


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            head = await read_head(reader)
            start, headers = fields(head)
            method, target = start.split(" ")[:2]
            path = target.split("?")[0]
            if path.startswith("/__"):
                body, _ = await read_body(reader, headers, False)
                await control(method, path, body, writer)
                continue
            fault = next((f for f in FAULTS if matches(f, method, path)), None)
            if fault is not None:
                FAULTS.remove(fault)
            entry: dict[str, Any] = {"method": method, "path": path, "body_bytes": 0, "forwarded": False, "status": None, "fault": fault}
            LOG.append(entry)
            if not await exchange(reader, writer, head, headers, method, entry, fault or {}):
                return
            if headers.get("connection", "").lower() == "close":
                return
    except (Closed, ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return
    finally:
        writer.close()


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: bytes, headers: dict[str, str], method: str, entry: dict[str, Any], fault: dict[str, Any]
) -> bool:
    """One request: True when the client's connection may serve the next."""
    kind = fault.get("kind")
    if kind == "status":
        body, entry["body_bytes"] = await read_body(reader, headers, False)
        status = int(fault.get("status", 503))
        code = fault.get("code", "database_unavailable")
        problem = json.dumps({"type": "about:blank", "title": code, "status": status, "detail": "injected by httpfaults.py", "code": code}).encode()
        extra = f"retry-after: {fault['retry_after']}\r\n".encode() if "retry_after" in fault else b""
        writer.write(b"HTTP/1.1 %d Injected\r\ncontent-type: application/problem+json\r\n%scontent-length: %d\r\n\r\n%s" % (status, extra, len(problem), problem))
        await writer.drain()
        entry["status"] = status
        return True
    up_reader, up_writer = await asyncio.open_connection(*TARGET)
    try:
        up_writer.write(head)
        entry["forwarded"] = True
        if kind == "cut_body":
            body, size = await read_body(reader, headers, False)
            up_writer.write(body[: int(fault.get("after", 0))])
            await up_writer.drain()
            entry["body_bytes"] = size
            return False
        body, entry["body_bytes"] = await read_body(reader, headers, False)
        up_writer.write(body)
        await up_writer.drain()
        response = await read_head(up_reader)
        while response.split(b" ", 2)[1].startswith(b"1"):  # 100 Continue: not for us to pass on
            response = await read_head(up_reader)
        status_line, response_headers = fields(response)
        no_body = method == "HEAD" or status_line.split(" ")[1] in ("204", "304")
        response_body = b"" if no_body else (await read_body(up_reader, response_headers, True))[0]
        if kind == "drop_response":
            return False
        if kind == "cut_answer":
            writer.write(response + response_body[: int(fault.get("after", 0))])
            await writer.drain()
            entry["status"] = int(status_line.split(" ")[1])
            return False
        if kind == "trickle":
            whole = response + response_body
            for i in range(len(whole)):
                writer.write(whole[i : i + 1])
                await writer.drain()
                await asyncio.sleep(float(fault.get("interval", 0.3)))
            entry["status"] = int(status_line.split(" ")[1])
            return False
        if kind == "delay":
            await asyncio.sleep(float(fault.get("seconds", 1)))
        writer.write(response + response_body)
        await writer.drain()
        entry["status"] = int(status_line.split(" ")[1])
        return "content-length" in response_headers or "chunked" in response_headers.get("transfer-encoding", "")
    finally:
        up_writer.close()


async def main() -> None:
    global TARGET
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True, help="the registry's HOST:PORT")
    parser.add_argument("--listen", default="127.0.0.1:0")
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    TARGET = (host, int(port))
    lhost, lport = args.listen.rsplit(":", 1)
    server = await asyncio.start_server(serve, lhost, int(lport), limit=1 << 20)
    bound = server.sockets[0].getsockname()
    print(f"listening {bound[0]}:{bound[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
