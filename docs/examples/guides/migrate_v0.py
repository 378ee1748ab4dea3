import hashlib
from datetime import datetime, timezone

import samekey

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def old_id(slug: str, lang: str, published: datetime) -> str:
    """The recipe being replaced: the time, then sha256(slug + ":" + lang)[:10]."""
    ms = int(published.timestamp() * 1000)
    digest = hashlib.sha256(f"{slug}:{lang}".encode()).digest()
    raw = ms.to_bytes(6, "big") + digest[:10]
    n = int.from_bytes(raw, "big")
    return "".join(CROCKFORD[(n >> shift) & 31] for shift in range(125, -1, -5))


published = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
stored = old_id("hello-world", "en", published)  # an id already in the database
print("old recipe:", stored)
v0 = samekey.derive_ulid(["hello-world", "en"], time=published, scheme="v0")
print("samekey v0:", v0)

# New ids under v1, in the namespace "posts": the home page's id for this post.
fields = ["hello-world", "en"]
ring = samekey.KeyRing("v1", ["v0"])
print("new id:", ring.derive_ulid(fields, time=published, namespace="posts"))
# Look a document up by every id it may have. v0 takes no namespace, so the ring leaves it
# out of the candidates with one: the old id is the candidate of the same fields without.
lookups = list(ring.candidate_ulids(fields, time=published, namespace="posts"))
lookups += [(s, u) for s, u in ring.candidate_ulids(fields, time=published) if s == "v0"]
for scheme, candidate in lookups:
    print("look up:", scheme, candidate)
print("stored id is:", ring.verify_ulid(stored, fields, time=published))
