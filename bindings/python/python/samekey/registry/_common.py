"""What the sync and async clients share: settings, paths, reading answers."""

from __future__ import annotations

import json
import ssl
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import quote

import samekey
from samekey import KeyRing
from samekey.registry._payload import Payload, StreamPayload
from samekey.registry._retry import Schedule, retry_after
from samekey.registry._types import (
    CONNECTION_FAILED,
    DEADLINE_EXCEEDED,
    NOT_REWINDABLE,
    UNEXPECTED_RESPONSE,
    RegistryError,
    Retry,
    Revision,
)

USER_AGENT = f"samekey-python/{samekey.__version__}"


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


def headers_for(s: Settings, payload: Payload | None, content: Any) -> dict[str, str]:
    """One attempt's header fields."""
    headers = dict(s.headers)
    if payload is not None:
        headers["content-type"] = payload.media_type
        # httpx sets a bytes body's length itself; a stream's is declared here.
        if not isinstance(content, bytes) and (length := payload.body_size()) is not None:
            headers["content-length"] = str(length)
    return headers


def _certificate_rejected(e: BaseException | None) -> bool:
    """Whether ``e`` (or what caused it) is a TLS certificate that did not verify."""
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, ssl.SSLCertVerificationError):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def delay_after_failure(schedule: Schedule, payload: Payload | None, method: str, path: str, e: Exception) -> float:
    """The wait before retrying a request whose connection failed; raises when none."""
    if _certificate_rejected(e):
        raise RegistryError(CONNECTION_FAILED, f"{method} {path}: the server's certificate did not verify ({e}); not retried, since it will not verify on a retry either: trust its CA in the client you pass (client=httpx.Client(verify=...))") from e
    if isinstance(payload, StreamPayload) and not payload.unread():
        raise RegistryError(NOT_REWINDABLE, f"{method} {path} failed after the stream was partly sent ({e}); a stream that cannot seek cannot be sent again: register a path or a seekable stream to have it retried") from e
    delay = schedule.next_delay()
    if delay is None:
        code = DEADLINE_EXCEEDED if schedule.remaining() <= 0 else CONNECTION_FAILED
        raise RegistryError(code, f"{method} {path}: {type(e).__name__}: {e} (after {schedule.retries} retries)") from e
    return delay


def delay_after_status(s: Settings, schedule: Schedule, payload: Payload | None, status: int, retry_after_field: str | None) -> float | None:
    """The wait before retrying a request answered ``status``; None to return the answer."""
    if status not in s.retry.statuses:
        return None
    delay = schedule.next_delay(retry_after(retry_after_field))
    return delay if payload is None or payload.rewindable else None
