"""The one exception type of samekey."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterator, Optional


class SamekeyError(ValueError):
    """A samekey operation failed. ``code`` is the stable machine-readable code shared by
    every samekey implementation (``"timestamp_out_of_range"``, ``"invalid_ulid"``, ...);
    the message is for people. ``row`` is the index of the failing row when a batch of
    Arrow rows failed (``None`` otherwise).
    """

    code: str
    row: int | None = None

    def __init__(self, code: str, message: Optional[str] = None) -> None:
        if message is None:
            # One argument: the text of an error that a library re-raised as
            # type(e)(text), as Polars does for an error in a UDF. samekey.polars gives
            # its errors an "error[<code>] " prefix so that the code survives.
            found = re.match(r"error\[([a-z0-9_]+)\] ", code)
            if not found:
                raise TypeError("SamekeyError(code, message), or SamekeyError('error[<code>] <message>')")
            code, message = found.group(1), code
        super().__init__(code, message)
        self.code = code

    def __str__(self) -> str:
        return str(self.args[1])

    def __reduce__(self) -> tuple[type[SamekeyError], tuple[str, str]]:
        return (type(self), (self.code, str(self)))

    def __repr__(self) -> str:
        return f"SamekeyError({self.code!r}, {str(self)!r})"


class SamekeyIOError(SamekeyError, OSError):
    """Reading the data to hash failed. It is an ``OSError`` (with OSError's errno,
    strerror and filename attributes, and the matching subclass such as
    ``FileNotFoundError``) and a ``SamekeyError`` whose ``code`` is ``"io_error"``, so
    either ``except`` catches it.
    """

    def __init__(self, errno: int, strerror: str, filename: str) -> None:
        OSError.__init__(self, errno, strerror, filename)
        self.code = "io_error"

    def __reduce__(self) -> tuple[type[SamekeyError], tuple[str, str]]:
        return (_rebuild_io_error, (self.errno, self.strerror, self.filename))  # type: ignore[return-value]

    def __str__(self) -> str:
        return OSError.__str__(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.errno!r}, {self.strerror!r}, {self.filename!r})"


class SamekeyFileNotFoundError(SamekeyIOError, FileNotFoundError):
    """The file to hash does not exist (``io_error``)."""


class SamekeyPermissionError(SamekeyIOError, PermissionError):
    """The file to hash may not be read (``io_error``)."""


class SamekeyIsADirectoryError(SamekeyIOError, IsADirectoryError):
    """The path to hash is a directory (``io_error``)."""


def _rebuild_io_error(errno: int, strerror: str, filename: str) -> SamekeyIOError:
    """The ``OSError`` subclass Python itself would raise for ``errno``, as a samekey error."""
    import errno as codes

    cls = {
        codes.ENOENT: SamekeyFileNotFoundError,
        codes.EACCES: SamekeyPermissionError,
        codes.EPERM: SamekeyPermissionError,
        codes.EISDIR: SamekeyIsADirectoryError,
    }.get(errno, SamekeyIOError)
    return cls(errno, strerror, filename)


class SecondsWarning(UserWarning):
    """An integer time that reads as seconds since the epoch was given where samekey takes
    milliseconds: the id is valid but dates from January 1970. Pass milliseconds
    (``int(t * 1000)``) or, better, an aware ``datetime``."""


@contextmanager
def code_in_text() -> Iterator[None]:
    """For code run inside a library that re-raises errors as text (Polars, DuckDB and
    Spark UDFs): a SamekeyError's text starts with ``error[<code>] ``, so the code
    survives, and Polars' ``type(e)(text)`` rebuilds a SamekeyError with it."""
    try:
        yield
    except SamekeyError as e:
        if str(e).startswith("error["):
            raise
        raise SamekeyError(e.code, f"error[{e.code}] {e}") from None
