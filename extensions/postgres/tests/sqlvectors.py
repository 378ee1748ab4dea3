"""Runs samekey test vectors (spec §10) through the extension's SQL functions.

The inputs reach the server as a client sends them: text as text, bytes as bytea, times
as timestamptz. What a PostgreSQL client cannot send is a host conversion that fails
before the call, as in every typed binding (spec §8.2, §2.2): a fractional number of
milliseconds (a timestamptz holds microseconds, not a fraction of a millisecond count)
is `invalid_timestamp`, a lone UTF-16 surrogate is `invalid_string`. A text input
holding U+0000, which PostgreSQL text cannot store, has no SQL form at all: such
vectors are returned as not runnable, and the tests say how many there are."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import psycopg

Json = Dict[str, Any]
CODE = re.compile(r"^error\[([a-z_]+)\]: ")

# A vector's milliseconds as a timestamptz, exactly (the connection is in UTC, so a day
# is 24 hours): whole days plus the remaining milliseconds, each exact in a double.
TIME = (
    "(timestamptz 'epoch' + (%(ms)s::bigint / 86400000) * interval '1 day'"
    " + (%(ms)s::bigint %% 86400000) * interval '1 millisecond')"
)


class HostError(Exception):
    """A conversion that fails in the client, before SQL: the code it stands for."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class NotInSql(Exception):
    """The input has no SQL form (U+0000 in text)."""


@dataclass(frozen=True)
class Outcome:
    id: str
    passed: bool
    expected: Json
    actual: Json
    sqlstate: Optional[str] = None


def _text(t: Union[str, Json]) -> str:
    if isinstance(t, dict):
        try:
            return bytes.fromhex(t["utf16"]).decode("utf-16-be")
        except UnicodeDecodeError:
            raise HostError("invalid_string") from None
    return t


def _sql_text(t: Union[str, Json]) -> str:
    s = _text(t)
    if "\x00" in s:
        raise NotInSql(s)
    return s


# A timestamptz holds about -2.1e14 to 9.2e15 ms; a vector's time beyond that is given as
# a bound of the same sign that it holds, out of range for samekey as the value is, so the
# range check fails in its place (spec §4.4, §10.1).
TIMESTAMPTZ_MS = (-200_000_000_000_000, 9_000_000_000_000_000)


def _ms(v: Json, bounds: Tuple[int, int] = TIMESTAMPTZ_MS) -> int:
    t = v["timestamp_ms"]
    if isinstance(t, float) and not t.is_integer():
        raise HostError("invalid_timestamp")
    return min(max(int(t), bounds[0]), bounds[1])


def _fields(v: Json) -> Tuple[str, Sequence[Union[str, bytes]]]:
    """text[] when every field is text PostgreSQL can hold, else bytea[] (a field is
    bytes; a text field is its UTF-8)."""
    fields = [bytes.fromhex(f["hex"]) if isinstance(f, dict) and "hex" in f else _text(f)
              for f in v["fields"]]
    if all(isinstance(f, str) and "\x00" not in f for f in fields):
        return "%(fields)s::text[]", fields
    return "%(fields)s::bytea[]", [f.encode("utf-8") if isinstance(f, str) else f for f in fields]


def _secret(v: Json, params: Json) -> str:
    if "secret_hex" not in v:
        return ""
    params["secret"] = bytes.fromhex(v["secret_hex"])
    return ", %(secret)s::bytea"


def _one(con: psycopg.Connection, sql: str, params: Json) -> Any:
    row = con.execute(sql, params).fetchone()
    assert row is not None
    return row[0] if len(row) == 1 else row


def _ring(con: psycopg.Connection, v: Json) -> Json:
    """The ring is checked when it is made, before the host converts other inputs."""
    accepted = [_sql_text(s) for s in v["accepted"]]
    _one(con, "SELECT samekey_ring_schemes(%(a)s::text[])", {"a": accepted})
    return {"accepted": accepted}


INT64 = (-(2**63), 2**63 - 1)


def _ulid(con: psycopg.Connection, v: Json, ms_form: bool = False) -> Json:
    """`ms_form`: through samekey_ulid_ms, the time as a bigint (a time beyond int64 as
    the bound of its sign, out of range as the value is)."""
    # The strings are converted before the time (spec §2.2).
    params: Json = {"scheme": _sql_text(v["scheme"]), "ns": _sql_text(v["namespace"])}
    fields, params["fields"] = _fields(v)
    params["ms"] = _ms(v, INT64 if ms_form else TIMESTAMPTZ_MS)
    time = "%(ms)s::bigint" if ms_form else TIME
    args = f"%(scheme)s, {time}, %(ns)s, {fields}{_secret(v, params)}"
    if ms_form:
        ulid = _one(con, f"SELECT samekey_ulid_ms({args})", params)
        uuid = _one(con, f"SELECT samekey_ulid_parse(samekey_ulid_ms({args}))::text", params)
    else:
        ulid = _one(con, f"SELECT samekey_ulid({args})", params)
        uuid = _one(con, f"SELECT samekey_ulid_uuid({args})::text", params)
    message = _one(con, f"SELECT encode(samekey_ulid_message(%(scheme)s, %(ns)s, {fields}), 'hex')", params)
    return {"ulid": ulid, "uuid": uuid, "message_hex": message}


def _content(con: psycopg.Connection, v: Json) -> Json:
    params = {"s": _sql_text(v["scheme"]), "d": bytes.fromhex(v["data_hex"])}
    return {"hash": _one(con, "SELECT samekey_content_hash(%(s)s, %(d)s::bytea)", params)}


def _content_json(con: psycopg.Connection, v: Json) -> Json:
    params = {"s": _sql_text(v["scheme"]), "j": _sql_text(v["json"])}
    # The hash first: it checks the scheme before the text (spec §6.1).
    hashed = _one(con, "SELECT samekey_content_hash_json(%(s)s, %(j)s::text)", params)
    canonical = _one(con, "SELECT samekey_canonical_json(%(j)s::text)", params)
    return {"canonical": canonical, "hash": hashed}


def _parent(v: Json) -> Optional[str]:
    return None if v["parent"] is None else _sql_text(v["parent"])


def _revision(con: psycopg.Connection, v: Json) -> Json:
    scheme = None if v.get("scheme") is None else _sql_text(v["scheme"])
    params: Json = {"s": scheme, "p": _parent(v), "h": _sql_text(v["content_hash"])}
    args = f"%(s)s::text, %(p)s::text, %(h)s::text{_secret(v, params)}"
    key = _one(con, f"SELECT samekey_revision_key({args})", params)
    message = _one(con, "SELECT encode(samekey_revision_message(%(s)s::text, %(p)s::text, %(h)s::text), 'hex')", params)
    return {"key": key, "message_hex": message}


def _timestamp(con: psycopg.Connection, v: Json) -> Json:
    ms = _one(con, "SELECT (extract(epoch FROM samekey_parse_rfc3339(%(t)s)) * 1000)::bigint",
              {"t": _sql_text(v["rfc3339"])})
    return {"timestamp_ms": ms}


def _ulid_parse(con: psycopg.Connection, v: Json) -> Json:
    params = {"t": _sql_text(v["text"])}
    ulid, uuid, ms = _one(con, "SELECT samekey_ulid_text(samekey_ulid_parse(%(t)s)),"
                               " samekey_ulid_parse(%(t)s)::text, samekey_ulid_timestamp_ms(%(t)s)", params)
    return {"ulid": ulid, "uuid": uuid, "timestamp_ms": ms}


def _key_parse(con: psycopg.Connection, v: Json) -> Json:
    # The ring first (spec §9.1), then the text's conversion.
    params = _ring(con, v) if "accepted" in v else {}
    params["k"] = _sql_text(v["text"])
    scheme = None
    if "accepted" in v:
        scheme = _one(con, "SELECT samekey_key_scheme(%(accepted)s::text[], %(k)s)", params)
    kind, own, canonical = _one(con, "SELECT kind, scheme, canonical FROM samekey_key_parse(%(k)s)", params)
    return {"kind": kind, "scheme": scheme or own, "canonical": canonical}


def _verify(con: psycopg.Connection, v: Json) -> Json:
    params = _ring(con, v)
    params.update({"id": _sql_text(v["ulid"]), "ns": _sql_text(v["namespace"])})
    fields, params["fields"] = _fields(v)
    params["ms"] = _ms(v)
    args = f"%(accepted)s::text[], %(id)s, {TIME}, %(ns)s, {fields}{_secret(v, params)}"
    return {"scheme": _one(con, f"SELECT samekey_verify({args})", params)}


def _candidates(con: psycopg.Connection, v: Json) -> Json:
    params = _ring(con, v)
    params.update({"ns": _sql_text(v["namespace"])})
    fields, params["fields"] = _fields(v)
    params["ms"] = _ms(v)
    args = f"%(accepted)s::text[], {TIME}, %(ns)s, {fields}{_secret(v, params)}"
    rows = con.execute(f"SELECT scheme, ulid FROM samekey_candidates({args})", params).fetchall()
    return {"candidates": [{"scheme": s, "ulid": u} for s, u in rows]}


def _ring_revision(con: psycopg.Connection, v: Json) -> Json:
    params = _ring(con, v)
    params.update({"p": _parent(v), "h": _sql_text(v["content_hash"])})
    args = f"%(accepted)s::text[], %(p)s::text, %(h)s::text{_secret(v, params)}"
    return {"key": _one(con, f"SELECT samekey_ring_revision_key({args})", params)}


def _needs_write(con: psycopg.Connection, v: Json) -> Json:
    stored = None if v["stored"] is None else _sql_text(v["stored"])
    params = {"s": stored, "i": _sql_text(v["incoming"])}
    return {"needs_write": _one(con, "SELECT samekey_needs_write(%(s)s::text, %(i)s::text)", params)}


OPS: Dict[str, Callable[[psycopg.Connection, Json], Json]] = {
    "ulid": _ulid, "content": _content, "content_json": _content_json, "revision": _revision,
    "timestamp": _timestamp, "ulid_parse": _ulid_parse, "key_parse": _key_parse,
    "verify": _verify, "candidates": _candidates, "ring_revision": _ring_revision,
    "needs_write": _needs_write,
}


def run_vector(con: psycopg.Connection, v: Json, ms_form: bool = False) -> Optional[Outcome]:
    """The vector's outcome, or None when its input has no SQL form; `ms_form` runs a
    ulid vector through samekey_ulid_ms instead."""
    sqlstate = None
    try:
        actual = _ulid(con, v, ms_form=True) if ms_form else OPS[v["op"]](con, v)
    except NotInSql:
        return None
    except HostError as e:
        actual = {"error": e.code}
    except psycopg.Error as e:
        found = CODE.match(e.diag.message_primary or "")
        if found:
            actual, sqlstate = {"error": found.group(1)}, e.sqlstate
        else:  # not samekey's error: this vector fails alone (spec §10.1)
            actual, sqlstate = {"exception": str(e)}, e.sqlstate
    except Exception as e:  # noqa: BLE001 - this vector's failure, not the run's
        actual = {"exception": repr(e)}
    return Outcome(v["id"], actual == v["expect"], v["expect"], actual, sqlstate)
