#!/usr/bin/env python3
"""The registry guide's deploy section, run as an operator and a client's author run it.

The systemd unit is checked by `systemd-analyze verify`, then its ExecStart is started as
the unit says (this machine runs no systemd to start it as a service; its paths moved into
a scratch root, its address to 127.0.0.1 port 0), with the environment file's variables
set to a PostgreSQL database and a SeaweedFS bucket (object_store.production) and a
certificate of a private CA made here. Then: the page's curl call, and its answer against
the JSON the page shows; each client's private-CA program (Python, Node, Go, Kotlin)
registering through it, and its key against the reference's; curl without the CA refused;
each client given another CA failing at once with connection_failed, not retried (but
Kotlin, whose runner hides the exception: RegistryTest has it); the
unit's ExecReload (SIGHUP) and stop (SIGTERM within TimeoutStopSec, exit 0).

    docs/scripts/test_deploy.py
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "spec" / "reference"))
import samekey_ref as ref  # noqa: E402

import object_store  # noqa: E402
import runners  # noqa: E402

GUIDES = REPO / "docs" / "examples" / "guides"
ANSWER = REPO / "docs" / "examples" / "guides" / "registry_curl.json"
CLIENTS = {"python": "private_ca.py", "node": "private_ca.mjs", "go": "private_ca.go", "kotlin": "PrivateCa.kt"}


def unit_settings(text: str) -> dict[str, str]:
    """The unit's Key=value settings, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", text)
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def private_ca(tls: pathlib.Path) -> None:
    """A CA, and a certificate for localhost it signs: ca.pem, cert.pem and key.pem in tls."""
    tls.mkdir(parents=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    steps = [
        ["req", "-x509", *ec, "-days", "30", "-subj", "/CN=samekey docs CA", "-keyout", "ca.key", "-out", "ca.pem",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        ["req", *ec, "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "server.csr"],
        ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "30",
         "-out", "cert.pem", "-extfile", "server.ext"],
    ]
    (tls / "server.ext").write_text("subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    for step in steps:
        subprocess.run(["openssl", *step], cwd=tls, check=True, capture_output=True)


def env_file(example: str, production: dict[str, str]) -> dict[str, str]:
    """The example environment file's variables, each given the test's value; every
    variable the test's setting needs must be in the file (AWS_ALLOW_HTTP as its comment)."""
    names = re.findall(r"^#? ?(\w+)=", example, re.M)
    missing = set(production) - set(names)
    if missing:
        raise RuntimeError(f"registry.env lacks {sorted(missing)}")
    return {name: production[name] for name in names if name in production}


def run_client(lang: str, file: str, env: dict[str, str]) -> str:
    """What a client's private-CA program printed, given the registry's URL, token and CA
    (Node's as NODE_EXTRA_CA_CERTS, which it reads at start); raises as runners do."""
    if lang == "node":
        env = {**env, "NODE_EXTRA_CA_CERTS": env["SAMEKEY_CA"]}
    name = pathlib.Path(file).stem
    return runners.run_all(lang, {name: ((GUIDES / file).read_text(), env)})[name].strip()


def main() -> int:
    faults: list[str] = []
    binary = runners.need(REPO / "target/debug/samekey", "test-rust")
    content_hash = ref.content_json("v1", '{"rows": 3}')["hash"]
    key = ref.revision("v1", None, content_hash, None)["key"]
    with tempfile.TemporaryDirectory() as work, object_store.production() as production:
        root = pathlib.Path(work)
        etc = root / "etc"
        private_ca(etc / "tls")
        (etc / "write-tokens").write_text("write-token-docs\n")
        (etc / "read-tokens").write_text("read-token-docs\n")
        env = env_file((GUIDES / "registry.env").read_text(), production)

        unit_text = (GUIDES / "samekey-registry.service").read_text()
        unit_text = unit_text.replace("/usr/local/bin/samekey", str(binary)).replace("/etc/samekey", str(etc))
        unit_text = unit_text.replace("--listen 0.0.0.0:8443", "--listen 127.0.0.1:0")
        unit = root / "samekey-registry.service"
        unit.write_text(unit_text)
        verify = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True)
        if verify.returncode != 0 or verify.stderr.strip():
            faults.append(f"systemd-analyze verify: {verify.returncode}: {verify.stderr.strip()}")
        settings = unit_settings(unit_text)
        if settings.get("EnvironmentFile") != f"{etc}/registry.env":
            faults.append(f"the unit reads {settings.get('EnvironmentFile')}, not the page's registry.env")

        log = open(root / "log", "w")
        server = subprocess.Popen(shlex.split(settings["ExecStart"]), stdout=subprocess.PIPE, stderr=log, text=True,
                                  env={**os.environ, **env})
        try:
            line = server.stdout.readline().strip()
            if not line.startswith("listening on https://"):
                raise RuntimeError(f"the unit's ExecStart printed {line!r}:\n{(root / 'log').read_text()}")
            url = "https://localhost:" + line.rsplit(":", 1)[1]
            clients = {"SAMEKEY_URL": url, "SAMEKEY_TOKEN": "write-token-docs", "SAMEKEY_CA": str(etc / "tls/ca.pem")}

            refused = subprocess.run(["curl", "-sS", f"{url}/healthz"], capture_output=True, text=True)
            if refused.returncode != 60:
                faults.append(f"curl without the CA: exit {refused.returncode}, not 60 (certificate not verified)")

            answer = json.loads(runners.run(["bash", "-euo", "pipefail", str(GUIDES / "registry_curl.sh")], env=clients))
            shown = json.loads(ANSWER.read_text())
            for revision, who in ((answer, "the registry"), (shown, "the page")):
                if (revision["key"], revision["content_hash"]) != (key, content_hash):
                    faults.append(f"{who}'s answer has {revision['key']}, {revision['content_hash']}; "
                                  f"the reference gives {key}, {content_hash}")
                if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", revision.get("created_at", "")):
                    faults.append(f"{who}'s answer has no RFC 3339 created_at: {revision}")
            if {**answer, "created_at": ""} != {**shown, "created_at": ""}:
                faults.append(f"the registry answered {answer}, the page shows {shown}")

            for lang, file in CLIENTS.items():
                try:
                    got = run_client(lang, file, clients)
                except (runners.Missing, RuntimeError) as e:
                    faults.append(f"{file}: {e}")
                    continue
                if got != f"trusted the private CA: {key}":
                    faults.append(f"{file} printed {got!r}, the reference's key is {key}")
                else:
                    print(f"test_deploy: {file} ({lang}) trusted the private CA and registered {key[:18]}…")

            # A CA that did not sign it: each client fails at once, with its connection_failed.
            private_ca(root / "other")
            wrong = {**clients, "SAMEKEY_CA": str(root / "other/ca.pem")}
            # (Not Kotlin's: Maven's exec:java, its runner, does not show a program's
            # exception; bindings/kotlin's RegistryTest shows the JVM client's.)
            for lang, file in ((lang, file) for lang, file in CLIENTS.items() if lang != "kotlin"):
                start = time.monotonic()
                try:
                    got = run_client(lang, file, wrong)
                    faults.append(f"{file} with another CA: printed {got!r}, not a failure")
                except runners.Missing as e:
                    faults.append(f"{file}: {e}")
                except RuntimeError as e:
                    # Every client's words for its connection_failed here: never retried.
                    if not re.search(r"the server's certificate did not verify.*; not retried", str(e), re.S):
                        faults.append(f"{file} with another CA: not its connection_failed, not retried: {str(e)[-600:]}")
                    else:
                        print(f"test_deploy: {file} ({lang}) with another CA: connection_failed, not retried "
                              f"({time.monotonic() - start:.1f} s with the run's start)")

            reload = settings["ExecReload"].replace("$MAINPID", str(server.pid))
            subprocess.run(shlex.split(reload), check=True)
            time.sleep(0.5)
            health = subprocess.run(["curl", "-sS", "--cacert", clients["SAMEKEY_CA"], "-o", "/dev/null", "-w",
                                     "%{http_code}", f"{url}/healthz"], capture_output=True, text=True)
            if health.stdout != "200":
                faults.append(f"after the unit's ExecReload: healthz {health.stdout} {health.stderr}")
            server.send_signal(signal.SIGTERM)
            stop = float(settings["TimeoutStopSec"])
            try:
                if server.wait(timeout=stop) != 0:
                    faults.append(f"SIGTERM: exit {server.returncode}, not 0")
            except subprocess.TimeoutExpired:
                faults.append(f"SIGTERM: still running after TimeoutStopSec ({stop} s)")
        finally:
            server.kill()
            server.wait()
    for fault in faults:
        print(f"test_deploy: {fault}")
    print(f"test_deploy: the unit, curl and {len(CLIENTS)} clients" + (f": {len(faults)} fault(s)" if faults else ", as the page says"))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
