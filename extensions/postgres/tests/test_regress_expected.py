"""The pg_regress expected outputs (tests/pg_regress/expected) were recorded from the
extension: every id, hash, key and canonical text in them is derived again here by the
independent reference (spec/reference/samekey_ref.py), so a recorded output cannot
carry the extension's own mistake. A statement is checked when all its arguments are
literals: SQL strings, numbers, NULL, ARRAY[...] of strings and '\\x..'::bytea."""

from __future__ import annotations

import ast
import pathlib
import re
import sys
from typing import Any, Callable, Dict, List, Tuple

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "spec" / "reference"))
import samekey_ref as ref  # noqa: E402

EXPECTED = sorted((HERE / "pg_regress" / "expected").glob("*.out"))
CALL = re.compile(r"^SELECT (samekey_\w+)\((.*)\);$")


def literal(args: str) -> Tuple[Any, ...]:
    """SQL literal arguments as Python values (bytea from '\\x..'::bytea)."""
    py = re.sub(r"'\\x([0-9a-f]*)'::bytea", r"bytes.fromhex('\1')", args)
    py = re.sub(r"::\w+", "", py).replace("ARRAY[", "[").replace("NULL", "None")
    tree = ast.parse(f"({py},)", mode="eval")
    return tuple(_value(e) for e in tree.body.elts)


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Call):  # bytes.fromhex('..')
        return bytes.fromhex(ast.literal_eval(node.args[0]))
    return ast.literal_eval(node)


def _ms(t: Any) -> int:
    return t if isinstance(t, int) else ref.parse_timestamp(t)


def _ulid(scheme: str, t: Any, ns: str, fields: List[Any], secret: Any = None) -> str:
    return ref.derive_ulid(scheme, _ms(t), ns, fields, secret)["ulid"]


REFERENCE: Dict[str, Callable[..., str]] = {
    "samekey_ulid": _ulid,
    "samekey_ulid_ms": _ulid,
    "samekey_ulid_uuid": lambda s, t, ns, f, k=None: ref.derive_ulid(s, _ms(t), ns, f, k)["uuid"],
    "samekey_content_hash": lambda s, d: ref.content_hash(s, d if isinstance(d, bytes) else d.encode()),
    "samekey_content_hash_json": lambda s, j: ref.content_json(s, j)["hash"],
    "samekey_canonical_json": lambda j: ref.canonical(ref.parse_json(j)),
    "samekey_revision_key": lambda s, p, h, k=None: ref.revision(s or ref.parse_content_hash(h)[0], p, h, k)["key"],
}


def recorded() -> List[Tuple[str, str, str]]:
    """(file, statement, the value pg_regress recorded) for each one-row literal call."""
    found = []
    for path in EXPECTED:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            m = CALL.match(line)
            # psql's aligned output: a header, a rule, then the one value.
            if m and m.group(1) in REFERENCE and i + 3 < len(lines) and lines[i + 2].startswith("---"):
                found.append((path.name, line, lines[i + 3].strip()))
    return found


def test_expected_outputs_exist() -> None:
    assert EXPECTED, "tests/pg_regress/expected holds no .out file"
    assert len(recorded()) >= 10, "too few literal calls found in the expected outputs"


@pytest.mark.parametrize("name,statement,value", recorded())
def test_recorded_value_is_the_references(name: str, statement: str, value: str) -> None:
    m = CALL.match(statement)
    assert m is not None
    assert REFERENCE[m.group(1)](*literal(m.group(2))) == value, f"{name}: {statement}"
