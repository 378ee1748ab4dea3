"""The Arrow path (samekey.arrow, UlidDeriver.derive_arrow) with pyarrow: every ulid
vector, every accepted column type, chunking, nulls and errors."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Dict, List, Optional

import pyarrow as pa
import pytest

import samekey
import samekey.arrow
from samekey._vectors import _text

TEXT_TYPES = [pa.utf8(), pa.large_utf8(), pa.string_view()]
BINARY_TYPES = [pa.binary(), pa.large_binary(), pa.binary_view()]


def _utf16(value: Dict[str, str]) -> bytes:
    """A ``{"utf16": ...}`` vector text as the bytes a lax producer would put in a utf8
    column (lone surrogates encoded as if they were characters)."""
    return bytes.fromhex(value["utf16"]).decode("utf-16-be", "surrogatepass").encode("utf-8", "surrogatepass")


def _text_column(raw: List[bytes], type_: pa.DataType) -> pa.Array:
    """A utf8 column holding exactly ``raw``, valid UTF-8 or not (pyarrow's constructors
    refuse invalid text, so the buffers are built by hand)."""
    offsets = [0]
    for b in raw:
        offsets.append(offsets[-1] + len(b))
    array = pa.Array.from_buffers(
        pa.utf8(), len(raw), [None, pa.py_buffer(pa.array(offsets, pa.int32()).buffers()[1]), pa.py_buffer(b"".join(raw))]
    )
    return array if type_ == pa.utf8() else array.cast(type_, safe=False)


def _column(field: Any, type_index: int) -> pa.Array:
    if isinstance(field, dict) and "hex" in field:
        return pa.array([bytes.fromhex(field["hex"])], BINARY_TYPES[type_index])
    if isinstance(field, dict):
        return _text_column([_utf16(field)], pa.utf8())
    return pa.array([field], TEXT_TYPES[type_index])


def _namespace(v: Dict[str, Any]) -> str:
    ns = v["namespace"]
    return bytes.fromhex(ns["utf16"]).decode("utf-16-be", "surrogatepass") if isinstance(ns, dict) else str(ns)


def _times(t: int, form: str) -> pa.Array:
    # Beyond int64, int64's bound of the same sign: out of range as the value is (spec §10.1).
    t = max(min(t, 2**63 - 1), -(2**63))
    if form == "int64":
        return pa.array([t], pa.int64())
    if form == "timestamp[ms]":
        return pa.array([t], pa.timestamp("ms", tz="UTC"))
    # The same instant in microseconds, plus 999 us that the floor drops.
    return pa.array([t * 1000 + 999], pa.timestamp("us", tz="+02:00"))


def _run(v: Dict[str, Any], form: str, type_index: int) -> Dict[str, Any]:
    secret = bytes.fromhex(v["secret_hex"]) if "secret_hex" in v else None
    try:
        ids = samekey.arrow.derive_ulids(
            _times(v["timestamp_ms"], form),
            *(_column(f, type_index) for f in v["fields"]),
            namespace=_namespace(v),
            scheme=_text(v["scheme"]),
            secret=secret,
        )
    except samekey.SamekeyError as e:
        return {"error": e.code}
    (text,) = ids.to_pylist()
    return {"ulid": text}


def test_every_ulid_vector_through_arrow(ulid_vectors: List[Dict[str, Any]]) -> None:
    """Each vector as a one-row batch, with the time as int64 milliseconds, as a
    timestamp in milliseconds and as one in microseconds (another zone, sub-millisecond
    digits), and the fields as each text (or binary) column type."""
    checked = fractions = 0
    failed = []
    for v in ulid_vectors:
        if not float(v["timestamp_ms"]).is_integer():
            # A fraction of a millisecond has no int64 form, and a finer timestamp unit
            # floors it (spec §8.2), which test_units_floor checks.
            fractions += 1
            continue
        expect = v["expect"]
        want = {"error": expect["error"]} if "error" in expect else {"ulid": expect["ulid"]}
        in_range = 0 <= int(v["timestamp_ms"]) < 2**53
        for form in ("int64", "timestamp[ms]", "timestamp[us]") if in_range else ("int64",):
            for type_index in range(3):
                got = _run(v, form, type_index)
                if got != want:
                    failed.append(f"{v['id']} ({form}, type {type_index}): expected {want}, got {got}")
        checked += 1
    assert not failed, "\n".join(failed)
    assert checked + fractions == len(ulid_vectors)
    assert checked > fractions


def _field_bytes(field: Any) -> bytes:
    if isinstance(field, dict) and "hex" in field:
        return bytes.fromhex(field["hex"])
    return _utf16(field) if isinstance(field, dict) else str(field).encode()


def _ok_vectors(ulid_vectors: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [v for v in ulid_vectors if "ulid" in v["expect"]]


def test_vectors_as_one_batch_per_settings(ulid_vectors: List[Dict[str, Any]]) -> None:
    """The valid vectors grouped by scheme, namespace, secret and field count, each group
    one batch (repeated past the threshold where the core splits a batch over threads),
    in chunks that differ from column to column."""
    groups: Dict[Any, List[Dict[str, Any]]] = {}
    for v in _ok_vectors(ulid_vectors):
        key = (_text(v["scheme"]), _namespace(v), v.get("secret_hex"), len(v["fields"]))
        groups.setdefault(key, []).append(v)
    assert groups
    rng = random.Random(7)
    for (scheme, namespace, secret_hex, width), group in groups.items():
        rows = [group[i % len(group)] for i in range(max(len(group), samekey.PARALLEL_MIN_ROWS + 5))]
        times = pa.array([int(v["timestamp_ms"]) for v in rows], pa.int64())
        columns = []
        for c in range(width):
            values = [_field_bytes(v["fields"][c]) for v in rows]
            cut = sorted(rng.sample(range(1, len(values)), 3))
            chunks = [values[a:b] for a, b in zip([0, *cut], [*cut, len(values)])]
            columns.append(pa.chunked_array([pa.array(ch, pa.binary()) for ch in chunks]))
        secret = bytes.fromhex(secret_hex) if secret_hex is not None else None
        for threads in (1, 2):
            ids = samekey.arrow.derive_ulids(
                times, *columns, namespace=namespace, scheme=scheme, secret=secret, threads=threads
            )
            assert ids.to_pylist() == [v["expect"]["ulid"] for v in rows], (scheme, namespace)


def test_binary_output_is_the_same_ids_as_16_bytes(ulid_vectors: List[Dict[str, Any]]) -> None:
    v = next(v for v in _ok_vectors(ulid_vectors) if v["scheme"] == "v1" and all(isinstance(f, str) for f in v["fields"]))
    args = (pa.array([v["timestamp_ms"]]), *(pa.array([f]) for f in v["fields"]))
    ids = samekey.arrow.derive_ulids(*args, namespace=_namespace(v), binary=True)
    assert ids.type == pa.binary(16)
    assert bytes(samekey.Ulid(v["expect"]["ulid"])) == ids[0].as_py()


def test_records_batches_and_tables(ulid_vectors: List[Dict[str, Any]]) -> None:
    rows = [v for v in _ok_vectors(ulid_vectors) if v["scheme"] == "v2" and v["namespace"] == "" and "secret_hex" not in v and len(v["fields"]) == 2 and all(isinstance(f, str) for f in v["fields"])]
    assert rows
    table = pa.table({
        "at": pa.array([v["timestamp_ms"] for v in rows], pa.int64()),
        "a": [v["fields"][0] for v in rows],
        "b": [v["fields"][1] for v in rows],
    })
    want = [v["expect"]["ulid"] for v in rows]
    for data in (table, table.to_batches()[0], pa.concat_tables([table.slice(0, 1), table.slice(1)])):
        out = samekey.arrow.with_ulids(data, time="at", fields=["a", "b"], scheme="v2")
        assert out.column("id").to_pylist() == want
        assert out.column_names == ["at", "a", "b", "id"]


def test_units_floor_to_the_millisecond_in_any_zone() -> None:
    base = 1714564800000
    forms = [
        pa.array([base // 1000], pa.timestamp("s", tz="UTC")),
        pa.array([base], pa.timestamp("ms", tz="Europe/Berlin")),
        pa.array([base * 1000 + 999], pa.timestamp("us", tz="-05:00")),
        pa.array([base * 1_000_000 + 999_999], pa.timestamp("ns", tz="Asia/Tokyo")),
        pa.array([dt.datetime(2024, 5, 1, 12, tzinfo=dt.timezone.utc)], pa.timestamp("us", tz="UTC")),
    ]
    expect = samekey.derive_ulid(["x"], time_ms=base)
    for times in forms:
        assert samekey.arrow.derive_ulids(times, pa.array(["x"])).to_pylist() == [str(expect)]


def test_a_naive_timestamp_column_is_invalid_timestamp() -> None:
    with pytest.raises(samekey.SamekeyError) as e:
        samekey.arrow.derive_ulids(pa.array([1], pa.timestamp("ms")), pa.array(["x"]))
    assert e.value.code == "invalid_timestamp"
    assert "time zone" in str(e.value)


@pytest.mark.parametrize("values", [
    pa.array([1], pa.int32()), pa.array([1.0]), pa.array(["1"]), pa.array([dt.date(2024, 5, 1)]),
])
def test_other_time_types_are_type_errors(values: pa.Array) -> None:
    with pytest.raises(TypeError, match="timestamp with a time zone, or int64"):
        samekey.arrow.derive_ulids(values, pa.array(["x"]))


def test_other_field_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="field column 1 is Dictionary"):
        samekey.arrow.derive_ulids(pa.array([1]), pa.array(["x"]), pa.array(["y"]).dictionary_encode())
    with pytest.raises(TypeError, match="Arrow array or stream"):
        samekey.arrow.derive_ulids(pa.array([1]), ["x"])


def test_nulls_are_refused_by_row_or_propagated() -> None:
    times = pa.array([1, 2, None, 4])
    slugs = pa.array(["a", None, "c", "d"])
    with pytest.raises(ValueError, match="field column 0 is null at row 1"):
        samekey.arrow.derive_ulids(times, slugs)
    ids = samekey.arrow.derive_ulids(times, slugs, nulls="propagate")
    assert ids.null_count == 2
    assert ids.to_pylist() == [
        str(samekey.derive_ulid(["a"], time_ms=1)), None, None, str(samekey.derive_ulid(["d"], time_ms=4)),
    ]
    bins = samekey.arrow.derive_ulids(times, slugs, nulls="propagate", binary=True)
    assert bins.to_pylist()[3] == bytes(samekey.derive_ulid(["d"], time_ms=4))
    with pytest.raises(ValueError, match="nulls must be"):
        samekey.arrow.derive_ulids(times, slugs, nulls="skip")  # type: ignore[arg-type]


def test_the_first_failing_row_is_reported_with_its_code() -> None:
    """Rows fail in order, whichever check fails (text that is not UTF-8, a time out of
    range), in later blocks of rows and in later chunks."""
    n = 200_000
    times = list(range(1, n + 1))
    ok = [b"ok"] * n

    def run(times: List[int], fields: List[bytes]) -> samekey.SamekeyError:
        column = _text_column(fields, pa.utf8())
        chunked = pa.chunked_array([column.slice(0, 99_999), column.slice(99_999)])
        with pytest.raises(samekey.SamekeyError) as e:
            samekey.arrow.derive_ulids(pa.array(times, pa.int64()), chunked, threads=2)
        return e.value

    bad_text = ok[:70_000] + [b"\xed\xa0\x80"] + ok[70_001:]
    late_time = times[:150_001] + [2**48] + times[150_002:]
    for t, fields, want in [
        (times, bad_text, ("invalid_string", 70_000)),
        (late_time, ok, ("timestamp_out_of_range", 150_001)),
        (late_time, ok[:180_000] + [b"\xff"] + ok[180_001:], ("timestamp_out_of_range", 150_001)),
        (times[:10] + [-1] + times[11:], bad_text, ("timestamp_out_of_range", 10)),
    ]:
        e = run(t, fields)
        assert (e.code, e.row) == want
        assert str(e).startswith(f"row {want[1]}: ")


def test_deriver_method_and_module_function_agree() -> None:
    deriver = samekey.UlidDeriver("v2", "posts", b"k")
    times = pa.array([1714564800000, 1714564800001])
    slugs = pa.array(["a", "b"], pa.large_utf8())
    a = pa.array(deriver.derive_arrow(times, slugs))
    b = samekey.arrow.derive_ulids(times, slugs, scheme="v2", namespace="posts", secret=b"k")
    assert a.equals(b)
    assert a.to_pylist() == [str(x) for x in deriver.derive_many([1714564800000, 1714564800001], ["a", "b"])]
    with pytest.raises(samekey.SamekeyError) as e:
        deriver.derive_arrow(times)
    assert e.value.code == "no_fields"


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="field column 0 has 1 rows but the time column has 2"):
        samekey.arrow.derive_ulids(pa.array([1, 2]), pa.array(["x"]))


def test_empty_columns_give_an_empty_array() -> None:
    ids = samekey.arrow.derive_ulids(pa.array([], pa.int64()), pa.array([], pa.utf8()))
    assert len(ids) == 0 and ids.type == pa.utf8()


def test_content_hashes_of_every_content_vector(vectors: List[Dict[str, Any]]) -> None:
    cases = [v for v in vectors if v["op"] == "content"]
    assert cases
    for scheme in sorted({_text(v["scheme"]) for v in cases}):
        group = [v for v in cases if _text(v["scheme"]) == scheme]
        data = [bytes.fromhex(v["data_hex"]) for v in group]
        want: List[Optional[str]] = [v["expect"].get("hash") for v in group]
        if any(w is None for w in want):
            with pytest.raises(samekey.SamekeyError) as e:
                samekey.arrow.content_hashes(pa.array(data, pa.binary()), scheme=scheme)
            assert e.value.code == group[0]["expect"]["error"]
            continue
        for type_ in BINARY_TYPES:
            assert samekey.arrow.content_hashes(pa.array(data, type_), scheme=scheme).to_pylist() == want


def test_content_hashes_of_text_are_those_of_its_utf8() -> None:
    texts = ["", "abc", "ünïcödé", None]
    for type_ in TEXT_TYPES:
        hashes = samekey.arrow.content_hashes(pa.array(texts, type_), nulls="propagate", scheme="v2")
        assert hashes.to_pylist() == [samekey.content_hash(t, scheme="v2") if t is not None else None for t in texts]
    with pytest.raises(ValueError, match="values is null at row 3"):
        samekey.arrow.content_hashes(pa.array(texts))


def test_the_array_is_exported_once_and_owns_its_memory() -> None:
    """The exported array outlives the samekey object, and exporting twice works."""
    out = samekey.UlidDeriver().derive_arrow(pa.array([1]), pa.array(["x"]))
    first = pa.array(out)
    second = pa.array(out)
    del out
    assert first.equals(second) and len(first) == 1
    assert repr(samekey.UlidDeriver().derive_arrow(pa.array([1]), pa.array(["x"]))).startswith("samekey.ArrowArray(Utf8")


def test_slices_and_empty_chunks_read_the_right_rows() -> None:
    """Arrays with an offset (slices) and chunked arrays with empty chunks: each row is
    read where the producer says it is."""
    n = 1000
    times = pa.array(range(1, n + 1), pa.int64())
    for type_ in TEXT_TYPES + BINARY_TYPES:
        slugs = pa.array([f"s{i}".encode() if type_ in BINARY_TYPES else f"s{i}" for i in range(n)], type_)
        want = [str(samekey.derive_ulid([f"s{i}"], time_ms=i + 1)) for i in range(n)]
        sliced = samekey.arrow.derive_ulids(times.slice(300, 500), slugs.slice(300, 500))
        assert sliced.to_pylist() == want[300:800], type_
        chunked = pa.chunked_array([slugs.slice(0, 0), slugs.slice(0, 10), slugs.slice(10, 0), slugs.slice(10)], type_)
        times_chunked = pa.chunked_array([times.slice(0, 999), times.slice(999)])
        assert samekey.arrow.derive_ulids(times_chunked, chunked).to_pylist() == want, type_
