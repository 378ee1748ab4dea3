"""The README's SQL examples, run as written: the table and its generated id (which must
be the Python binding's id of the same post), and the identity trigger."""

from __future__ import annotations

import datetime as dt
import pathlib
import re
from typing import List

import psycopg
import pytest
import samekey

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def sql_blocks() -> List[str]:
    return re.findall(r"```sql\n(.*?)```", README.read_text(), re.S)


def statements(block: str) -> List[str]:
    """The block's statements, comments dropped; a $$ body is kept whole."""
    code = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("--"))
    parts, current, in_body = [], [], False
    for piece in re.split(r"(\$\$|;)", code):
        if piece == "$$":
            in_body = not in_body
        if piece == ";" and not in_body:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(piece)
    return [p for p in parts if p]


def test_generated_column_example(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS posts CASCADE")
    block = sql_blocks()[0]
    stmts = [s for s in statements(block) if not s.startswith("CREATE EXTENSION")]
    for s in stmts[:-1]:
        con.execute(s)
    row = con.execute(stmts[-1]).fetchone()
    assert row is not None
    t = dt.datetime(2024, 5, 1, 12, tzinfo=dt.timezone.utc)
    want = str(samekey.derive_ulid(["my-first-post-title", "en"], time=t, namespace="posts", scheme="v1"))
    assert row[0] == want
    assert want in block, "the README shows another id than the one its SQL derives"


def test_trigger_example(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS articles CASCADE")
    con.execute("CREATE TABLE articles (id text PRIMARY KEY, slug text, lang text, published_at timestamptz)")
    block = next(b for b in sql_blocks() if "CREATE TRIGGER" in b)
    for s in statements(block):
        con.execute(s.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"))
    t = dt.datetime(2024, 5, 1, 12, tzinfo=dt.timezone.utc)
    id_ = str(samekey.derive_ulid(["hello", "en"], time=t, namespace="articles", scheme="v1"))
    con.execute("INSERT INTO articles VALUES (%s, 'hello', 'en', %s)", (id_, t))
    commented = re.search(r"^-- (UPDATE articles .*);$", block, re.M)
    assert commented, "the README's example UPDATE is missing"
    with pytest.raises(psycopg.Error) as err:
        con.execute(commented.group(1))
    assert err.value.sqlstate == "23514"
    assert (err.value.diag.message_primary or "").startswith("error[identity_mismatch]")
    con.execute("UPDATE articles SET lang = 'en'")  # the identity unchanged: allowed
    with pytest.raises(psycopg.Error) as err:
        con.execute("INSERT INTO articles VALUES ('not-a-ulid', 'x', 'en', now())")
    assert (err.value.diag.message_primary or "").startswith("error[invalid_ulid]: ")
    assert con.execute("SELECT published_at FROM articles").fetchall() == [(t,)]
