"""The one exception type of samekey."""

from __future__ import annotations


class SamekeyError(ValueError):
    """A samekey operation failed. ``code`` is the stable machine-readable code shared by
    every samekey implementation (``"timestamp_out_of_range"``, ``"invalid_ulid"``, ...);
    the message is for people.
    """

    code: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[SamekeyError], tuple[str, str]]:
        return (type(self), (self.code, str(self)))

    def __repr__(self) -> str:
        return f"SamekeyError({self.code!r}, {str(self)!r})"
