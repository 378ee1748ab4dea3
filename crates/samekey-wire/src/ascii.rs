//! UTF-16 that is all ASCII, narrowed in one go: most identity fields are.

use alloc::vec::Vec;

/// Appends `units` to `out` a byte a unit and returns `true` if every unit is ASCII;
/// otherwise leaves `out` as it was and returns `false`. The check is a fold without an
/// early exit, which compiles to vector instructions (`samekey::text::push_utf16`'s
/// `all` stops at the first unit that is not, one unit at a time).
#[inline]
pub(crate) fn push_if_ascii(units: &[u16], out: &mut Vec<u8>) -> bool {
    if units.iter().fold(0u16, |any, &u| any | u) >= 0x80 {
        return false;
    }
    out.extend(units.iter().map(|&u| u as u8));
    true
}
