"""A real registry (``samekey serve``) and the HTTP fault proxy in front of it, started
for the client tests; and the proxy's control."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[3]
PROXY = REPO / "crates/samekey-registry/tests/clients/httpfaults.py"


def samekey_bin() -> str:
    """``SAMEKEY_BIN``, else the workspace's build (the recipe builds it)."""
    if "SAMEKEY_BIN" in os.environ:
        return os.environ["SAMEKEY_BIN"]
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "samekey"
        if path.exists():
            return str(path)
    raise RuntimeError("no samekey binary: cargo build -p samekey-cli, or set SAMEKEY_BIN")


def first_line(process: subprocess.Popen[str], prefix: str) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith(prefix):
        process.kill()
        raise RuntimeError(f"expected {prefix!r}, got {line!r}")
    return line[len(prefix):].strip()


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def start_registry(database: str, *args: str) -> Server:
    process = subprocess.Popen(
        [samekey_bin(), "serve", "--database", database, "--listen", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    return Server(process, first_line(process, "listening on "))


def start_proxy(target_url: str) -> Server:
    target = target_url.removeprefix("http://")
    process = subprocess.Popen([sys.executable, str(PROXY), "--target", target], stdout=subprocess.PIPE, text=True)
    return Server(process, "http://" + first_line(process, "listening "))


class Proxy:
    """The proxy's control paths."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def faults(self, *faults: dict[str, Any]) -> None:
        self._call("POST", "/__faults", list(faults))

    def log(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._call("GET", "/__log")
        return result

    def reset(self) -> None:
        self._call("POST", "/__reset", {})



def databases() -> list[str]:
    found = ["sqlite"]
    if os.environ.get("SAMEKEY_TEST_POSTGRES"):
        found.append("postgres")
    return found


@pytest.fixture(scope="module", params=databases())
def registry(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A registry on SQLite, and on PostgreSQL when SAMEKEY_TEST_POSTGRES names one
    (its tables are the tests' own: each run registers data nobody else has)."""
    if request.param == "sqlite":
        database = "sqlite:" + str(tmp_path_factory.mktemp("registry") / "registry.db")
    else:
        database = os.environ["SAMEKEY_TEST_POSTGRES"]
    server = start_registry(database, "--body-limit", str(64 << 20))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def proxy_server(registry: Server) -> Iterator[Server]:
    server = start_proxy(registry.url)
    yield server
    server.stop()


@pytest.fixture
def proxy(proxy_server: Server) -> Proxy:
    control = Proxy(proxy_server.url)
    control.reset()
    return control
