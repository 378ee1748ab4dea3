"""A file larger than the client process may hold is hashed and uploaded in bounded
memory: the client runs with an address-space limit below the file's size."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import samekey
from registry_harness import start_registry

FILE_MIB = 384
LIMIT_MIB = 320


def test_a_file_larger_than_the_process_memory_limit_is_registered(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    with open(path, "wb") as f:
        block = os.urandom(1 << 20)
        for i in range(FILE_MIB):
            f.write(block[:-8] + i.to_bytes(8, "big"))
    want = samekey.revision_key(samekey.content_hash(path))
    server = start_registry("sqlite:" + str(tmp_path / "r.db"), "--body-limit", str((FILE_MIB + 1) << 20))
    try:
        child = textwrap.dedent(f"""
            import resource, sys
            from samekey.registry import Registry
            limit = {LIMIT_MIB} << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                bytearray({FILE_MIB} << 20)
                sys.exit("the limit does not hold: the file fits in memory")
            except MemoryError:
                pass
            with Registry({server.url!r}, timeout=120) as client:
                rev = client.register_file({str(path)!r})
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
            print(rev.key, rev.size, peak)
        """)
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        key, size, peak = out.stdout.split()
        print(f"registered {FILE_MIB} MiB under a {LIMIT_MIB} MiB address-space limit; peak RSS {peak} MiB")
        assert (key, int(size)) == (want, FILE_MIB << 20)
    finally:
        server.stop()
