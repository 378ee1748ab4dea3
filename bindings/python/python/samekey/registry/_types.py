"""What the registry answers, and how a client fails."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Mapping

from samekey._errors import SamekeyError

#: Codes the client itself raises (the registry's own come from its problem documents).
CONNECTION_FAILED = "connection_failed"
DEADLINE_EXCEEDED = "deadline_exceeded"
NOT_REWINDABLE = "not_rewindable"
KEY_MISMATCH = "key_mismatch"
UNEXPECTED_RESPONSE = "unexpected_response"


@dataclass(frozen=True)
class Revision:
    """A registered revision, as the registry answered it.

    ``created`` is true when this request created it (HTTP 201), false when the registry
    already had it (200, or the revision was found before the upload).
    """

    key: str
    parent: str | None
    scheme: str
    content_hash: str
    media_type: str
    size: int
    created_at: datetime
    created: bool = False

    @staticmethod
    def _from_json(body: Mapping[str, Any], created: bool) -> Revision:
        try:
            return Revision(
                key=str(body["key"]),
                parent=None if body["parent"] is None else str(body["parent"]),
                scheme=str(body["scheme"]),
                content_hash=str(body["content_hash"]),
                media_type=str(body["media_type"]),
                size=int(body["size"]),
                created_at=datetime.fromisoformat(str(body["created_at"]).replace("Z", "+00:00")),
                created=created,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise RegistryError(UNEXPECTED_RESPONSE, f"not a revision: {body!r:.200}") from e


class RegistryError(SamekeyError):
    """A request to the registry failed. Its code (``e.code``, as every ``SamekeyError``'s)
    is the registry's problem code (``"unknown_parent"``, ``"database_unavailable"``, ...)
    or one of the client's own
    (``"connection_failed"``, ``"deadline_exceeded"``, ``"not_rewindable"``,
    ``"key_mismatch"``, ``"unexpected_response"``); ``status`` is the HTTP status when
    there was an answer, ``detail`` the problem's detail.
    """

    status: int | None
    detail: str
    problem: dict[str, Any]

    def __init__(self, code: str, message: str, *, status: int | None = None, problem: dict[str, Any] | None = None) -> None:
        super().__init__(code, message)
        self.status = status
        self.problem = problem or {}
        self.detail = str(self.problem.get("detail", message))

    @staticmethod
    def _from_response(status: int, content_type: str, body: bytes) -> RegistryError:
        problem: Any = None
        if content_type.split(";")[0].strip() in ("application/problem+json", "application/json"):
            try:
                problem = json.loads(body)
            except ValueError:
                problem = None
        if isinstance(problem, dict) and isinstance(problem.get("code"), str):
            code = problem["code"]
            detail = problem.get("detail") or problem.get("title") or code
            return RegistryError(code, f"{status} {code}: {detail}", status=status, problem=problem)
        text = body[:200].decode("utf-8", "replace")
        return RegistryError(UNEXPECTED_RESPONSE, f"HTTP {status} without a problem document: {text!r}", status=status)


class KeyMismatchError(RegistryError):
    """The registry answered a key other than the one this client derived for the same
    data and parent: the client's and the server's rings or versions differ. Nothing is
    accepted silently; ``expected`` and ``answered`` are both keys."""

    expected: str
    answered: str

    def __init__(self, expected: str, answered: str, why: str) -> None:
        super().__init__(KEY_MISMATCH, f"the registry answered {answered}, this client derived {expected}: {why}")
        self.expected = expected
        self.answered = answered


@dataclass(frozen=True)
class Retry:
    """When and how a request is tried again.

    A request is retried after a connection failure (before or after its body was sent:
    a registration is keyed by its content, so a retry creates nothing new), a timeout,
    and the statuses of ``statuses`` (429, and the 5xx a server or a proxy answers when
    the request may succeed later); never after another 4xx. The delay before retry
    ``n`` (from 0) is a random fraction of ``min(max_delay, initial_delay * 2**n)``
    ("full jitter"), or exactly the answer's ``Retry-After`` when it gives one. No wait
    ends after ``deadline`` seconds from the call's start (the last error is raised
    instead); each attempt's own timeout is the client's ``timeout``.
    """

    max_retries: int = 2
    initial_delay: float = 0.5
    max_delay: float = 5.0
    deadline: float = 60.0
    statuses: frozenset[int] = field(default=frozenset({429, 500, 502, 503, 504}))

    def __post_init__(self) -> None:
        if self.max_retries < 0 or self.initial_delay < 0 or self.max_delay < 0 or self.deadline <= 0:
            raise ValueError("Retry: counts and delays must not be negative, and the deadline must be positive")
