-- NULLs, errors with their codes and SQLSTATEs, and times (README: NULLs, Times, JSON).
CREATE EXTENSION samekey;
SET timezone = 'UTC';
\set SHOW_CONTEXT never
\set VERBOSITY sqlstate

-- STRICT: a NULL argument gives NULL; a NULL field is an error (22004).
SELECT samekey_ulid('v1', NULL, 'posts', ARRAY['a']) IS NULL AS null_time;
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['a'], NULL) IS NULL AS null_secret;
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['a', NULL]);
\set VERBOSITY default
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['a', NULL]);
SELECT samekey_ulid('v9', '2024-05-01T12:00:00Z', 'posts', ARRAY['a']);
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY[]::text[]);
SELECT samekey_ulid('v1', 'infinity', 'posts', ARRAY['a']);
SELECT samekey_ulid('v1', '1969-12-31T23:59:59.999Z', 'posts', ARRAY['a']);
SELECT samekey_ulid_ms('v1', -1, 'posts', ARRAY['a']);
SELECT samekey_ulid_parse('01HWT0D7G0-not-a-ulid');
SELECT samekey_content_hash_json('v1', '{"a": 1, "a": 2}');
SELECT samekey_content_hash_json('v1', '{"a": 1}'::jsonb);
SELECT samekey_revision_key('v2', NULL, 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
\set VERBOSITY sqlstate

-- The session's time zone does not change an id: a timestamptz is an instant.
SET timezone = 'America/New_York';
SELECT samekey_ulid('v1', '2024-05-01T08:00:00-04:00', 'posts', ARRAY['hello-world', 'en'])
     = samekey_ulid_ms('v1', 1714564800000, 'posts', ARRAY['hello-world', 'en']) AS same_instant;
SET timezone = 'UTC';

-- Microseconds are floored to the millisecond, before 1970 too (spec §8.2).
SELECT samekey_ulid_timestamp_ms(samekey_ulid('v1', '1970-01-01T00:00:00.0019Z', 'posts', ARRAY['a'])) AS floored_ms;
SELECT samekey_ulid('v1', '2024-05-01T12:00:00.000999Z', 'posts', ARRAY['a'])
     = samekey_ulid_ms('v1', 1714564800000, 'posts', ARRAY['a']) AS floored;

\set VERBOSITY default

-- RFC 3339 under the spec's strict rules, not PostgreSQL's lenient input.
SELECT samekey_parse_rfc3339('2024-05-01T12:00:00.123Z');
SELECT samekey_parse_rfc3339('2024-05-01 12:00');

-- Seconds where milliseconds belong: the id is kept (the value is a valid time), and
-- the backend warns once.
SELECT samekey_ulid_timestamp_ms(samekey_ulid_ms('v1', 1714564800, 'posts', ARRAY['a'])) AS ms;
SELECT samekey_ulid_timestamp_ms(samekey_ulid_ms('v1', 1714564801, 'posts', ARRAY['a'])) AS ms;

DROP EXTENSION samekey;
