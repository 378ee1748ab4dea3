"""Spec §8.1 for the reference: RFC 3339 text to milliseconds since the epoch."""

from __future__ import annotations

import calendar
import re

from basics import MAX_MS, SamekeyError

RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII)


def parse_rfc3339(text: str) -> int:
    m = RFC3339.fullmatch(text)
    if not m:
        raise SamekeyError("invalid_timestamp")
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    frac, zulu, sign, oh, om = m.group(7), m.group(8), m.group(9), m.group(10), m.group(11)
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    month_days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= month_days[mo - 1] and h <= 23 and mi <= 59
            and s <= 59):
        raise SamekeyError("invalid_timestamp")
    offset = 0
    if not zulu:
        if int(oh) > 23 or int(om) > 59:
            raise SamekeyError("invalid_timestamp")
        offset = (int(oh) * 60 + int(om)) * (1 if sign == "+" else -1)
    if y == 0:
        raise SamekeyError("timestamp_out_of_range")  # long before 1970 whatever the offset
    seconds = calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) - offset * 60
    ms = seconds * 1000 + int((frac or "0")[:3].ljust(3, "0"))
    if not 0 <= ms <= MAX_MS:
        raise SamekeyError("timestamp_out_of_range")
    return ms
