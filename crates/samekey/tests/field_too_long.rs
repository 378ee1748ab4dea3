//! `field_too_long` (spec §2.1, §4.4, §7.3, §9.1): no vector can hold a text of 4 GiB, so
//! the core's own tests give it one. The bytes are zero pages the allocator maps lazily:
//! reading them costs no memory, and only the v0 id below hashes all of them (a few seconds).
#![cfg(target_pointer_width = "64")]

use std::alloc::{alloc_zeroed, dealloc, Layout};

use samekey::{content_hash, derive_revision, derive_ulid, Error, KeyRing, Scheme};

const TOO_LONG: usize = (u32::MAX as usize) + 1;

/// `len` zero bytes, allocated as zero pages.
struct Zeroes {
    ptr: *mut u8,
    layout: Layout,
}

impl Zeroes {
    fn new(len: usize) -> Self {
        let layout = Layout::from_size_align(len, 1).unwrap();
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        assert!(!ptr.is_null(), "no address space for {len} bytes");
        Zeroes { ptr, layout }
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` holds `layout.size()` initialised (zeroed) bytes until drop.
        unsafe { std::slice::from_raw_parts(self.ptr, self.layout.size()) }
    }

    /// Zero bytes are valid UTF-8 (U+0000 each).
    fn text(&self) -> &str {
        std::str::from_utf8(&self.bytes()[..64]).unwrap();
        // SAFETY: every byte is 0x00, which is UTF-8.
        unsafe { std::str::from_utf8_unchecked(self.bytes()) }
    }
}

impl Drop for Zeroes {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in `new`.
        unsafe { dealloc(self.ptr, self.layout) }
    }
}

fn too_long(r: Result<impl std::fmt::Debug, Error>) {
    match r {
        Err(e) => assert_eq!(e.code(), "field_too_long", "{e}"),
        Ok(v) => panic!("expected field_too_long, got {v:?}"),
    }
}

#[test]
fn a_field_or_namespace_beyond_u32_is_field_too_long_under_v1_and_v2() {
    let big = Zeroes::new(TOO_LONG);
    for scheme in [Scheme::V1, Scheme::V2] {
        too_long(derive_ulid(scheme, 0, "", &[big.bytes()], None));
        too_long(derive_ulid(scheme, 0, big.text(), &[b"a"], None));
    }
    // §4.4: the namespace's length (check 5) before the time's range (check 6), the time's
    // range before the fields (check 7).
    too_long(derive_ulid(Scheme::V1, u64::MAX, big.text(), &[b"a"], None));
    let e = derive_ulid(Scheme::V1, u64::MAX, "", &[big.bytes()], None).unwrap_err();
    assert_eq!(e.code(), "timestamp_out_of_range");
}

#[test]
fn a_parent_beyond_u32_is_field_too_long_after_every_other_check() {
    let big = Zeroes::new(TOO_LONG);
    let h1 = content_hash(Scheme::V1, b"x").unwrap();
    too_long(derive_revision(Scheme::V1, Some(big.text()), &h1, None));
    // §7.3: scheme_mismatch (check 6) before the parent's length (check 7).
    let e = derive_revision(Scheme::V2, Some(big.text()), &h1, None).unwrap_err();
    assert_eq!(e.code(), "scheme_mismatch");
}

/// §9.1: the only error another scheme of a ring can add to the primary's. A v0 primary
/// derives from a 4 GiB field (v0 frames nothing); v1 cannot frame it.
#[test]
fn candidates_return_another_schemes_field_too_long() {
    let big = Zeroes::new(TOO_LONG);
    // v0 never answers field_too_long (it frames nothing), so the error is v1's, found
    // after the primary's id was derived.
    let ring = KeyRing::from_accept(&[Scheme::V0, Scheme::V1]).unwrap();
    too_long(ring.candidate_ulids(0, "", &[big.bytes()], None));
}
