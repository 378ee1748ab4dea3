"""A client of the samekey registry (``samekey serve``), sync and async, on httpx
(``pip install 'samekey[registry]'``).

Retrying is safe by construction: a registration's key is derived from its content and
parent, so a retry after a lost answer finds the revision the first attempt created
instead of making another, with no idempotency key to keep. The client derives that key
itself, with the key ring it expects the registry to use, before anything is sent: a
large payload the registry already has is not uploaded again, and an answer with any
other key raises ``KeyMismatchError`` instead of being accepted.

>>> from samekey.registry import Registry
>>> with Registry("http://127.0.0.1:8080") as registry:  # doctest: +SKIP
...     root = registry.register({"title": "Hello"})
...     child = registry.register_file("report.pdf", parent=root.key)
"""

from samekey.registry._async import AsyncDataStream, AsyncRegistry
from samekey.registry._sync import DataStream, Registry
from samekey.registry._types import KeyMismatchError, RegistryError, Retry, Revision

__all__ = [
    "AsyncDataStream",
    "AsyncRegistry",
    "DataStream",
    "KeyMismatchError",
    "Registry",
    "RegistryError",
    "Retry",
    "Revision",
]
