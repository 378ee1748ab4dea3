"""Registering revisions with samekey.registry: a dataset's schema as JSON, then a data
file on it; run twice, it creates nothing the second time.

    python registry_client.py http://127.0.0.1:8080 data.csv [token]
"""

from __future__ import annotations

import sys

from samekey import KeyRing
from samekey.registry import KeyMismatchError, Registry, RegistryError, Retry


# ANCHOR: publish
def publish(url: str, path: str, token: str | None = None) -> None:
    # The ring this client expects the registry to use; every answer is checked against it.
    ring = KeyRing("v1")
    retry = Retry(max_retries=4, deadline=30)  # connection failures, 429, 5xx; never other 4xx
    with Registry(url, token=token, ring=ring, retry=retry) as registry:
        schema = registry.register({"columns": ["id", "name"], "version": 1})
        print("schema", "created" if schema.created else "found", schema.key)
        try:
            data = registry.register_file(path, parent=schema.key)  # streamed; over 1 MiB, looked up first
        except KeyMismatchError as e:
            sys.exit(f"client and registry disagree: {e}")  # a different ring or version
        except RegistryError as e:
            sys.exit(f"{e.code} ({e.status}): {e.detail}")  # e.g. payload_too_large
        print("data", "created" if data.created else "found", data.key, data.size, "bytes")
        print("history", [r.key[:14] for r in registry.history(data.key)])
# ANCHOR_END: publish


if __name__ == "__main__":
    publish(sys.argv[1], sys.argv[2], *sys.argv[3:4])
