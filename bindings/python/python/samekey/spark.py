"""samekey in Apache Spark (``pip install samekey[spark]``): ids and content hashes of
DataFrame columns, computed by the Python workers over Arrow batches.

>>> from pyspark.sql import SparkSession                       # doctest: +SKIP
>>> import samekey.spark as sks                                 # doctest: +SKIP
>>> posts = spark.table("posts")                                # doctest: +SKIP
>>> posts.withColumn("id", sks.ulid("published_at", "slug", "lang", namespace="posts"))
...                                                             # doctest: +SKIP

``ulid`` and ``content_hash`` are column expressions (Arrow UDFs, Spark 4.1 or later);
``with_ulid`` adds the column through ``DataFrame.mapInArrow`` (Spark 3.3 or later).

Times: a ``TIMESTAMP`` column is an instant (Spark stores microseconds since the epoch
in UTC; ``spark.sql.session.timeZone`` only changes how it is shown and how text is
parsed), so its ids do not depend on any time-zone setting. ``TIMESTAMP_NTZ`` has no
instant and is ``invalid_timestamp``, as a naive ``datetime`` is; so is text: convert it
with ``to_timestamp`` and an explicit offset or zone, since parsing text without one
uses the session time zone. A ``BIGINT`` column is milliseconds since the epoch.

Executors need samekey installed in the Python that runs their workers (see the
package README: ``spark.archives`` with a packed environment, or a cluster library; not
``--py-files``, since Python cannot import the native module from a zip or wheel). A secret given here travels to the executors in the
task's closure, like any value a UDF captures.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Iterator, Literal, Optional, Sequence, Union

from samekey._errors import code_in_text
from samekey._samekey import UlidDeriver, content_hash_arrow

if TYPE_CHECKING:
    from pyspark.sql import Column as _Column
    from pyspark.sql import DataFrame as _DataFrame

__all__ = ["content_hash", "ulid", "with_ulid"]

_Secret = Optional[bytes]
_ColumnOrName = Union["_Column", str]


def _spark() -> Any:
    try:
        import pyspark.sql.functions as functions
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("samekey.spark needs PySpark: pip install 'samekey[spark]'") from e
    return functions


def _id_type(binary: bool) -> Any:
    from pyspark.sql.types import BinaryType, StringType

    return BinaryType() if binary else StringType()


def _arrow_signature(function: Any, arity: int) -> Any:
    """``function`` declared as taking ``arity`` pyarrow arrays and returning one: Spark
    reads an Arrow UDF's kind from its type hints (a variadic function has none)."""
    import pyarrow as pa

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(f"a{i}", kind, annotation=pa.Array) for i in range(arity)]
    function.__signature__ = inspect.Signature(params, return_annotation=pa.Array)
    function.__annotations__ = {}
    return function


def ulid(
    time: _ColumnOrName,
    *fields: _ColumnOrName,
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
) -> "_Column":
    """A column of the ids of ``time`` and ``fields`` (columns or names): ULID text, or
    the 16 bytes with ``binary=True``. Spark 4.1 or later (an Arrow UDF)."""
    functions = _spark()
    # The settings' errors, and no_fields, here on the driver rather than in a task.
    checked = UlidDeriver(scheme, namespace, secret)
    if not fields:
        checked.derive_arrow(None)

    def ids(times: Any, *columns: Any) -> Any:
        import pyarrow as pa

        deriver = UlidDeriver(scheme, namespace, secret)
        with code_in_text():
            # Spark runs one worker per core already: one thread per batch.
            out = deriver.derive_arrow(times, *columns, binary=binary, nulls=nulls, threads=1)
        return pa.array(out)

    udf = functions.arrow_udf(_arrow_signature(ids, 1 + len(fields)), _id_type(binary))
    return udf(time, *fields)


def content_hash(values: _ColumnOrName, *, scheme: str = "v1", nulls: Literal["error", "propagate"] = "error") -> "_Column":
    """A column of the content hash of every value of a binary or string column (a
    string is hashed as its UTF-8 bytes). Spark 4.1 or later (an Arrow UDF)."""
    functions = _spark()
    from pyspark.sql.types import StringType

    def hashes(column: Any) -> Any:
        import pyarrow as pa

        with code_in_text():
            return pa.array(content_hash_arrow(column, scheme=scheme, nulls=nulls))

    udf = functions.arrow_udf(_arrow_signature(hashes, 1), StringType())
    return udf(values)


def with_ulid(
    df: "_DataFrame",
    *,
    time: str,
    fields: Sequence[str],
    name: str = "id",
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
) -> "_DataFrame":
    """``df`` with a column ``name`` of the ids of its ``time`` and ``fields`` columns,
    through ``DataFrame.mapInArrow`` (Spark 3.3 or later)."""
    from pyspark.sql.types import StructField, StructType

    if isinstance(fields, str):
        raise TypeError("fields must be a sequence of column names, not one str")
    if name in df.columns:
        raise ValueError(f"the DataFrame already has a column {name!r}")
    # The settings' errors, and no_fields, here on the driver rather than in a task.
    checked = UlidDeriver(scheme, namespace, secret)
    if not fields:
        checked.derive_arrow(None)
    field = StructField(name, _id_type(binary), nullable=nulls == "propagate")
    schema = StructType([*df.schema.fields, field])
    names = list(fields)

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        deriver = UlidDeriver(scheme, namespace, secret)
        for batch in batches:
            with code_in_text():
                ids = deriver.derive_arrow(
                    batch.column(time),
                    *(batch.column(f) for f in names),
                    binary=binary,
                    nulls=nulls,
                    threads=1,
                )
            yield batch.append_column(field.name, pa.array(ids))

    return df.mapInArrow(run, schema)
