/* The C ABI's column of `just bench-matrix` (bench/matrix/protocol.md): every operation
 * through samekey.h, with the inputs as a C program holds them (bytes and lengths) and each
 * request packed per call as the header describes. Reads the cases file with a few
 * lines of string search: its format is fixed (bench/matrix/cases.json). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "samekey.h"

static char cases[4096];

/* The string value of "key" in the cases file (no escapes but \"), copied to out. */
static const char *text(const char *key, char *out) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": \"", key);
    const char *at = strstr(cases, pattern);
    if (!at) { fprintf(stderr, "c-matrix: no %s\n", key); exit(1); }
    at += strlen(pattern);
    size_t n = 0;
    for (; *at != '"'; at++) {
        if (*at == '\\') at++;
        out[n++] = *at;
    }
    out[n] = 0;
    return out;
}

static long long number(const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *at = strstr(cases, pattern);
    if (!at) { fprintf(stderr, "c-matrix: no %s\n", key); exit(1); }
    return atoll(at + strlen(pattern));
}

static void ok(SamekeyStatus s, char *error) {
    if (s != SAMEKEY_STATUS_OK) { fprintf(stderr, "c-matrix: %s\n", error ? error : samekey_status_code(s)); exit(1); }
}

#define U8(s) ((const uint8_t *)(s))
static char ns[64], field0[64], field1[64], ulid_text[32], json[256], small[64], rfc3339[64], parent[128];
static uint8_t *large, codes[3], id[16], old[16], fields[256], packed[512];
static size_t large_len, ncodes, fields_len, packed_len;
static int64_t ms;
static char stored[72], incoming[72];
static SamekeyDeriver *deriver;
static unsigned sink;

static size_t item(uint8_t *at, const char *s) {
    uint32_t n = (uint32_t)strlen(s);
    memcpy(at, &n, 4);
    memcpy(at + 4, s, n);
    return 4 + n;
}

/* A request as samekey_derive, samekey_verify and samekey_candidates read it. */
static size_t pack(uint8_t *out, const uint8_t *c, size_t n) {
    size_t at = 0;
    out[at++] = (uint8_t)n;
    memcpy(out + at, c, n);
    at += n;
    out[at++] = 0; /* no secret */
    uint32_t count = 2;
    memcpy(out + at, &count, 4);
    at += 4;
    at += item(out + at, ns);
    at += item(out + at, field0);
    at += item(out + at, field1);
    return at;
}

static void op_crossing(void) { sink += samekey_likely_seconds(ms); }
static void op_ulid(void) {
    uint8_t v1 = 1, out[16];
    size_t n = pack(packed, &v1, 1);
    ok(samekey_derive(packed, n, ms, out, NULL), NULL);
    sink += out[15];
}
static void op_ulid_v2(void) {
    uint8_t v2 = 2, out[16];
    size_t n = pack(packed, &v2, 1);
    ok(samekey_derive(packed, n, ms, out, NULL), NULL);
    sink += out[15];
}
static void op_ulid_prepared(void) {
    uint8_t out[16];
    ok(samekey_deriver_derive(deriver, fields, fields_len, 2, ms, out, NULL), NULL);
    sink += out[15];
}
static void op_ulid_parse(void) {
    uint8_t out[16];
    ok(samekey_ulid_parse(U8(ulid_text), strlen(ulid_text), out, NULL), NULL);
    sink += out[15];
}
static void op_ulid_text(void) {
    char out[27];
    ok(samekey_ulid_format(id, out, NULL), NULL);
    sink += (unsigned)out[25];
}
static void op_hash_40(void) {
    char out[72];
    ok(samekey_content_hash(U8("v1"), 2, U8(small), strlen(small), out, NULL), NULL);
    sink += (unsigned)out[70];
}
static void op_hash_1m(void) {
    char out[72];
    ok(samekey_content_hash(U8("v1"), 2, large, large_len, out, NULL), NULL);
    sink += (unsigned)out[70];
}
static void op_content_json(void) {
    char out[72];
    ok(samekey_content_hash_json(U8("v1"), 2, U8(json), strlen(json), false, out, NULL), NULL);
    sink += (unsigned)out[70];
}
static void op_canonical_json(void) {
    char *out;
    ok(samekey_canonical_json(U8(json), strlen(json), false, &out, NULL), NULL);
    sink += (unsigned)out[0];
    samekey_string_free(out);
}
static void op_revision_key(void) {
    char out[80];
    ok(samekey_revision_key(NULL, 0, false, U8(stored), strlen(stored), U8(parent), strlen(parent), true, NULL, 0, false, out, NULL), NULL);
    sink += (unsigned)out[8];
}
static void op_key_parse(void) {
    char kind[9], scheme[3], canonical[72];
    ok(samekey_parse_key_into(U8(stored), strlen(stored), kind, scheme, canonical, NULL), NULL);
    sink += (unsigned)canonical[70];
}
static void op_ring_verify(void) {
    char scheme[3];
    size_t n = pack(packed, codes, ncodes);
    ok(samekey_verify(packed, n, old, ms, scheme, NULL), NULL);
    sink += (unsigned)scheme[1];
}
static void op_ring_candidates(void) {
    char *out;
    size_t n = pack(packed, codes, ncodes);
    ok(samekey_candidates(packed, n, ms, &out, NULL), NULL);
    sink += (unsigned)out[1];
    samekey_string_free(out);
}
static void op_needs_write(void) {
    bool write;
    ok(samekey_needs_write(U8(stored), strlen(stored), true, U8(incoming), strlen(incoming), &write, NULL), NULL);
    sink += write;
}
static void op_rfc3339(void) {
    int64_t t;
    ok(samekey_parse_rfc3339(U8(rfc3339), strlen(rfc3339), &t, NULL), NULL);
    sink += (unsigned)t;
}

static const struct { const char *name; void (*call)(void); } OPS[] = {
    {"crossing", op_crossing}, {"ulid", op_ulid}, {"ulid_v2", op_ulid_v2}, {"ulid_prepared", op_ulid_prepared},
    {"ulid_parse", op_ulid_parse}, {"ulid_text", op_ulid_text}, {"hash_40", op_hash_40},
    {"hash_1m", op_hash_1m}, {"content_json", op_content_json}, {"canonical_json", op_canonical_json},
    {"revision_key", op_revision_key}, {"key_parse", op_key_parse}, {"ring_verify", op_ring_verify},
    {"ring_candidates", op_ring_candidates}, {"needs_write", op_needs_write}, {"rfc3339", op_rfc3339},
};

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    FILE *f = fopen(getenv("SAMEKEY_MATRIX_CASES"), "r");
    if (!f) { perror("c-matrix: SAMEKEY_MATRIX_CASES"); return 1; }
    cases[fread(cases, 1, sizeof cases - 1, f)] = 0;
    fclose(f);
    text("namespace", ns); text("ulid", ulid_text); text("json", json); text("small", small);
    text("rfc3339", rfc3339); text("parent", parent);
    ms = number("time_ms");
    large_len = (size_t)number("large_bytes");
    /* "fields": ["hello-world", "en"] and "ring": ["v2", "v1"]: two quoted words each. */
    if (sscanf(strstr(cases, "\"fields\": ["), "\"fields\": [\"%63[^\"]\", \"%63[^\"]\"]", field0, field1) != 2) return 1;
    char r0[8], r1[8];
    if (sscanf(strstr(cases, "\"ring\": ["), "\"ring\": [\"%7[^\"]\", \"%7[^\"]\"]", r0, r1) != 2) return 1;
    large = malloc(large_len);
    for (size_t i = 0; i < large_len; i++) large[i] = (uint8_t)(i * 131);
    fields_len = item(fields, field0);
    fields_len += item(fields + fields_len, field1);
    SamekeyText ring[2] = {{U8(r0), strlen(r0)}, {U8(r1), strlen(r1)}};
    ok(samekey_prepare_ring(ring, 2, codes, &ncodes, NULL), NULL);
    ok(samekey_deriver_new(U8("v1"), 2, U8(ns), strlen(ns), NULL, 0, false, &deriver, NULL), NULL);
    ok(samekey_content_hash(U8("v1"), 2, U8(small), strlen(small), stored, NULL), NULL);
    ok(samekey_content_hash_json(U8("v1"), 2, U8(json), strlen(json), false, incoming, NULL), NULL);
    ok(samekey_ulid_parse(U8(ulid_text), strlen(ulid_text), id, NULL), NULL);
    uint8_t v1 = 1;
    packed_len = pack(packed, &v1, 1);
    ok(samekey_derive(packed, packed_len, ms, old, NULL), NULL);

    char line[32];
    while (fgets(line, sizeof line, stdin)) {
        double budget = atof(line) * 1e6;
        printf("{");
        for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++) {
            for (long n = 1;; n *= 2) {
                double start = now_ns();
                for (long i = 0; i < n; i++) OPS[k].call();
                double took = now_ns() - start;
                if (took >= budget) {
                    printf("%s\"%s\":%.1f", k ? "," : "", OPS[k].name, took / n);
                    break;
                }
            }
        }
        printf(",\"sink\":%u}\n", sink % 10);
        fflush(stdout);
    }
    return 0;
}
