"""An idempotent upsert pipeline with the standard library's sqlite3.

Run it twice, or kill it half-way and run it again: the table ends the same, because
every document's id derives from what identifies it (slug, lang, publishedAt), unchanged
content is not rewritten, and a changed identity is refused instead of orphaning the
stored document.
"""

from __future__ import annotations

import sqlite3
import sys
from typing import Any, Dict, List

import samekey

DERIVER = samekey.UlidDeriver("v1", namespace="posts")


def upsert(db: sqlite3.Connection, post: Dict[str, Any]) -> str:
    """Writes `post` under its deterministic id; returns what happened."""
    identity = [post["slug"], post["lang"]]
    ulid = DERIVER.derive(identity, time=post["publishedAt"])
    content = samekey.content_hash_json(post)
    row = db.execute("SELECT content_hash FROM posts WHERE id = ?", (str(ulid),)).fetchone()
    if not samekey.needs_write(row[0] if row else None, content):
        return "unchanged"
    db.execute(
        "INSERT INTO posts (id, slug, lang, published_at, body, content_hash) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET body = excluded.body, content_hash = excluded.content_hash",
        (str(ulid), post["slug"], post["lang"], post["publishedAt"], post["body"], content),
    )
    return "written"


def edit(db: sqlite3.Connection, stored_id: str, post: Dict[str, Any]) -> str:
    """Updates a stored document, refusing an edit of an identity field."""
    try:
        samekey.verify(stored_id, [post["slug"], post["lang"]], time=post["publishedAt"],
                       namespace="posts")
    except samekey.SamekeyError as e:
        if e.code == "identity_mismatch":
            return "refused: the edit changes the document's identity"
        raise
    return upsert(db, post)


def main() -> List[str]:
    db = sqlite3.connect(sys.argv[1] if len(sys.argv) > 1 else ":memory:")
    db.execute(
        "CREATE TABLE IF NOT EXISTS posts (id TEXT PRIMARY KEY, slug TEXT, lang TEXT, "
        "published_at TEXT, body TEXT, content_hash TEXT)"
    )
    post = {"slug": "hello-world", "lang": "en", "publishedAt": "2024-05-01T12:00:00Z", "body": "Hi"}
    log = [
        upsert(db, post),                                 # written
        upsert(db, post),                                 # a retry: unchanged, no duplicate
        upsert(db, {**post, "body": "Hello"}),            # an edit of the body: written
    ]
    stored_id = db.execute("SELECT id FROM posts").fetchone()[0]
    log.append(edit(db, stored_id, {**post, "publishedAt": "2024-05-02T12:00:00Z"}))  # refused
    log.append(f"rows: {db.execute('SELECT COUNT(*) FROM posts').fetchone()[0]}")
    db.commit()
    return log


if __name__ == "__main__":
    print("\n".join(main()))
