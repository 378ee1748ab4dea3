import sqlite3
import uuid

import samekey

post = {"slug": "hello-world", "lang": "en", "publishedAt": "2024-05-01T12:00:00Z", "body": "Hello!"}
post_id = str(samekey.derive_ulid([post["slug"], post["lang"]], time=post["publishedAt"], namespace="posts"))

for name, make_id in (("derived id", lambda: post_id), ("random id", lambda: str(uuid.uuid4()))):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE posts (id TEXT PRIMARY KEY, slug TEXT, lang TEXT, body TEXT)")
    for attempt in (1, 2):  # the second is the retry after a lost acknowledgement
        db.execute("INSERT INTO posts VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                   (make_id(), post["slug"], post["lang"], post["body"]))
    print(f"{name}: {db.execute('SELECT count(*) FROM posts').fetchone()[0]} row(s)")
print("the post's id:", post_id)
