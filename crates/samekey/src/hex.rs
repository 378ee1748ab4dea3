//! Lowercase hex, the only digest text form samekey writes or accepts.

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A 32-byte digest's 64 digits.
pub(crate) fn digits32(bytes: &[u8; 32]) -> [u8; 64] {
    let mut digits = [0; 64];
    for (pair, b) in digits.chunks_exact_mut(2).zip(bytes) {
        pair[0] = HEX[usize::from(b >> 4)];
        pair[1] = HEX[usize::from(b & 15)];
    }
    digits
}

/// Writes a 32-byte digest's 64 digits without allocating (every content hash and key
/// text holds one).
pub(crate) fn write32(f: &mut core::fmt::Formatter<'_>, bytes: &[u8; 32]) -> core::fmt::Result {
    let digits = digits32(bytes);
    // Hex digits are ASCII.
    f.write_str(core::str::from_utf8(&digits).map_err(|_| core::fmt::Error)?)
}

/// Exactly 64 lowercase hex digits into 32 bytes; anything else is `None`.
pub(crate) fn decode32(text: &str) -> Option<[u8; 32]> {
    let t = text.as_bytes();
    if t.len() != 64 {
        return None;
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (nibble(t[2 * i])? << 4) | nibble(t[2 * i + 1])?;
    }
    Some(out)
}
