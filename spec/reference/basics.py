"""What the reference's modules share: its error (spec §11), the limits (§4.1, §6.1) and
the conversion of host strings (§2.2)."""

MAX_MS = 2**48 - 1
MAX_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 128


class SamekeyError(Exception):
    """An error of spec §11, by its code."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def check_text(text: str) -> str:
    """§2.2: a host string that is not valid Unicode is invalid_string, never repaired."""
    if bad_text(text):
        raise SamekeyError("invalid_string")
    return text


def bad_text(*values) -> bool:
    """Whether any host string among `values` (strings, bytes, None, lists of them) holds
    a lone surrogate. Python strings can; the conversion of §2.2 refuses them."""
    for v in values:
        if isinstance(v, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            return True
        if isinstance(v, (list, tuple)) and bad_text(*v):
            return True
    return False
