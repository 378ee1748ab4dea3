CREATE EXTENSION IF NOT EXISTS samekey;

-- Ids computed by the application (any binding) and stored as given.
CREATE TEMP TABLE posts (
    id           text PRIMARY KEY,
    slug         text NOT NULL,
    lang         text NOT NULL,
    published_at timestamptz NOT NULL,
    body         text NOT NULL
);

-- Every insert and update must keep the id its identity fields derive: a changed field
-- fails the write with identity_mismatch (SQLSTATE 23514, check_violation).
CREATE FUNCTION pg_temp.posts_keep_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM samekey_verify(ARRAY['v1'], NEW.id, NEW.published_at, 'posts',
                           ARRAY[NEW.slug, NEW.lang]);
    RETURN NEW;
END $$;
CREATE TRIGGER keep_identity BEFORE INSERT OR UPDATE ON posts
    FOR EACH ROW EXECUTE FUNCTION pg_temp.posts_keep_identity();

-- What a write gets: written, or the error code samekey refused it with.
CREATE FUNCTION pg_temp.try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'written';
EXCEPTION WHEN check_violation THEN
    RETURN 'refused (' || substring(SQLERRM FROM '^error\[(\w+)\]') || ')';
END $$;

INSERT INTO posts VALUES (
    samekey_ulid('v1', timestamptz '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']),
    'hello-world', 'en', '2024-05-01T12:00:00Z', 'Hello!')
RETURNING id;
SELECT pg_temp.try($$UPDATE posts SET body = 'Hello, world!'$$);
SELECT pg_temp.try($$UPDATE posts SET published_at = '2024-05-02T12:00:00Z'$$);
SELECT pg_temp.try($$INSERT INTO posts SELECT id, 'hello-world', 'de', published_at, 'Hallo!'
                     FROM posts$$);
