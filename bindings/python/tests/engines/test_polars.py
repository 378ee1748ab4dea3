"""samekey in Polars: Series and DataFrames through the PyCapsule interface, and the
``samekey.polars.ulid`` expression in eager, lazy and streaming queries."""

from __future__ import annotations

import datetime as dt
from typing import Any, Dict, List, Tuple

import polars as pl
import pyarrow as pa
import pytest

import samekey
import samekey.arrow
import samekey.polars as skp
from samekey._vectors import _text

Settings = Tuple[str, str, Any, int]


def _groups(ulid_vectors: List[Dict[str, Any]]) -> Dict[Settings, List[Dict[str, Any]]]:
    """The valid vectors with text fields, by scheme, namespace, secret and field count."""
    groups: Dict[Settings, List[Dict[str, Any]]] = {}
    for v in ulid_vectors:
        if "ulid" not in v["expect"] or not all(isinstance(f, str) for f in v["fields"]):
            continue
        if not isinstance(v["namespace"], str) or not v["fields"]:
            continue
        key = (_text(v["scheme"]), v["namespace"], v.get("secret_hex"), len(v["fields"]))
        groups.setdefault(key, []).append(v)
    assert groups
    return groups


def _frame(rows: List[Dict[str, Any]], width: int) -> pl.DataFrame:
    ms = [int(v["timestamp_ms"]) for v in rows]
    data: Dict[str, Any] = {
        "at": pl.Series(ms, dtype=pl.Int64),
        "at_utc": pl.Series(ms, dtype=pl.Int64).cast(pl.Datetime("ms", "UTC")),
    }
    for c in range(width):
        data[f"f{c}"] = [v["fields"][c] for v in rows]
    return pl.DataFrame(data)


def test_every_text_ulid_vector_through_the_expression(ulid_vectors: List[Dict[str, Any]]) -> None:
    checked = 0
    for (scheme, namespace, secret_hex, width), rows in _groups(ulid_vectors).items():
        secret = bytes.fromhex(secret_hex) if secret_hex is not None else None
        df = _frame(rows, width)
        names = [f"f{c}" for c in range(width)]
        opts: Dict[str, Any] = {"namespace": namespace, "scheme": scheme, "secret": secret}
        want = [v["expect"]["ulid"] for v in rows]
        out = df.with_columns(
            id=skp.ulid("at", *names, **opts),
            id_utc=skp.ulid("at_utc", *names, **opts),
        )
        assert out["id"].to_list() == want
        assert out["id_utc"].to_list() == want
        lazy = df.lazy().select(skp.ulid(pl.col("at"), *(pl.col(n) for n in names), **opts).alias("id"))
        assert lazy.collect(engine="streaming")["id"].to_list() == want
        series = skp.derive_ulids(df["at"], *(df[n] for n in names), **opts)
        assert series.to_list() == want
        checked += len(rows)
    assert checked


def test_times_of_any_unit_with_a_zone() -> None:
    t = dt.datetime(2024, 5, 1, 12, 0, 0, 999, tzinfo=dt.timezone.utc)
    want = str(samekey.derive_ulid(["x"], time=t))
    for unit in ("ms", "us", "ns"):
        df = pl.DataFrame({"t": [t], "s": ["x"]}).with_columns(pl.col("t").dt.cast_time_unit(unit).dt.convert_time_zone("Asia/Kolkata"))
        assert df.select(skp.ulid("t", "s"))["t"].to_list() == [want]


def test_a_naive_datetime_keeps_its_code_through_polars() -> None:
    df = pl.DataFrame({"t": [dt.datetime(2024, 5, 1, 12)], "s": ["x"]})
    with pytest.raises(samekey.SamekeyError) as e:
        df.select(skp.ulid("t", "s"))
    assert e.value.code == "invalid_timestamp"
    with pytest.raises(samekey.SamekeyError) as e2:
        skp.derive_ulids(df["t"], df["s"])
    assert e2.value.code == "invalid_timestamp"


def test_dataframes_and_series_through_the_pycapsule_interface() -> None:
    df = pl.DataFrame({
        "t": pl.Series([1714564800000, 1714564800001], dtype=pl.Int64),
        "slug": ["a", "b"],
        "raw": [b"\x00\xff", b""],
    })
    want = [str(samekey.derive_ulid([s, r], time_ms=t)) for t, s, r in df.iter_rows()]
    table = pa.table(df)  # a DataFrame's __arrow_c_stream__
    assert samekey.arrow.with_ulids(table, time="t", fields=["slug", "raw"])["id"].to_pylist() == want
    ids = samekey.UlidDeriver().derive_arrow(df["t"], df["slug"], df["raw"])  # Series' streams
    assert pl.Series(ids).to_list() == want


def test_nulls_and_categoricals() -> None:
    df = pl.DataFrame({"t": [1, 2], "s": ["a", None]})
    out = df.select(skp.ulid("t", "s", nulls="propagate"))["t"]
    assert out.to_list() == [str(samekey.derive_ulid(["a"], time_ms=1)), None]
    with pytest.raises(Exception, match="field column 0 is null at row 1"):
        df.select(skp.ulid("t", "s"))
    cat = df.with_columns(pl.col("s").cast(pl.Categorical))
    with pytest.raises(Exception, match="cast it first"):
        cat.select(skp.ulid("t", "s"))


def test_binary_ids_and_content_hashes() -> None:
    df = pl.DataFrame({"t": [1], "s": ["abc"], "b": [b"abc"]})
    out = df.select(
        id=skp.ulid("t", "s", binary=True),
        text_hash=skp.content_hash("s", scheme="v2"),
        bytes_hash=skp.content_hash(pl.col("b")),
    )
    assert out["id"].to_list() == [bytes(samekey.derive_ulid(["abc"], time_ms=1))]
    assert out["text_hash"].to_list() == [samekey.content_hash(b"abc", scheme="v2")]
    assert out["bytes_hash"].to_list() == [samekey.content_hash(b"abc")]


def test_settings_are_checked_when_the_expression_is_built() -> None:
    with pytest.raises(samekey.SamekeyError) as e:
        skp.ulid("t", "s", scheme="v9")
    assert e.value.code == "unknown_scheme"
    with pytest.raises(samekey.SamekeyError) as e:
        skp.ulid("t")
    assert e.value.code == "no_fields"
