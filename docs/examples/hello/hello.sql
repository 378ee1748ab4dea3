CREATE EXTENSION IF NOT EXISTS samekey;
SELECT samekey_ulid('v1', '2024-05-01T12:00:00Z', 'posts', ARRAY['hello-world', 'en']);
