"""Spec §6.1 and §6.3 for the reference: JSON text parsed under samekey's rules, and the
RFC 8785 canonical form of the value, written from the spec alone."""

from __future__ import annotations

import json

from basics import MAX_DEPTH, MAX_SAFE_INTEGER, SamekeyError


def _reject_constant(name: str):
    raise SamekeyError("invalid_json")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > 17 or abs(int(text)) > MAX_SAFE_INTEGER:
        raise SamekeyError("number_out_of_range")
    return int(text)


def _parse_float(text: str) -> float:
    x = float(text)
    if x in (float("inf"), float("-inf")):
        raise SamekeyError("number_out_of_range")
    return x


def _pairs(pairs: list) -> dict:
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise SamekeyError("duplicate_key")
        seen[k] = v
    return seen


def _check_tree(v, depth: int) -> None:
    if isinstance(v, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            raise SamekeyError("invalid_json")
    elif isinstance(v, (list, dict)):
        if depth + 1 > MAX_DEPTH:
            raise SamekeyError("nesting_too_deep")
        items = v.items() if isinstance(v, dict) else ((None, x) for x in v)
        for k, x in items:
            if k is not None:
                _check_tree(k, depth)
            _check_tree(x, depth + 1)


def parse_json(text: str):
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_parse_int,
                           parse_float=_parse_float, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError):
        raise SamekeyError("invalid_json") from None
    _check_tree(value, 0)
    return value


def es_number(x: float) -> str:
    """ECMAScript Number::toString from Python's shortest round-trip repr."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    stripped = digits.rstrip("0")
    k = len(stripped)
    n = int(exp or 0) - len(frac) + (len(digits) - k) + k
    s = stripped
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    return s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))


ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
           "\r": "\\r"}


def es_string(s: str) -> str:
    out = []
    for c in s:
        if c in ESCAPES:
            out.append(ESCAPES[c])
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def canonical(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return es_number(float(v))
    if isinstance(v, float):
        return es_number(v)
    if isinstance(v, str):
        return es_string(v)
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
    return "{" + ",".join(es_string(k) + ":" + canonical(v[k]) for k in keys) + "}"
