"""What the production guide's example runs against: a fresh PostgreSQL database on
SAMEKEY_TEST_POSTGRES's server and a SeaweedFS cluster of separate processes (master,
volume server, filer, S3 gateway) on 127.0.0.1, from `weed` at SAMEKEY_WEED (the docs
recipe takes it from crates/samekey-registry/scripts/seaweedfs.sh, which builds the
pinned version once per machine)."""

from __future__ import annotations

import contextlib
import os
import pathlib
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

from runners import Missing


def _free_ports(n: int) -> list[int]:
    # weed's gRPC listens on port + 10000: both must be free.
    ports = [p for p in range(21000 + os.getpid() % 1000 * 7, 29000) if _free(p) and _free(p + 10000)]
    if len(ports) < n:
        raise RuntimeError("no free port pairs in 21000-29000")
    return ports[:n]


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def _put(url: str, body: bytes = b"") -> int | None:
    """The status of a PUT, or None if there was no answer."""
    try:
        # The first write waits for the master to grow volumes: seconds.
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method="PUT"), timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, OSError):
        return None


@contextlib.contextmanager
def seaweedfs(bucket: str):
    """The S3 endpoint of a new cluster holding `bucket`; everything stopped after."""
    weed = os.environ.get("SAMEKEY_WEED")
    if not weed:
        raise Missing("SAMEKEY_WEED is not set: run through `just site::test`")
    with tempfile.TemporaryDirectory() as work:
        root = pathlib.Path(work)
        master, volume, filer, s3 = _free_ports(4)
        for d in ("master", "volume"):
            (root / d).mkdir()
        common = ["-ip.bind=127.0.0.1"]
        servers = [
            ["master", "-ip=127.0.0.1", *common, f"-port={master}", f"-mdir={root / 'master'}", "-peers=none",
             "-volumeSizeLimitMB=64"],
            ["volume", "-ip=127.0.0.1", *common, f"-port={volume}", f"-dir={root / 'volume'}", "-max=20",
             f"-mserver=127.0.0.1:{master}"],
            ["filer", "-ip=127.0.0.1", *common, f"-port={filer}", f"-master=127.0.0.1:{master}"],
            ["s3", *common, f"-port={s3}", f"-filer=127.0.0.1:{filer}"],
        ]
        procs = []
        try:
            for args in servers:
                log = open(root / f"{args[0]}.log", "w")
                procs.append(subprocess.Popen([weed, *args], cwd=root, stdout=log, stderr=log))
                time.sleep(0.3)  # each finds the one before it
            endpoint = f"http://127.0.0.1:{s3}"
            deadline = time.monotonic() + 90
            # 409: the bucket was made by an earlier try whose answer was lost.
            made = False
            while not (made := made or _put(f"{endpoint}/{bucket}") in (200, 409)) \
                    or _put(f"{endpoint}/{bucket}/probe", b"ok") != 200:
                if time.monotonic() > deadline:
                    tails = "".join(f"\n--- {log.name}:\n" + "\n".join(log.read_text().splitlines()[-5:])
                                    for log in sorted(root.glob("*.log")))
                    raise RuntimeError(f"the SeaweedFS cluster took no write within 90 s{tails}")
                time.sleep(0.25)
            with urllib.request.urlopen(urllib.request.Request(f"{endpoint}/{bucket}/probe", method="DELETE")):
                pass
            yield endpoint
        finally:
            for p in reversed(procs):
                p.kill()
                p.wait()


@contextlib.contextmanager
def postgres_database():
    """The URL of a new database on SAMEKEY_TEST_POSTGRES's server, dropped after."""
    server = os.environ.get("SAMEKEY_TEST_POSTGRES")
    if not server:
        raise Missing("SAMEKEY_TEST_POSTGRES is not set: run through `just site::test`")
    name = f"guide_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", server, "-X", "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        subprocess.run(["psql", server, "-X", "-q", "-c", f"DROP DATABASE {name} WITH (FORCE)"], check=False)


@contextlib.contextmanager
def production():
    """The environment the production example reads: its database, bucket and credentials."""
    with postgres_database() as database, seaweedfs("revisions") as endpoint:
        yield {
            "SAMEKEY_DATABASE_URL": database,
            "SAMEKEY_DATA_STORE": "s3://revisions/v1",
            "AWS_ENDPOINT_URL": endpoint,
            "AWS_ALLOW_HTTP": "true",
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "samekey-docs",
            "AWS_SECRET_ACCESS_KEY": "samekey-docs",
        }
