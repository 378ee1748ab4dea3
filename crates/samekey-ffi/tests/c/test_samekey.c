/* The C ABI as a C program uses it, run under valgrind --leak-check=full by
 * `just test-ffi`: every allocation freed, every error a status with a code.
 * (Exact outputs are checked against the shared vectors by the Go tests; here the
 * checks are properties that hold whatever the hash.) */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "samekey.h"

static int passed, failed;

/* A text argument from a string literal: its bytes and their count (a NUL inside counts). */
#define T(literal) (const uint8_t *)(literal), sizeof(literal) - 1

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (cond) {                                                            \
      passed++;                                                            \
    } else {                                                               \
      failed++;                                                            \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                      \
  } while (0)

/* A packed request (see samekey-wire): k, scheme codes, has_secret, u32 LE count, then items. */
static size_t put_item(uint8_t *buf, size_t at, const void *data, uint32_t len) {
  buf[at] = len & 255;
  buf[at + 1] = (len >> 8) & 255;
  buf[at + 2] = (len >> 16) & 255;
  buf[at + 3] = len >> 24;
  memcpy(buf + at + 4, data, len);
  return at + 4 + len;
}

static size_t pack(uint8_t *buf, uint8_t scheme, const char *ns, const char **fields, uint8_t n) {
  size_t at = 0;
  buf[at++] = 1;
  buf[at++] = scheme;
  buf[at++] = 0;
  buf[at++] = n; /* the count is a u32, little-endian */
  buf[at++] = 0;
  buf[at++] = 0;
  buf[at++] = 0;
  at = put_item(buf, at, ns, (uint32_t)strlen(ns));
  for (uint8_t i = 0; i < n; i++) at = put_item(buf, at, fields[i], (uint32_t)strlen(fields[i]));
  return at;
}

int main(void) {
  uint8_t buf[512];
  char *error = NULL;
  uint8_t code = 0;
  const char *fields[] = {"hello-world", "en"};

  CHECK(strcmp(samekey_version(), "") != 0);
  CHECK(samekey_scheme_code(T("v1"), &code, &error) == SAMEKEY_STATUS_OK && code == 1);

  /* Same inputs, same id; ULID text round-trips; UUID text has its shape. */
  size_t len = pack(buf, code, "posts", fields, 2);
  uint8_t id1[16], id2[16], back[16];
  CHECK(samekey_derive(buf, len, 1714564800000LL, id1, &error) == SAMEKEY_STATUS_OK);
  CHECK(samekey_derive(buf, len, 1714564800000LL, id2, &error) == SAMEKEY_STATUS_OK);
  CHECK(memcmp(id1, id2, 16) == 0);
  char text[27], uuid[37];
  CHECK(samekey_ulid_format(id1, text, &error) == SAMEKEY_STATUS_OK && strlen(text) == 26);
  CHECK(samekey_ulid_parse((const uint8_t *)text, 26, back, &error) == SAMEKEY_STATUS_OK);
  CHECK(memcmp(id1, back, 16) == 0);
  CHECK(samekey_ulid_uuid(id1, uuid, &error) == SAMEKEY_STATUS_OK && strlen(uuid) == 36 && uuid[8] == '-');

  /* The batch call agrees with single calls. */
  int64_t times[3] = {1, 2, 3};
  uint8_t rows[512];
  size_t at = 0;
  rows[at++] = 1; rows[at++] = code; rows[at++] = 0;
  rows[at++] = 0; rows[at++] = 0; rows[at++] = 0; rows[at++] = 0; /* no fields: u32 LE */
  at = put_item(rows, at, "", 0);
  for (int i = 0; i < 3; i++) at = put_item(rows, at, "row", 3);
  uint8_t many[48];
  CHECK(samekey_derive_many(rows, at, 1, times, 3, 0, many, &error) == SAMEKEY_STATUS_OK);
  const char *one[] = {"row"};
  size_t one_len = pack(buf, code, "", one, 1);
  CHECK(samekey_derive(buf, one_len, 3, id2, &error) == SAMEKEY_STATUS_OK && memcmp(many + 32, id2, 16) == 0);

  /* A prepared deriver gives the packed request's ids, one and many, and is freed. */
  SamekeyDeriver *deriver = NULL;
  CHECK(samekey_deriver_new(T("v1"), T("posts"), NULL, 0, false, &deriver, &error) == SAMEKEY_STATUS_OK);
  uint8_t items[64];
  size_t items_len = put_item(items, put_item(items, 0, "hello-world", 11), "en", 2);
  CHECK(samekey_deriver_derive(deriver, items, items_len, 2, 1714564800000LL, id2, &error) == SAMEKEY_STATUS_OK);
  CHECK(memcmp(id1, id2, 16) == 0);
  uint8_t twice[128], pair[32];
  memcpy(twice, items, items_len);
  memcpy(twice + items_len, items, items_len);
  int64_t same[2] = {1714564800000LL, 1714564800000LL};
  CHECK(samekey_deriver_derive_many(deriver, twice, 2 * items_len, 2, same, 2, 0, pair, &error) == SAMEKEY_STATUS_OK);
  CHECK(memcmp(pair, id1, 16) == 0 && memcmp(pair + 16, id1, 16) == 0);
  CHECK(samekey_deriver_derive(deriver, items, items_len - 1, 2, 0, id2, &error) == SAMEKEY_STATUS_INVALID_ARGUMENT);
  samekey_string_free(error);
  error = NULL;
  CHECK(samekey_deriver_derive(NULL, items, items_len, 2, 0, id2, NULL) == SAMEKEY_STATUS_INVALID_ARGUMENT);
  samekey_deriver_free(deriver);
  CHECK(samekey_deriver_new(T("v0"), T("posts"), NULL, 0, false, &deriver, &error) == SAMEKEY_STATUS_NAMESPACE_NOT_SUPPORTED);
  samekey_string_free(error);
  error = NULL;

  /* Errors: a status with its code, and a message to free. */
  CHECK(samekey_derive(buf, one_len, -1, id2, &error) == SAMEKEY_STATUS_TIMESTAMP_OUT_OF_RANGE);
  CHECK(error != NULL && strstr(error, "out of range") != NULL);
  samekey_string_free(error);
  error = NULL;
  CHECK(strcmp(samekey_status_code(SAMEKEY_STATUS_TIMESTAMP_OUT_OF_RANGE), "timestamp_out_of_range") == 0);
  CHECK(samekey_ulid_parse((const uint8_t *)"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", 26, back, &error) == SAMEKEY_STATUS_INVALID_ULID);
  samekey_string_free(error);
  error = NULL;
  CHECK(samekey_derive(NULL, 5, 0, id2, NULL) == SAMEKEY_STATUS_INVALID_ARGUMENT);
  CHECK(samekey_scheme_code(T("v9"), &code, &error) == SAMEKEY_STATUS_UNKNOWN_SCHEME);
  samekey_string_free(error);
  error = NULL;

  /* Content hashes: streamed equals one-shot. */
  char h1[72], h2[72];
  CHECK(samekey_content_hash(T("v2"), (const uint8_t *)"abcdef", 6, h1, &error) == SAMEKEY_STATUS_OK);
  SamekeyHasher *hasher = NULL;
  CHECK(samekey_hasher_new(T("v2"), &hasher, &error) == SAMEKEY_STATUS_OK);
  CHECK(samekey_hasher_update(hasher, (const uint8_t *)"abc", 3, &error) == SAMEKEY_STATUS_OK);
  CHECK(samekey_hasher_update(hasher, (const uint8_t *)"def", 3, &error) == SAMEKEY_STATUS_OK);
  CHECK(samekey_hasher_finalize(hasher, h2, &error) == SAMEKEY_STATUS_OK && strcmp(h1, h2) == 0);
  samekey_hasher_free(hasher);

  /* Allocated results, freed. */
  char *canonical = NULL;
  const char *json = "{\"b\":1.0,\"a\":[]}";
  CHECK(samekey_canonical_json((const uint8_t *)json, strlen(json), false, &canonical, &error) == SAMEKEY_STATUS_OK);
  CHECK(canonical != NULL && strcmp(canonical, "{\"a\":[],\"b\":1}") == 0);
  samekey_string_free(canonical);
  uint8_t *message = NULL;
  size_t message_len = 0;
  CHECK(samekey_ulid_message(buf, one_len, &message, &message_len, &error) == SAMEKEY_STATUS_OK && message_len == 64 + 4 + 4 + 4 + 3);
  samekey_bytes_free(message, message_len);
  char key[72];
  CHECK(samekey_revision_key(NULL, 0, false, (const uint8_t *)h1, strlen(h1), NULL, 0, false, NULL, 0, false, key, &error) == SAMEKEY_STATUS_OK);
  CHECK(strncmp(key, "rev:v2:", 7) == 0);
  /* A key parsed into our buffers says what samekey_parse_key's one string says. */
  char kind[9], scheme[3], canon[72], expected[96];
  const char *keys[] = {h1, key};
  for (size_t k = 0; k < 2; k++) {
    char *parsed = NULL;
    CHECK(samekey_parse_key((const uint8_t *)keys[k], strlen(keys[k]), &parsed, &error) == SAMEKEY_STATUS_OK);
    CHECK(samekey_parse_key_into((const uint8_t *)keys[k], strlen(keys[k]), kind, scheme, canon, &error) == SAMEKEY_STATUS_OK);
    snprintf(expected, sizeof expected, "%s %s %s", kind, scheme, canon);
    CHECK(parsed != NULL && strcmp(parsed, expected) == 0);
    samekey_string_free(parsed);
  }
  CHECK(strcmp(kind, "revision") == 0 && strcmp(scheme, "v2") == 0 && strcmp(canon, key) == 0);
  CHECK(samekey_parse_key_into(T("sha256:zz"), kind, scheme, canon, &error) == SAMEKEY_STATUS_INVALID_KEY);
  CHECK(error != NULL);
  samekey_string_free(error);
  error = NULL;
  bool write = false;
  CHECK(samekey_needs_write((const uint8_t *)h1, strlen(h1), true, (const uint8_t *)h1, strlen(h1), &write, &error) == SAMEKEY_STATUS_OK && !write);
  CHECK(samekey_needs_write(NULL, 0, false, (const uint8_t *)h1, strlen(h1), &write, &error) == SAMEKEY_STATUS_OK && write);

  /* Texts are pointer and length: a NUL is part of the text, never its end (spec §2.2). */
  CHECK(samekey_scheme_code(T("v1\0"), &code, &error) == SAMEKEY_STATUS_UNKNOWN_SCHEME);
  samekey_string_free(error);
  error = NULL;
  char h1_nul[80];
  size_t h1_len = strlen(h1);
  memcpy(h1_nul, h1, h1_len);
  memcpy(h1_nul + h1_len, "\0x", 2);
  CHECK(samekey_needs_write((const uint8_t *)h1, h1_len, true, (const uint8_t *)h1_nul, h1_len + 2, &write, &error) == SAMEKEY_STATUS_INVALID_KEY);
  samekey_string_free(error);
  error = NULL;
  SamekeyText ring[] = {{T("v2")}, {T("v1\0")}};
  uint8_t codes[3];
  size_t count = 0;
  CHECK(samekey_prepare_ring(ring, 2, codes, &count, &error) == SAMEKEY_STATUS_UNKNOWN_SCHEME);
  samekey_string_free(error);
  error = NULL;
  CHECK(samekey_prepare_ring(ring, 1, codes, &count, &error) == SAMEKEY_STATUS_OK && count == 1);

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
