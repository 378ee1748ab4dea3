//! The write guard of the upsert discipline: skip a write whose content is unchanged.
//! (Its twin, refusing a changed identity, is [`KeyRing::verify_ulid`](crate::KeyRing::verify_ulid).)

use crate::content::ContentHash;

/// Whether `incoming` content must be written over `stored` (none stored yet, or a
/// different hash). Hashes of different schemes are different: the write re-hashes the
/// document under the new scheme.
pub fn needs_write(stored: Option<&ContentHash>, incoming: &ContentHash) -> bool {
    stored != Some(incoming)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{content_hash, Scheme};

    #[test]
    fn writes_only_new_or_changed_content() {
        let a = content_hash(Scheme::V1, b"a").unwrap();
        let b = content_hash(Scheme::V1, b"b").unwrap();
        let a2 = content_hash(Scheme::V2, b"a").unwrap();
        assert!(needs_write(None, &a));
        assert!(!needs_write(Some(&a), &a));
        assert!(needs_write(Some(&a), &b));
        assert!(needs_write(Some(&a), &a2));
    }
}
