"""What the sync and async clients share: settings, paths, reading answers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import quote

import samekey
from samekey import KeyRing
from samekey.registry._payload import Payload
from samekey.registry._types import UNEXPECTED_RESPONSE, RegistryError, Retry, Revision

USER_AGENT = f"samekey-python/{samekey.__version__}" if hasattr(samekey, "__version__") else "samekey-python"


@dataclass(frozen=True)
class Settings:
    base_url: str
    headers: Mapping[str, str]
    ring: KeyRing
    retry: Retry
    skip_upload_above: int | None

    @staticmethod
    def make(base_url: str, token: str | None, ring: KeyRing | None, retry: Retry, skip_upload_above: int | None) -> Settings:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"the registry's base URL must start with http:// or https://, not {base_url!r}")
        headers = {"user-agent": USER_AGENT, "accept": "application/json"}
        if token is not None:
            if not token or any(c in token for c in "\r\n"):
                raise ValueError("a token must be non-empty and on one line")
            headers["authorization"] = f"Bearer {token}"
        return Settings(base_url.rstrip("/"), headers, ring or KeyRing("v1"), retry, skip_upload_above)


def revision_path(key: str) -> str:
    # A key is "rev:<scheme>:<hex>"; quoted all the same, so that no text can change the route.
    return "/v1/revisions/" + quote(key, safe=":")


def ask_first(s: Settings, payload: Payload) -> bool:
    """Whether to look the revision up before sending the payload."""
    return (
        s.skip_upload_above is not None
        and payload.hashes is not None
        and payload.size is not None
        and payload.size > s.skip_upload_above
    )


def answer_json(status: int, headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """A 200/201 answer's JSON object; any other status raises."""
    if status not in (200, 201):
        raise RegistryError._from_response(status, headers.get("content-type", ""), body)
    try:
        parsed = json.loads(body)
    except ValueError as e:
        raise RegistryError(UNEXPECTED_RESPONSE, f"HTTP {status} with a body that is not JSON", status=status) from e
    if not isinstance(parsed, dict):
        raise RegistryError(UNEXPECTED_RESPONSE, f"HTTP {status} with JSON that is not an object", status=status)
    return parsed


def answer(status: int, headers: Mapping[str, str], body: bytes) -> Revision:
    """A 200/201 answer's revision; any other status raises."""
    return Revision._from_json(answer_json(status, headers, body), created=status == 201)


def revisions_of(status: int, headers: Mapping[str, str], body: bytes) -> list[Revision]:
    """A history answer's revisions, nearest first."""
    revisions = answer_json(status, headers, body).get("revisions")
    if not isinstance(revisions, list):
        raise RegistryError(UNEXPECTED_RESPONSE, "a history answer without its revisions", status=status)
    return [Revision._from_json(r, created=False) for r in revisions]
