//! The 128-bit ULID value, its two text forms, and deterministic derivation (spec §4).

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::framing::{self, Sink};
use crate::scheme::{Purpose, Scheme};
use crate::tagged::{Message, Midstate};
use crate::timestamp;

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A ULID: 48-bit big-endian millisecond timestamp followed by 80 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ulid([u8; 16]);

impl Ulid {
    /// The ULID of these 16 bytes (big-endian: the timestamp, then the 80 hash bits).
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Ulid(bytes)
    }

    /// Its 16 bytes.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// Its 16 bytes, by value.
    pub const fn to_bytes(self) -> [u8; 16] {
        self.0
    }

    /// The milliseconds since the Unix epoch held in the first 48 bits.
    pub fn timestamp_ms(&self) -> u64 {
        let mut t = [0u8; 8];
        t[2..].copy_from_slice(&self.0[..6]);
        u64::from_be_bytes(t)
    }

    /// The same 128 bits as a lowercase 8-4-4-4-12 UUID string.
    pub fn to_uuid_string(&self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(36);
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                s.push('-');
            }
            s.push(HEX[usize::from(b >> 4)] as char);
            s.push(HEX[usize::from(b & 15)] as char);
        }
        s
    }

    /// The 26 ASCII bytes of the ULID text, without allocating (for bulk output).
    #[inline]
    pub fn to_text_bytes(&self) -> [u8; 26] {
        self.encode()
    }

    #[inline]
    fn encode(&self) -> [u8; 26] {
        // 128 bits = 3 + 25 * 5: character i holds bits 125 - 5i .. 129 - 5i. Shifting
        // 64-bit halves, not a u128, which WebAssembly would emulate in every iteration:
        // characters 0..=12 lie in `hi`, 14..=25 in `lo`, and 13 takes bits of both.
        let n = u128::from_be_bytes(self.0);
        let (hi, lo) = ((n >> 64) as u64, n as u64);
        // Written out, not a loop: constant shifts let the 26 lookups run in parallel,
        // where the loop's variable shifts made one chain that cost more than the hash.
        let c = |bits: u64| CROCKFORD[(bits & 31) as usize];
        #[rustfmt::skip]
        let text = [
            c(hi >> 61), c(hi >> 56), c(hi >> 51), c(hi >> 46), c(hi >> 41), c(hi >> 36),
            c(hi >> 31), c(hi >> 26), c(hi >> 21), c(hi >> 16), c(hi >> 11), c(hi >> 6),
            c(hi >> 1), c(hi << 4 | lo >> 60), c(lo >> 55), c(lo >> 50), c(lo >> 45),
            c(lo >> 40), c(lo >> 35), c(lo >> 30), c(lo >> 25), c(lo >> 20), c(lo >> 15),
            c(lo >> 10), c(lo >> 5), c(lo),
        ];
        text
    }
}

/// Each byte's value in the alphabet, either case, or `INVALID`: a table, not a search of
/// the alphabet per character.
const DECODE: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 32 {
        table[CROCKFORD[i] as usize] = i as u8;
        table[CROCKFORD[i].to_ascii_lowercase() as usize] = i as u8;
        i += 1;
    }
    table
};
const INVALID: u8 = 0xff;

fn crockford_value(c: u8) -> Option<u8> {
    match DECODE[c as usize] {
        INVALID => None,
        v => Some(v),
    }
}

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.encode();
        // CROCKFORD is ASCII, so this never fails.
        f.write_str(core::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Ulid {
    type Err = Error;
    /// Accepts upper or lower case; rejects I, L, O, U, a wrong length, and a first
    /// character above `7` (more than 128 bits).
    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::InvalidUlid(s.into());
        let bytes = s.as_bytes();
        if bytes.len() != 26 {
            return Err(bad());
        }
        let mut n: u128 = 0;
        for (i, &c) in bytes.iter().enumerate() {
            let v = crockford_value(c).ok_or_else(bad)?;
            if i == 0 && v > 7 {
                return Err(bad());
            }
            n = (n << 5) | u128::from(v);
        }
        Ok(Ulid(n.to_be_bytes()))
    }
}

text_serde!(Ulid);

/// Derives ULIDs for one scheme, namespace and secret. Building it checks those inputs
/// and prepares the hash up to the namespace once; each [`derive`](UlidDeriver::derive)
/// then hashes only the fields.
#[derive(Clone)]
pub struct UlidDeriver {
    scheme: Scheme,
    pub(crate) prefix: Prefix,
}

#[derive(Clone)]
pub(crate) enum Prefix {
    /// v0: nothing precedes the fields.
    Legacy,
    /// v1 and v2: the state after the tag block, and the namespace framed before the fields.
    Tagged { state: Midstate, namespace: String },
}

/// The ULID message after the tag block (spec §4.3).
pub(crate) struct Fields<'a, F> {
    pub(crate) namespace: &'a [u8],
    pub(crate) fields: &'a [F],
}

impl<F: AsRef<[u8]>> Message for Fields<'_, F> {
    #[inline(always)]
    fn frame<S: Sink>(&self, sink: &mut S) -> Result<()> {
        framing::ulid_namespace(sink, self.namespace)?;
        framing::ulid_fields(sink, self.fields)
    }
}

/// Checks 1 to 5 of spec §4.4 (all but the timestamp and fields) without preparing
/// anything: a host calls it before checking its time's range ([`Millis::check`]), so
/// errors come in the spec's order whatever the host's types.
///
/// [`Millis::check`]: crate::timestamp::Millis::check
///
/// ```
/// use samekey::{check_ulid_inputs, Scheme};
/// assert_eq!(check_ulid_inputs(Scheme::V0, "posts", Some(b"k")).unwrap_err().code(), "secret_not_supported");
/// assert_eq!(check_ulid_inputs(Scheme::V1, "posts", Some(b"")).unwrap_err().code(), "empty_secret");
/// assert!(check_ulid_inputs(Scheme::V2, "posts", None).is_ok());
/// ```
pub fn check_ulid_inputs(scheme: Scheme, namespace: &str, secret: Option<&[u8]>) -> Result<()> {
    match (scheme, secret) {
        (Scheme::V0, Some(_)) => Err(Error::SecretNotSupported),
        (Scheme::V0, None) if !namespace.is_empty() => Err(Error::NamespaceNotSupported),
        (Scheme::V0, None) => Ok(()),
        (_, Some([])) => Err(Error::EmptySecret),
        _ => framing::u32be(namespace.len()).map(drop),
    }
}

impl crate::timestamp::Millis {
    /// The milliseconds as a ULID holds them, checked where spec §4.4 puts the range:
    /// after the scheme, secret and namespace checks ([`check_ulid_inputs`]), which this
    /// makes first. A host that converted its time into `Millis` calls it before deriving
    /// under `scheme` (a key ring's primary, for a ring), so that every host reports the
    /// same error for the same faults.
    ///
    /// ```
    /// use samekey::{timestamp::Millis, Scheme};
    /// let before_1970 = Millis::from(-1i64);
    /// assert_eq!(before_1970.check_for(Scheme::V0, "", Some(b"k")).unwrap_err().code(), "secret_not_supported");
    /// assert_eq!(before_1970.check_for(Scheme::V1, "", None).unwrap_err().code(), "timestamp_out_of_range");
    /// assert_eq!(Millis::from(5u64).check_for(Scheme::V2, "posts", None)?, 5);
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub fn check_for(self, scheme: Scheme, namespace: &str, secret: Option<&[u8]>) -> Result<u64> {
        check_ulid_inputs(scheme, namespace, secret)?;
        self.check()
    }
}

impl UlidDeriver {
    /// A deriver for one scheme, namespace and secret, checked and prepared once (spec §4.4).
    pub fn new(scheme: Scheme, namespace: &str, secret: Option<&[u8]>) -> Result<Self> {
        check_ulid_inputs(scheme, namespace, secret)?;
        let prefix = match scheme {
            Scheme::V0 => Prefix::Legacy,
            _ => Prefix::Tagged {
                state: Midstate::new(scheme, Purpose::Ulid, secret)?,
                namespace: namespace.into(),
            },
        };
        Ok(UlidDeriver { scheme, prefix })
    }

    /// The scheme ids are derived under.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The id of `fields` at `timestamp_ms` (spec §4.5).
    pub fn derive<F: AsRef<[u8]>>(&self, timestamp_ms: u64, fields: &[F]) -> Result<Ulid> {
        let t = timestamp::check_ms(timestamp_ms)?;
        let digest = match &self.prefix {
            Prefix::Legacy => v0_digest(fields)?,
            Prefix::Tagged { state, namespace } => state.digest(&Fields {
                namespace: namespace.as_bytes(),
                fields,
            })?,
        };
        Ok(assemble(t, &digest))
    }
}

/// The id at `t` of a hash whose first bytes are the big-endian words `head`: what
/// [`assemble`] makes of the digest, from words a batch's compression leaves in registers
/// (written out as bytes and read back at an offset of 2, they stalled the CPU on every id).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline]
pub(crate) fn assemble_head(t: u64, head: [u32; 3]) -> Ulid {
    let [a, b, c] = head.map(u64::from);
    let hi = t << 16 | a >> 16;
    let lo = a << 48 | b << 16 | c >> 16;
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&hi.to_be_bytes());
    id[8..].copy_from_slice(&lo.to_be_bytes());
    Ulid(id)
}

// Out of line: inlined into `UlidDeriver::derive`, the streaming hasher slowed the
// tagged schemes' path beside it. (Not in WebAssembly: its build is sized, not timed here.)
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn v0_digest<F: AsRef<[u8]>>(fields: &[F]) -> Result<[u8; 32]> {
    let mut h = Sha256::new();
    framing::v0_fields(&mut h, fields)?;
    Ok(h.finalize().into())
}

pub(crate) fn assemble(t: u64, digest: &[u8; 32]) -> Ulid {
    // As two 64-bit words rather than byte copies: the text encoder reads the id back as
    // whole words, which a CPU cannot forward from narrower stores without a stall. Not
    // one u128 either: WebAssembly emulates it, and with it inlined here rustc 1.95 built
    // a wasm32 (simd128, opt-level "s") v0 id with wrong low bits.
    let hi = t << 16 | u64::from(u16::from_be_bytes([digest[0], digest[1]]));
    let d = digest;
    let lo = u64::from_be_bytes([d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9]]);
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&hi.to_be_bytes());
    id[8..].copy_from_slice(&lo.to_be_bytes());
    Ulid(id)
}

/// Derives the deterministic ULID of `fields` at `timestamp_ms` (spec §4).
///
/// ```
/// use samekey::{derive_ulid, Scheme};
/// let id = derive_ulid(Scheme::V1, 1_700_000_000_000, "posts", &["hello-world", "en"], None)?;
/// assert_eq!(id, derive_ulid(Scheme::V1, 1_700_000_000_000, "posts", &["hello-world", "en"], None)?);
/// assert_eq!(id.timestamp_ms(), 1_700_000_000_000);
/// assert_eq!(id.to_string().len(), 26);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn derive_ulid<F: AsRef<[u8]>>(
    scheme: Scheme,
    timestamp_ms: u64,
    namespace: &str,
    fields: &[F],
    secret: Option<&[u8]>,
) -> Result<Ulid> {
    if scheme == Scheme::V0 {
        return UlidDeriver::new(scheme, namespace, secret)?.derive(timestamp_ms, fields);
    }
    // No deriver: an unkeyed state is a constant, and the namespace need not be copied.
    check_ulid_inputs(scheme, namespace, secret)?;
    let t = timestamp::check_ms(timestamp_ms)?;
    let keyed;
    let state = match secret {
        None => Midstate::unkeyed(scheme, Purpose::Ulid),
        Some(_) => {
            keyed = Midstate::new(scheme, Purpose::Ulid, secret)?;
            &keyed
        }
    };
    let message = Fields {
        namespace: namespace.as_bytes(),
        fields,
    };
    Ok(assemble(t, &state.digest(&message)?))
}

/// The exact bytes that are hashed for a ULID (the tag block included), for debugging
/// a mismatch between implementations. Keyed or not, the message is the same.
pub fn ulid_message<F: AsRef<[u8]>>(
    scheme: Scheme,
    namespace: &str,
    fields: &[F],
) -> Result<alloc::vec::Vec<u8>> {
    let mut out = alloc::vec::Vec::new();
    if scheme == Scheme::V0 {
        if !namespace.is_empty() {
            return Err(Error::NamespaceNotSupported);
        }
        framing::v0_fields(&mut out, fields)?;
    } else {
        out.extend_from_slice(&crate::scheme::tag_block(scheme, Purpose::Ulid));
        framing::ulid_namespace(&mut out, namespace.as_bytes())?;
        framing::ulid_fields(&mut out, fields)?;
    }
    Ok(out)
}

impl fmt::Debug for UlidDeriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The state may be keyed: never print it.
        f.debug_struct("UlidDeriver")
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_ulid_inputs_agrees_with_the_deriver() {
        for scheme in Scheme::ALL {
            for namespace in ["", "posts"] {
                for secret in [None, Some(&b""[..]), Some(&b"k"[..])] {
                    let checked =
                        check_ulid_inputs(scheme, namespace, secret).map_err(|e| e.code());
                    let made = UlidDeriver::new(scheme, namespace, secret)
                        .map(drop)
                        .map_err(|e| e.code());
                    assert_eq!(checked, made, "{scheme} {namespace:?} {secret:?}");
                }
            }
        }
    }

    /// The batch's path from words keeps the same 80 bits as the one from bytes.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn an_id_from_a_hash_head_is_the_id_from_its_bytes() {
        for seed in 0..64u8 {
            let digest: [u8; 32] =
                core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ seed.wrapping_mul(101));
            for t in [0, 1, 1_700_000_000_000, crate::timestamp::MAX_MS] {
                let head = crate::tagged::head(&digest);
                assert_eq!(assemble_head(t, head), assemble(t, &digest), "{seed} {t}");
            }
        }
    }

    #[test]
    fn text_forms_of_known_bits() {
        let id = Ulid::from_bytes([0xff; 16]);
        assert_eq!(id.to_string(), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
        assert_eq!(id.to_uuid_string(), "ffffffff-ffff-ffff-ffff-ffffffffffff");
        assert_eq!(Ulid::from_bytes([0; 16]).to_string(), "0".repeat(26));
    }

    #[test]
    fn parse_rejects_overflow_and_excluded_letters() {
        for bad in [
            "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "0000000000000000000000000I",
            "0000000000000000000000000L",
            "0000000000000000000000000O",
            "0000000000000000000000000U",
            "000",
            "",
            "0000000000000000000000000é",
        ] {
            assert_eq!(
                bad.parse::<Ulid>().unwrap_err().code(),
                "invalid_ulid",
                "{bad}"
            );
        }
        let lower: Ulid = "01arz3ndektsv4rrffq69g5fav".parse().unwrap();
        assert_eq!(lower.to_string(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    }
}
