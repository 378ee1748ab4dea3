"""The retry schedule, without I/O: the sync and async clients sleep as it says."""

from __future__ import annotations

import random
import time
from email.utils import parsedate_to_datetime
from typing import Callable

from samekey.registry._types import Retry


def retry_after(value: str | None, now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait that a ``Retry-After`` field asks for (RFC 9110 §10.2.3: seconds or
    an HTTP date), or None when there is none or it does not parse."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now())


class Schedule:
    """One call's attempts: how long to wait before the next, and when to give up."""

    def __init__(self, policy: Retry, clock: Callable[[], float] = time.monotonic, rand: Callable[[], float] = random.random) -> None:
        self.policy, self.clock, self.rand = policy, clock, rand
        self.start = clock()
        self.retries = 0

    def remaining(self) -> float:
        """Seconds left before the deadline."""
        return self.policy.deadline - (self.clock() - self.start)

    def next_delay(self, asked: float | None = None) -> float | None:
        """The wait before the next attempt, or None when no retry is left or the wait
        would end past the deadline. ``asked`` is an answer's ``Retry-After``."""
        p = self.policy
        if self.retries >= p.max_retries:
            return None
        if asked is not None:
            delay = asked
        else:
            delay = self.rand() * min(p.max_delay, p.initial_delay * 2**self.retries)
        if delay >= self.remaining():
            return None
        self.retries += 1
        return delay
