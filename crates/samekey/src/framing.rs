//! How inputs become hash messages: length-prefixed fields, so that no two distinct
//! inputs ever share a pre-image (spec §3).

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Where framed bytes go: a hash state when deriving, a buffer when explaining.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);

    /// Four bytes, as lengths are: a sink may store them at once rather than copy a slice.
    #[inline(always)]
    fn put4(&mut self, bytes: [u8; 4]) {
        self.put(&bytes);
    }
}

impl Sink for sha2::Sha256 {
    fn put(&mut self, bytes: &[u8]) {
        sha2::Digest::update(self, bytes);
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// `u32be(n)`, or `field_too_long` when n does not fit in 32 bits.
#[inline]
pub(crate) fn u32be(n: usize) -> Result<[u8; 4]> {
    u32::try_from(n)
        .map(u32::to_be_bytes)
        .map_err(|_| Error::FieldTooLong(n as u64))
}

/// `enc(b) = u32be(len(b)) || b`.
#[inline]
pub(crate) fn enc(sink: &mut impl Sink, bytes: &[u8]) -> Result<()> {
    sink.put4(u32be(bytes.len())?);
    sink.put(bytes);
    Ok(())
}

/// The ULID message after the tag block: `enc(namespace) || u32be(n) || enc(f1) .. enc(fn)`.
/// Split in two so the namespace part can be absorbed once for many derivations.
#[inline]
pub(crate) fn ulid_namespace(sink: &mut impl Sink, namespace: &[u8]) -> Result<()> {
    enc(sink, namespace)
}

#[inline]
pub(crate) fn ulid_fields<F: AsRef<[u8]>>(sink: &mut impl Sink, fields: &[F]) -> Result<()> {
    if fields.is_empty() {
        return Err(Error::NoFields);
    }
    check_lengths(fields)?;
    sink.put4(u32be(fields.len())?);
    for f in fields {
        enc(sink, f.as_ref())?;
    }
    Ok(())
}

/// Fails before anything is absorbed, so a hash state is never left half-written.
#[inline]
fn check_lengths<F: AsRef<[u8]>>(fields: &[F]) -> Result<()> {
    for f in fields {
        u32be(f.as_ref().len())?;
    }
    Ok(())
}

/// The v0 (legacy) message: the fields joined by `:` with no framing at all.
pub(crate) fn v0_fields<F: AsRef<[u8]>>(sink: &mut impl Sink, fields: &[F]) -> Result<()> {
    if fields.is_empty() {
        return Err(Error::NoFields);
    }
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            sink.put(b":");
        }
        sink.put(f.as_ref());
    }
    Ok(())
}

/// The revision message after the tag block: `P || enc(content digest)`.
pub(crate) fn revision_body(
    sink: &mut impl Sink,
    parent: Option<&str>,
    content_digest: &[u8; 32],
) -> Result<()> {
    match parent {
        None => sink.put(&[0x00]),
        Some(p) => {
            sink.put(&[0x01]);
            enc(sink, p.as_bytes())?;
        }
    }
    enc(sink, content_digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enc_prefixes_big_endian_length() {
        let mut out = Vec::new();
        enc(&mut out, b"abc").unwrap();
        assert_eq!(out, [0, 0, 0, 3, b'a', b'b', b'c']);
    }

    #[test]
    fn u32be_rejects_lengths_past_32_bits() {
        assert_eq!(u32be(u32::MAX as usize).unwrap(), [0xff; 4]);
        #[cfg(target_pointer_width = "64")]
        assert_eq!(
            u32be(u32::MAX as usize + 1).unwrap_err().code(),
            "field_too_long"
        );
    }
}
