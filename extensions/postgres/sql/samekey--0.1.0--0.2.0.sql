-- samekey 0.1.0 to 0.2.0: ALTER EXTENSION samekey UPDATE.
-- Adds samekey_ulid_ms, the id from a bigint of milliseconds since 1970. Nothing that
-- 0.1.0 created changes: a released scheme's functions never change their output.
-- tests/test_upgrade.py checks that the catalog after this script is a fresh 0.2.0's.
\echo Use "ALTER EXTENSION samekey UPDATE" to load this file. \quit

CREATE FUNCTION "samekey_ulid_ms"("scheme" TEXT, "ms" bigint, "namespace" TEXT, "fields" TEXT[])
RETURNS TEXT IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_ms_text_wrapper';

CREATE FUNCTION "samekey_ulid_ms"("scheme" TEXT, "ms" bigint, "namespace" TEXT, "fields" TEXT[], "secret" bytea)
RETURNS TEXT IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_ms_text_keyed_wrapper';

CREATE FUNCTION "samekey_ulid_ms"("scheme" TEXT, "ms" bigint, "namespace" TEXT, "fields" bytea[])
RETURNS TEXT IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_ms_bytes_wrapper';

CREATE FUNCTION "samekey_ulid_ms"("scheme" TEXT, "ms" bigint, "namespace" TEXT, "fields" bytea[], "secret" bytea)
RETURNS TEXT IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_ms_bytes_keyed_wrapper';
