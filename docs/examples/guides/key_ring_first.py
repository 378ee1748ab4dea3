import samekey

fields, where = ["hello-world", "en"], {"time": "2024-05-01T12:00:00Z", "namespace": "posts"}
stored_id = samekey.derive_ulid(fields, **where)  # scheme v1, the default
print("stored last year under v1:", stored_id)

ring = samekey.KeyRing("v2", ["v1"])  # new ids under v2; ids under v1 still recognised
print("a new post's id, under v2:", ring.derive_ulid(fields, **where))
for scheme, candidate in ring.candidate_ulids(fields, **where):
    print(f"look the post up by its {scheme} id:", candidate)
print("the stored id is the post's, under", ring.verify_ulid(stored_id, fields, **where))
