CREATE EXTENSION IF NOT EXISTS samekey;

-- The id and the content hash are columns the database computes: no writer gets them wrong.
CREATE TEMP TABLE posts (
    slug         text NOT NULL,
    lang         text NOT NULL,
    published_at timestamptz NOT NULL,
    body         json NOT NULL,
    id           text GENERATED ALWAYS AS
                 (samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])) STORED PRIMARY KEY,
    body_hash    text GENERATED ALWAYS AS (samekey_content_hash_json('v1', body)) STORED
);

-- Written, retried after a lost acknowledgement (no row: nothing changed), edited.
PREPARE upsert(text, text, timestamptz, json) AS
    INSERT INTO posts (slug, lang, published_at, body) VALUES ($1, $2, $3, $4)
    ON CONFLICT (id) DO UPDATE SET body = excluded.body
    WHERE posts.body_hash IS DISTINCT FROM samekey_content_hash_json('v1', excluded.body)
    RETURNING id, body_hash;
EXECUTE upsert('hello-world', 'en', '2024-05-01T12:00:00Z', '{"title": "Hello"}');
EXECUTE upsert('hello-world', 'en', '2024-05-01T12:00:00Z', '{ "title" : "Hello" }');
EXECUTE upsert('hello-world', 'en', '2024-05-01T12:00:00Z', '{"title": "Hello, world"}');
SELECT count(*) FROM posts;

-- A backfill from a column of milliseconds gives the same id.
SELECT samekey_ulid_ms('v1', 1714564800000, 'posts', ARRAY['hello-world', 'en']);
