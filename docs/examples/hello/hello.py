from datetime import datetime, timezone

import samekey

published = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
post_id = samekey.derive_ulid(["hello-world", "en"], time=published, namespace="posts")
print(post_id)
