"""Spec §5 and §7.3 for the reference: content hash and revision key texts parsed, and
what each names."""

from __future__ import annotations

import re

from basics import SamekeyError, bad_text, check_text

HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)


def parse_content_hash(text: str) -> tuple[str, bytes]:
    check_text(text)
    algorithm, sep, digest = text.partition(":")
    scheme = {"sha256": "v1", "blake3": "v2"}.get(algorithm)
    if not sep or scheme is None or not HEX64.fullmatch(digest):
        raise SamekeyError("invalid_key")
    return scheme, bytes.fromhex(digest)


def parse_revision_key(text: str) -> tuple[str, bytes]:
    check_text(text)
    parts = text.split(":")
    if len(parts) != 3 or parts[0] != "rev" or parts[1] not in ("v1", "v2") \
            or not HEX64.fullmatch(parts[2]):
        raise SamekeyError("invalid_key")
    return parts[1], bytes.fromhex(parts[2])


def content_scheme(text: str) -> str | None:
    if bad_text(text):
        return None
    try:
        return parse_content_hash(text)[0]
    except SamekeyError:
        return None


def named_scheme(text) -> str | None:
    """The scheme a content hash or revision key text names by its prefix, however its
    digest is written (`blake3:zz` names v2): an implementation that reads the prefix
    before the digest could check the scheme first, so scheme_mismatch and
    scheme_not_accepted fail for it too, and the vectors must show that invalid_key wins."""
    if not isinstance(text, str):
        return None
    if text.startswith("rev:"):
        name = text.split(":")[1]
        return name if name in ("v1", "v2") else None
    return {"sha256": "v1", "blake3": "v2"}.get(text.partition(":")[0])


def hash_fault(text) -> bool:
    try:
        parse_content_hash(text)
    except SamekeyError:
        return True
    return False


def parsed_key(text) -> tuple[str, str, bytes] | None:
    """(kind, scheme, digest) of a content hash or revision key text, or None."""
    if bad_text(text):
        return None
    try:
        if text.startswith("rev:"):
            return ("revision",) + parse_revision_key(text)
        return ("content",) + parse_content_hash(text)
    except SamekeyError:
        return None
