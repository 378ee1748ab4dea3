"""Type aliases of the API's arguments, shared by the native module's stub and the package."""

from __future__ import annotations

import os
from datetime import datetime
from typing import IO, Mapping, Sequence, Union

#: An identity field: text (hashed as UTF-8) or raw bytes.
Field = Union[str, bytes, bytearray]
#: A time: an aware datetime, integer milliseconds since the epoch, or RFC 3339 text.
Time = Union[datetime, int, str]
#: Data to hash: bytes, text (UTF-8), a path, or a binary file object.
Data = Union[bytes, bytearray, str, "os.PathLike[str]", IO[bytes]]
#: A JSON value made of Python values.
JsonValue = Union[None, bool, int, float, str, Sequence["JsonValue"], Mapping[str, "JsonValue"]]
