import samekey

stored = {"slug": "hello-world", "lang": "en", "publishedAt": "2024-05-01T12:00:00Z",
          "body": "Hello!"}
stored_id = samekey.derive_ulid([stored["slug"], stored["lang"]], time=stored["publishedAt"],
                                namespace="posts")
stored_hash = samekey.content_hash_json(stored)
print("stored:", stored_id, stored_hash)

# Skip unchanged: the same post with its keys in another order is the same canonical JSON.
again = {"body": "Hello!", "publishedAt": "2024-05-01T12:00:00Z", "lang": "en",
         "slug": "hello-world"}
edited = {**stored, "body": "Hello, world!"}
for name, post in (("again", again), ("edited", edited)):
    write = samekey.needs_write(stored_hash, samekey.content_hash_json(post))
    print(f"{name}: {'write' if write else 'skip'}")

# Refuse a changed identity: a new publishedAt is a new id, and would orphan the stored post.
moved = {**stored, "publishedAt": "2024-05-02T12:00:00Z"}
for name, post in (("edited", edited), ("moved", moved)):
    try:
        scheme = samekey.verify(stored_id, [post["slug"], post["lang"]],
                                time=post["publishedAt"], namespace="posts")
        print(f"{name}: same identity ({scheme})")
    except samekey.SamekeyError as e:
        print(f"{name}: refused ({e.code})")
