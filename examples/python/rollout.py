"""The store's side of changing the key algorithm while writers run (the key-rings guide's
client-side rollout), for pipeline.py's posts table on PostgreSQL.

The table records each post's id in one unique column per scheme (`id_v1`, `id_v2`) and
names its required schemes with constraints, so that the store, not the writers' good
timing, keeps one post per identity: a writer whose ring lacks a required scheme, or
holds a retired one, is refused (`scheme_required`), and any two writers it lets in share
a required scheme whose column is unique.

    python rollout.py DSN status
    python rollout.py DSN require v2
    python rollout.py DSN retire v1
"""

from __future__ import annotations

import asyncio
import sys
from typing import Dict, List

import psycopg
from psycopg import sql

import samekey

NAMESPACE = "posts"
ID_COLUMNS = {"v1": "id_v1", "v2": "id_v2"}


class RolloutError(Exception):
    """A step the store's state does not allow (a message for the operator)."""


async def constraints(conn: psycopg.AsyncConnection) -> Dict[str, str]:
    """Each scheme's state: `required` or `retired` (absent: neither)."""
    cur = await conn.execute(
        "SELECT conname FROM pg_constraint WHERE conrelid = 'posts'::regclass"
        " AND conname ~ '^posts_(require|retire)_'"
    )
    states = {}
    for (name,) in await cur.fetchall():
        _, verb, scheme = name.split("_", 2)
        states[scheme] = "required" if verb == "require" else "retired"
    return states


# ANCHOR: record_schemes
async def record_schemes(conn: psycopg.AsyncConnection) -> None:
    """Once, for a posts table of the recipe before key rings: a column per scheme, each
    unique, and the scheme each post was created under. Every post stored so far was
    derived under v1, which becomes the first required scheme. Runs in the caller's
    transaction; does nothing to a table that has the columns, or to no table."""
    cur = await conn.execute(
        "SELECT COUNT(*) FILTER (WHERE column_name = 'id_scheme'), COUNT(*) FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'posts'")
    recorded, columns = await cur.fetchone()
    if recorded or not columns:
        return  # checked first: ALTER TABLE would lock out every writer
    await conn.execute(
        "ALTER TABLE posts ADD COLUMN id_scheme TEXT,"
        " ADD COLUMN id_v1 TEXT CONSTRAINT posts_id_v1_key UNIQUE,"
        " ADD COLUMN id_v2 TEXT CONSTRAINT posts_id_v2_key UNIQUE")
    await conn.execute("UPDATE posts SET id_scheme = 'v1', id_v1 = id")
    await conn.execute("ALTER TABLE posts ALTER COLUMN id_scheme SET NOT NULL,"
                       " ADD CONSTRAINT posts_require_v1 CHECK (id_v1 IS NOT NULL)")
# ANCHOR_END: record_schemes


async def require(dsn: str, scheme: str, batch: int = 500) -> int:
    """Makes every post carry its `scheme` id: new writes at once (a writer whose ring
    lacks it is refused from here on), then the posts stored without it. Returns how
    many posts it filled in."""
    column = _column(scheme)
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        if (await constraints(conn)).get(scheme) == "retired":
            raise RolloutError(f"{scheme} is retired: a retired scheme is never required again")
        name = sql.Identifier(f"posts_require_{scheme}")
        if scheme not in await constraints(conn):
            # NOT VALID: checked on every write from now on, without scanning the table.
            await conn.execute(sql.SQL("ALTER TABLE posts ADD CONSTRAINT {} CHECK ({} IS NOT NULL) NOT VALID")
                               .format(name, sql.Identifier(column)))
        filled = 0
        while True:
            cur = await conn.execute(
                sql.SQL("SELECT id, id_scheme, slug, lang, published_at FROM posts WHERE {} IS NULL LIMIT %s")
                .format(sql.Identifier(column)), (batch,))
            rows = await cur.fetchall()
            if not rows:
                break
            for stored_id, stored_scheme, slug, lang, published_at in rows:
                fields = [slug, lang]
                # The post's own fields must still derive the id it was created under.
                try:
                    samekey.KeyRing(stored_scheme, []).verify_ulid(stored_id, fields, time=published_at, namespace=NAMESPACE)
                except samekey.SamekeyError as e:
                    raise RolloutError(f"post {stored_id}: its fields do not derive its {stored_scheme} id ({e.code}); fix it before requiring {scheme}") from e
                new_id = samekey.derive_ulid(fields, time=published_at, scheme=scheme, namespace=NAMESPACE)
                await conn.execute(
                    sql.SQL("UPDATE posts SET {col} = %s WHERE id = %s AND {col} IS NULL").format(col=sql.Identifier(column)),
                    (str(new_id), stored_id))
                filled += 1
        await conn.execute(sql.SQL("ALTER TABLE posts VALIDATE CONSTRAINT {}").format(name))
        return filled


async def retire(dsn: str, scheme: str) -> int:
    """Stops `scheme` for good: its ids are cleared and a writer recording one is refused,
    so a collision in it can never make two posts one. Needs another required scheme.
    Returns how many ids it cleared."""
    column = _column(scheme)
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        async with conn.transaction():
            await conn.execute("LOCK TABLE posts IN SHARE ROW EXCLUSIVE MODE")
            states = await constraints(conn)
            others = [s for s, state in states.items() if state == "required" and s != scheme]
            if not others:
                raise RolloutError(f"{scheme} is the last required scheme: require another one first")
            if states.get(scheme) == "retired":
                return 0
            await conn.execute(sql.SQL("ALTER TABLE posts DROP CONSTRAINT IF EXISTS {}")
                               .format(sql.Identifier(f"posts_require_{scheme}")))
            cur = await conn.execute(sql.SQL("UPDATE posts SET {col} = NULL WHERE {col} IS NOT NULL")
                                     .format(col=sql.Identifier(column)))
            await conn.execute(sql.SQL("ALTER TABLE posts ADD CONSTRAINT {} CHECK ({} IS NULL)")
                               .format(sql.Identifier(f"posts_retire_{scheme}"), sql.Identifier(column)))
            return cur.rowcount


async def status(dsn: str) -> List[str]:
    """Where the rollout stands, one line per scheme: its state, how many posts were
    created under it, how many carry its id and how many do not."""
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        states = await constraints(conn)
        lines = []
        for scheme, column in ID_COLUMNS.items():
            cur = await conn.execute(
                sql.SQL("SELECT COUNT(*) FILTER (WHERE id_scheme = %s), COUNT({col}), COUNT(*) - COUNT({col}) FROM posts")
                .format(col=sql.Identifier(column)), (scheme,))
            created, recorded, missing = await cur.fetchone()
            lines.append(f"{scheme}\t{states.get(scheme, 'optional')}\tcreated {created}\trecorded {recorded}\tmissing {missing}")
        return lines


def _column(scheme: str) -> str:
    if scheme not in ID_COLUMNS:
        raise RolloutError(f"{scheme!r} is not a scheme the posts table has a column for ({', '.join(ID_COLUMNS)})")
    return ID_COLUMNS[scheme]


def main(argv: List[str]) -> int:
    command = argv[2:3] + [len(argv)]
    if command not in (["status", 3], ["require", 4], ["retire", 4]):
        print("usage: python rollout.py DSN status | require SCHEME | retire SCHEME", file=sys.stderr)
        return 2
    try:
        if argv[2] == "status":
            print("\n".join(asyncio.run(status(argv[1]))))
        elif argv[2] == "require":
            print(f"{argv[3]} required: {asyncio.run(require(argv[1], argv[3]))} posts filled in")
        else:
            print(f"{argv[3]} retired: {asyncio.run(retire(argv[1], argv[3]))} ids cleared")
    except RolloutError as e:
        print(f"rollout: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
