-- The README's examples, as PostgreSQL's own regression tests run them (pg_regress).
-- Every id, hash and key below is checked against the independent reference
-- (spec/reference) by tests/test_regress_expected.py.
CREATE EXTENSION samekey;
SET timezone = 'UTC';
\set SHOW_CONTEXT never

-- A generated primary key (README: the first example).
CREATE TABLE posts (
    slug         text NOT NULL,
    lang         text NOT NULL,
    published_at timestamptz NOT NULL,
    body         json,
    id   text GENERATED ALWAYS AS
         (samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])) STORED PRIMARY KEY
);
INSERT INTO posts (slug, lang, published_at)
VALUES ('my-first-post-title', 'en', '2024-05-01T12:00:00Z') RETURNING id;
-- A retried insert is the same row, refused as a duplicate instead of a second copy.
INSERT INTO posts (slug, lang, published_at)
VALUES ('my-first-post-title', 'en', '2024-05-01T12:00:00Z');
INSERT INTO posts (slug, lang, published_at)
VALUES ('my-first-post-title', 'en', '2024-05-01T12:00:00Z') ON CONFLICT (id) DO NOTHING;
SELECT count(*) FROM posts;

-- The id every binding gives for the home page's example.
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);
SELECT samekey_ulid('v2', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en'], '\x736563726574'::bytea);
SELECT samekey_ulid_ms('v1', 1714564800000, 'posts', ARRAY['hello-world', 'en']);
SELECT samekey_ulid_uuid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);
SELECT samekey_ulid_text(samekey_ulid_uuid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']))
     = samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']) AS same_id;
SELECT samekey_ulid_timestamp_ms(samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']));
SELECT encode(samekey_ulid_message('v1', 'posts', ARRAY['hello-world', 'en']), 'hex') AS message;

-- Content hashes and revision keys.
SELECT samekey_content_hash('v1', 'hello');
SELECT samekey_content_hash('v2', '\x68656c6c6f'::bytea);
SELECT samekey_canonical_json('{"b": 1, "a": [1.0, "x"]}');
SELECT samekey_content_hash_json('v1', '{"b": 1, "a": [1.0, "x"]}');
SELECT samekey_content_hash_json('v1', '{"a":[1,"x"],"b":1}'::json);
SELECT samekey_revision_key('v1', NULL, 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
SELECT samekey_revision_key(NULL, 'rev:v1:0000000000000000000000000000000000000000000000000000000000000000', 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
SELECT * FROM samekey_key_parse(samekey_content_hash('v1', 'hello'));
SELECT * FROM samekey_key_parse('rev:v1:e493d210d0e873b2d15ceee1cfc0fc7b961985c0987dbb375f5be844aaa2d9a8');
SELECT samekey_needs_write(NULL, samekey_content_hash('v1', 'hello')) AS first_write,
       samekey_needs_write(samekey_content_hash('v1', 'hello'), samekey_content_hash('v1', 'hello')) AS unchanged;

-- A key ring: derive under v2, still recognise v1's ids.
SELECT samekey_ring_schemes(ARRAY['v2', 'v1']);
SELECT * FROM samekey_candidates(ARRAY['v2', 'v1'], '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);
SELECT samekey_verify(ARRAY['v2', 'v1'], samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']),
                      '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);

-- Refuse a changed identity (README: the trigger).
CREATE TABLE articles (id text PRIMARY KEY, slug text, lang text, published_at timestamptz);
CREATE FUNCTION articles_keep_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM samekey_verify(ARRAY['v1'], NEW.id, NEW.published_at, 'articles',
                           ARRAY[NEW.slug, NEW.lang]);
    RETURN NEW;
END $$;
CREATE TRIGGER keep_identity BEFORE INSERT OR UPDATE ON articles
    FOR EACH ROW EXECUTE FUNCTION articles_keep_identity();
INSERT INTO articles
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'articles', ARRAY['hello', 'en']), 'hello', 'en', '2024-05-01T12:00:00Z';
UPDATE articles SET published_at = published_at + interval '1 day';
SELECT count(*) FROM articles WHERE published_at = '2024-05-01T12:00:00Z';

DROP TABLE posts, articles;
DROP FUNCTION articles_keep_identity();
DROP EXTENSION samekey;
