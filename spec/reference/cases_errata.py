"""Vectors of the errata (spec §13): the cases versions 1.2 to 1.4 decided or found
unpinned, added to gen_vectors.py's list after the cases of every op."""

from __future__ import annotations

import hashlib

import samekey_ref as ref
from vector_builders import (H1, H2, POST, POST_T, Num, candidates, content, content_json,
                             key_parse, needs_write, revision, ring_revision, timestamp, ulid,
                             ulid_parse, ulid_text, utf16, verify)


def add_errata_cases() -> None:
    """Appends the cases of spec 1.2, 1.3 and 1.4."""
    # --- spec 1.2: cases an independent implementation and vector set found unpinned ---------

    # Any number of fields (§4.1): more than fit in a byte.
    MANY = [f"f{i}" for i in range(300)]
    for s in ("v0", "v1", "v2"):
        ulid(f"ulid-{s}-300-fields", s, POST_T, MANY)
    candidates("candidates-300-fields", ["v2", "v1", "v0"], POST_T, MANY)
    verify("verify-256-fields", ["v1"], ulid_text("v1", POST_T, MANY[:256]), POST_T, MANY[:256])
    # A time's decimal value decides (§10.1); beyond int64 it is out of range, never wrapped.
    ulid("ulid-v1-t-whole-float", "v1", float(POST_T), POST)
    for name, t in (("2^63-1", 2**63 - 1), ("2^63", 2**63), ("2^64", 2**64),
                    ("2^64-plus-post", 2**64 + POST_T), ("-2^63-1", -2**63 - 1)):
        ulid(f"ulid-v1-t-{name}", "v1", t, POST)
    ulid("ulid-unknown-scheme-and-t-2^64", "v9", 2**64, POST)
    ulid("ulid-v0-secret-and-t-2^64", "v0", 2**64, POST, secret=b"k")
    candidates("candidates-t-2^64-plus-post", ["v2", "v1"], 2**64 + POST_T, POST)
    verify("verify-t-2^64-plus-post", ["v1"], ulid_text("v1", POST_T, POST), 2**64 + POST_T, POST)
    # §6.1 and §6.2: an integer literal of exactly 2^53 inside a value.
    content_json("json-2^53-int-in-object", '{"n":9007199254740992}')
    content_json("json-2^53-as-float-in-object", '{"n":9007199254740992.0}')
    # §9.1: a ring's errors first, also against the key text; names converted before checked.
    key_parse("key-parse-garbage-and-unknown-scheme-in-ring", "nope", ["v1", "v3"])
    key_parse("key-parse-garbage-and-empty-ring", "nope", [])
    key_parse("key-parse-not-accepted-v0-ring", H1, ["v0"])
    candidates("candidates-unknown-then-invalid-string-name", ["v9", utf16("\ud800")], POST_T, POST)
    candidates("candidates-v1-primary-skips-v0-with-namespace", ["v1", "v0"], POST_T, POST, "posts")
    # §9.3: equal malformed text is not unchanged content; equal digests of two schemes differ.
    needs_write("needs-write-same-invalid", "sha256:x", "sha256:x")
    needs_write("needs-write-same-digest-other-scheme", H1, "blake3:" + H1[7:])
    needs_write("needs-write-same-digest-other-scheme-reversed", "blake3:" + H1[7:], H1)
    # Every string input of every op as UTF-16 code units (§10.1): valid text is ordinary
    # text, a lone surrogate is invalid_string.
    LONE_IN = utf16("v\udc00")
    for name, value in (("utf16", utf16("v1")), ("invalid-string", LONE_IN)):
        ulid(f"ulid-scheme-{name}", value, POST_T, POST)
        content(f"content-scheme-{name}", value, b"abc")
        content_json(f"json-scheme-{name}", "{}", value)
        revision(f"revision-scheme-{name}", value, None, H1)
        candidates(f"candidates-accepted-{name}", ["v2", value], POST_T, POST)
        verify(f"verify-accepted-{name}", [value], ulid_text("v1", POST_T, POST), POST_T, POST)
        ring_revision(f"ring-revision-accepted-{name}", [value, "v2"], None, H1)
        key_parse(f"key-parse-accepted-{name}", H1, [value])
    TEXTS = {
        "ulid_parse": (ulid_text("v1", POST_T, POST), "0" * 25 + "\ud800"),
        "key_parse": (H1, H1[:-1] + "\udc00"),
        "timestamp": ("2024-05-01T12:00:00\u00e9"[:-1] + "Z", "2024-05-01T12:00:00\ud83dZ"),
        "content_json": ('{"caf\u00e9":"\U0001F600"}', '{"a":"\ud800"}'),
    }
    ulid_parse("ulid-parse-utf16", utf16(TEXTS["ulid_parse"][0]))
    ulid_parse("ulid-parse-invalid-string", utf16(TEXTS["ulid_parse"][1]))
    key_parse("key-parse-utf16", utf16(TEXTS["key_parse"][0]))
    key_parse("key-parse-invalid-string", utf16(TEXTS["key_parse"][1]))
    key_parse("key-parse-invalid-string-and-not-accepted", utf16(TEXTS["key_parse"][1]), ["v2"])
    timestamp("timestamp-utf16", utf16(TEXTS["timestamp"][0]))
    timestamp("timestamp-invalid-string", utf16(TEXTS["timestamp"][1]))
    content_json("json-utf16", utf16(TEXTS["content_json"][0]))
    content_json("json-invalid-string", utf16(TEXTS["content_json"][1]))
    content_json("json-invalid-string-and-unknown-scheme", utf16(TEXTS["content_json"][1]), "v9")
    revision("revision-content-hash-utf16", "v1", None, utf16(H1))
    revision("revision-content-hash-invalid-string", "v1", None, utf16(H1[:-1] + "\ud800"))
    ring_revision("ring-revision-content-hash-invalid-string", ["v1"], None, utf16("sha256:\ud800"))
    verify("verify-ulid-utf16", ["v1"], utf16(ulid_text("v1", POST_T, POST)), POST_T, POST)
    verify("verify-ulid-invalid-string", ["v1"], utf16("\ud800" * 26), POST_T, POST)
    needs_write("needs-write-utf16", utf16(H1), utf16(H2))
    needs_write("needs-write-stored-invalid-string", utf16("sha256:\ud800"), H1)
    needs_write("needs-write-incoming-invalid-string", H1, utf16("\udc00"))
    needs_write("needs-write-stored-invalid-string-incoming-invalid-key", utf16("\ud800"), "md5:1")

    # --- spec 1.3 ----------------------------------------------------------------------
    # §10.1's own examples of how an integer may be written, and a non-integer that a double
    # holds exactly but a careless 17-digit reader rounds to 2^52.
    for name, t in (("exponent", Num("1.7145648e12")), ("minus-zero", Num("-0.0")),
                    ("minus-zero-integer", Num("-0")), ("2^52-minus-half", 4503599627370495.5)):
        ulid(f"ulid-v1-t-{name}", "v1", t, POST)
    candidates("candidates-t-exponent", ["v2", "v1"], Num("1.7145648e12"), POST)
    verify("verify-t-2^52-minus-half", ["v1"], ulid_text("v1", POST_T, POST), 4503599627370495.5, POST)
    # §6.2 and §10.1: a number a host parser reads as an infinity, inside a value, and the
    # scheme name's conversion against it (first on the text path and the value path alike).
    content_json("json-infinity-in-array", "[1e400]")
    content_json("json-minus-infinity-in-object", '{"a":-1e400}', "v2")
    content_json("json-infinity-and-unknown-scheme", "[1e400]", "v9")
    content_json("json-scheme-invalid-string-and-infinity", "[1e400]", utf16("v\ud800"))
    content_json("json-scheme-invalid-string-and-big-integer", "[9007199254740993]", utf16("\udc00"))
    content_json("json-scheme-invalid-string-and-deep", "[" * 129 + "]" * 129, utf16("\ud800"))
    # A NUL inside every kind of text (§2.2: text is every scalar value, U+0000 included; a
    # caller that passes C strings would cut it off there). Where the text is hashed it
    # changes the output; where it is parsed it is not part of any valid name or key.
    NUL_ID = ulid_text("v1", POST_T, POST)
    REV = ref.revision("v1", None, H1, None)["key"]
    ulid("nul-ulid-scheme", "v1\0", POST_T, POST)
    ulid("nul-ulid-namespace", "v1", POST_T, POST, namespace="posts\0x")
    ulid("nul-ulid-field", "v1", POST_T, ["my-first-post-title\0x", "en"])
    ulid("nul-ulid-v0-field", "v0", POST_T, ["my-first-post-title\0x", "en"])
    content("nul-content-scheme", "v2\0", b"abc")
    content("nul-content-data", "v1", b"a\0b")
    content_json("nul-json-scheme", "{}", "v1\0")
    content_json("nul-json-raw-in-string", '["a\0b"]')
    content_json("nul-json-escaped-in-string", '["a\\u0000b"]')
    content_json("nul-json-after-value", "{}\0")
    revision("nul-revision-scheme", "v1\0", None, H1)
    revision("nul-revision-parent", "v1", REV + "\0x", H1)
    revision("nul-revision-content-hash", "v1", None, H1 + "\0")
    revision("nul-revision-content-hash-tail", "v1", None, H1 + "\0x")
    timestamp("nul-timestamp", "2024-05-01T12:00:00Z\0")
    timestamp("nul-timestamp-inside", "2024-05-01T12:00\0:00Z")
    ulid_parse("nul-ulid-parse-tail", NUL_ID + "\0")
    ulid_parse("nul-ulid-parse-inside", NUL_ID[:25] + "\0")
    key_parse("nul-key-parse-revision-tail", REV + "\0anything")
    key_parse("nul-key-parse-content-tail", H1 + "\0")
    key_parse("nul-key-parse-accepted", H1, ["v1\0"])
    key_parse("nul-key-parse-accepted-second", H1, ["v1", "v2\0"])
    verify("nul-verify-accepted", ["v1\0"], NUL_ID, POST_T, POST)
    verify("nul-verify-ulid", ["v1"], NUL_ID + "\0", POST_T, POST)
    verify("nul-verify-namespace", ["v1"], NUL_ID, POST_T, POST, namespace="\0")
    verify("nul-verify-field", ["v1"], NUL_ID, POST_T, ["my-first-post-title\0", "en"])
    candidates("nul-candidates-accepted", ["v2", "v1\0"], POST_T, POST)
    candidates("nul-candidates-namespace", ["v2", "v1"], POST_T, POST, namespace="a\0b")
    candidates("nul-candidates-field", ["v2", "v1", "v0"], POST_T, ["\0", "en"])
    ring_revision("nul-ring-revision-accepted", ["v1\0"], None, H1)
    ring_revision("nul-ring-revision-parent", ["v1"], "\0", H1)
    ring_revision("nul-ring-revision-content-hash", ["v1"], None, H1 + "\0x")
    needs_write("nul-needs-write-incoming", H1, H1 + "\0")
    needs_write("nul-needs-write-stored", H1 + "\0x", H1)
    needs_write("nul-needs-write-nothing-stored", None, H1 + "\0")

    # --- spec 1.4: a fraction written with an exponent, or beyond 2^48, is a fraction ---------
    # (§4.4, §10.1): the conversion's invalid_timestamp, before an unknown scheme name. An
    # independent run reported a runtime answering unknown_scheme for these spellings.
    for name, t in (("2.5e-1", Num("2.5e-1")), ("15e-1", Num("15e-1")), ("1e-300", Num("1e-300")),
                    ("2^48-plus-half", Num("281474976710656.5"))):
        ulid(f"ulid-v9-t-fraction-{name}", "v9", t, POST)
        ulid(f"ulid-v0-secret-t-fraction-{name}", "v0", t, POST, secret=b"k")

    # --- spec 1.4: v1's secret is an HMAC key (§12) ----------------------------------------
    # HMAC pads a key to SHA-256's 64-byte block with zero bytes and hashes a longer one
    # first, so under v1 a secret, the same secret with zero bytes after it, and a secret
    # of more than 64 bytes and its SHA-256 digest give the same ids and keys. v2 derives
    # its key with BLAKE3's key derivation and tells each apart.
    LONG = bytes(range(65))
    for s in ("v1", "v2"):
        ulid(f"ulid-{s}-secret-k", s, POST_T, POST, secret=b"k")
        ulid(f"ulid-{s}-secret-k-and-zero-bytes", s, POST_T, POST, secret=b"k\0\0")
        ulid(f"ulid-{s}-secret-65-bytes", s, POST_T, POST, secret=LONG)
        ulid(f"ulid-{s}-secret-sha256-of-65-bytes", s, POST_T, POST,
             secret=hashlib.sha256(LONG).digest())
        revision(f"revision-{s}-secret-k-and-zero-bytes", s, None, H1 if s == "v1" else H2,
                 secret=b"k\0")
