//! The order of JSON object keys (RFC 8785 §3.2.3: by UTF-16 code units), compared
//! without encoding anything, and the cache of one record's canonical key order that
//! makes the next record with the same keys cheap to write (`samekey batch`).

#[cfg(feature = "std")]
use alloc::string::String;
#[cfg(feature = "std")]
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Object keys compare by their UTF-16 code units (RFC 8785 §3.2.3). UTF-8 bytes
/// compare as code points do, and code points as UTF-16 does, except where the first
/// difference is a character in U+E000..U+FFFF (lead byte 0xEE or 0xEF) against one above
/// U+FFFF (lead byte 0xF0..0xF4), whose UTF-16 surrogates sort first: so a byte
/// comparison, corrected in that one case, without encoding anything.
pub(crate) fn utf16_cmp(a: &str, b: &str) -> Ordering {
    SortKey::new(a).cmp(&SortKey::new(b))
}

/// A key with its first eight bytes as a big-endian word (zero-padded), so that most
/// comparisons of keys, which differ early, are one comparison of words. Made once per
/// key, not once per comparison.
#[derive(Clone, Copy)]
pub(crate) struct SortKey<'k> {
    pub(crate) word: u64,
    pub(crate) key: &'k str,
}

impl<'k> SortKey<'k> {
    pub(crate) fn new(key: &'k str) -> Self {
        let s = key.as_bytes();
        let word = match s.get(..8) {
            Some(w) => u64::from_be_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => s
                .iter()
                .enumerate()
                .fold(0, |w, (i, &c)| w | u64::from(c) << (56 - 8 * i)),
        };
        SortKey { word, key }
    }

    /// UTF-16 order (see [`utf16_cmp`]). Zero padding orders a key that ends within the
    /// word before every key it is a prefix of, as a shorter string sorts.
    pub(crate) fn cmp(&self, other: &Self) -> Ordering {
        let (x, y) = (self.key.as_bytes(), other.key.as_bytes());
        let (p, q) = if self.word != other.word {
            let shift = 56 - (self.word ^ other.word).leading_zeros() / 8 * 8;
            ((self.word >> shift) as u8, (other.word >> shift) as u8)
        } else {
            match x.iter().zip(y).skip(8).find(|(p, q)| p != q) {
                None => return x.len().cmp(&y.len()),
                Some((&p, &q)) => (p, q),
            }
        };
        let upper_bmp = |c: u8| c == 0xEE || c == 0xEF;
        if (upper_bmp(p) && q >= 0xF0) || (p >= 0xF0 && upper_bmp(q)) {
            q.cmp(&p)
        } else {
            p.cmp(&q)
        }
    }
}

/// Whether two keys with the same first eight bytes (their words) are the same: the
/// rest of them is, with no comparison at all for keys of eight bytes or fewer.
pub(crate) fn same_tail(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.len() <= 8 || a.as_bytes()[8..] == b.as_bytes()[8..])
}

/// A key of an object being written, as [`KeyOrder`] sees it: its first eight bytes as a
/// word ([`SortKey`]), the key, and where its member starts in the output.
// Read only by the cache, which the build without `std` leaves out.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) trait Keyed {
    fn word(&self) -> u64;
    fn key(&self) -> &str;
    fn start(&self) -> usize;
}

/// The canonical order of the last record's top-level keys, for the next record: in
/// JSONL every line usually has the same keys in the same order, which are then
/// recognised with one equality test per key instead of sorted again (whose unpredictable
/// comparisons cost more than the rest of the object). Only with `std`: the WebAssembly
/// build (no `std`) reads no records and keeps its download small.
#[derive(Debug, Default)]
pub(crate) struct KeyOrder {
    /// The keys in the order of the text, with their sort words.
    #[cfg(feature = "std")]
    keys: Vec<(u64, String)>,
    /// Indices into `keys` in canonical order (while learning, the keys' offsets).
    #[cfg(feature = "std")]
    order: Vec<usize>,
    /// Whether `order` is `0, 1, 2, ...`.
    #[cfg(feature = "std")]
    identity: bool,
}

#[cfg(feature = "std")]
impl KeyOrder {
    /// The canonical order of `members` (in the order of the text), and whether it is
    /// that order, if they are the keys of the record before.
    pub(crate) fn known<M: Keyed>(&self, members: &[M]) -> Option<(&[usize], bool)> {
        let same = self.keys.len() == members.len()
            && !self.order.is_empty()
            && self
                .keys
                .iter()
                .zip(members)
                .all(|((word, key), m)| *word == m.word() && same_tail(key, m.key()));
        same.then_some((&self.order[..], self.identity))
    }

    /// Notes the keys in the order of the text, before they are sorted.
    pub(crate) fn begin<M: Keyed>(&mut self, members: &[M]) {
        self.keys.clear();
        self.keys
            .extend(members.iter().map(|m| (m.word(), String::from(m.key()))));
        self.order.clear();
        self.order.extend(members.iter().map(|m| m.start()));
    }

    /// The keys are sorted: keeps their order as indices into the order of the text
    /// (whose offsets `begin` kept, rising).
    pub(crate) fn learn<M: Keyed>(&mut self, sorted: &[M]) {
        let starts = core::mem::take(&mut self.order);
        self.order = sorted
            .iter()
            .map(|m| starts.binary_search(&m.start()).unwrap_or(0))
            .collect();
        self.identity = self.order.iter().enumerate().all(|(i, &j)| i == j);
    }

    /// A duplicate key: nothing is remembered.
    pub(crate) fn forget(&mut self) {
        self.keys.clear();
        self.order.clear();
    }
}

#[cfg(not(feature = "std"))]
impl KeyOrder {
    pub(crate) fn known<M: Keyed>(&self, _: &[M]) -> Option<(&[usize], bool)> {
        None
    }
    pub(crate) fn begin<M: Keyed>(&mut self, _: &[M]) {}
    pub(crate) fn learn<M: Keyed>(&mut self, _: &[M]) {}
    pub(crate) fn forget(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec;

    #[test]
    fn utf16_order_by_bytes_is_utf16_order() {
        // Characters around every boundary where UTF-8 and UTF-16 lengths or order change.
        let chars: Vec<char> = [
            0x0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xEFFF, 0xF000, 0xFB33, 0xFFFF,
            0x10000, 0x1F600, 0x10FFFF,
        ]
        .iter()
        .map(|&c| char::from_u32(c).unwrap())
        .collect();
        // With prefixes that move the first difference across the first eight bytes.
        let mut strings = vec![String::new()];
        for prefix in ["", "abcdef", "abcdefg", "abcdefgh"] {
            for &a in &chars {
                strings.push(format!("{prefix}{a}"));
                for &b in &chars {
                    strings.push(format!("{prefix}{a}{b}"));
                }
            }
        }
        for a in &strings {
            for b in &strings {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(utf16_cmp(a, b), want, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn utf16_order_differs_from_utf8_order() {
        // U+FB33 is above U+1F600's high surrogate in UTF-8 order, below it in UTF-16.
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FB33}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FB33}"), Ordering::Greater);
    }
}
