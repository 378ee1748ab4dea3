//! Content hashes of files (spec §5), in constant memory. A BLAKE3 hash is a tree, so a
//! large file is cut along the tree's own subtree boundaries and the pieces are read and
//! hashed on several threads at once, each with one fixed buffer; the pieces' chaining
//! values are then merged exactly as one sequential pass would have. SHA-256 is a chain
//! and is read once from start to end.

use std::fs::File;
use std::path::Path;

use crate::content::{content_hash_reader_with_progress, ContentHash};
use crate::error::Error;
use crate::error::Result;
use crate::scheme::Scheme;

/// Below this size a single thread is as fast as several.
#[cfg(unix)]
const PARALLEL_MIN: u64 = 8 << 20;
/// What one reader thread holds at a time.
#[cfg(unix)]
const BUFFER: usize = 1 << 20;

/// The content hash of the file at `path`.
pub fn content_hash_file(scheme: Scheme, path: &Path) -> Result<ContentHash> {
    content_hash_file_with_progress(scheme, path, &|_| {})
}

/// As [`content_hash_file`], calling `progress` (possibly from several threads) with the
/// byte count of each chunk hashed.
pub fn content_hash_file_with_progress(
    scheme: Scheme,
    path: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ContentHash> {
    scheme.require_hashing("content hashes")?;
    // An I/O error names the file: "No such file or directory" alone names nothing.
    hash_file(scheme, path, progress).map_err(|e| match e {
        Error::Io(why) => Error::Io(format!("{}: {why}", path.display())),
        e => e,
    })
}

fn hash_file(scheme: Scheme, path: &Path, progress: &(dyn Fn(u64) + Sync)) -> Result<ContentHash> {
    let file = File::open(path)?;
    // Pieces are read at their offsets with pread (std's unix FileExt); elsewhere the file
    // is read once, in order.
    #[cfg(unix)]
    {
        let len = file.metadata()?.len();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        if scheme == Scheme::V2 && len >= PARALLEL_MIN && threads > 1 {
            // About four pieces per core keeps the cores busy when the halves are unequal.
            let leaf_max = (len / (4 * threads)).max(PARALLEL_MIN / 2);
            let tree = Tree {
                file: &file,
                leaf_max,
                progress,
            };
            let root = tree.root(len)?;
            return ContentHash::new(scheme, *root.as_bytes());
        }
    }
    content_hash_reader_with_progress(scheme, file, |n| progress(n as u64))
}

#[cfg(unix)]
struct Tree<'a> {
    file: &'a File,
    leaf_max: u64,
    progress: &'a (dyn Fn(u64) + Sync),
}

#[cfg(unix)]
impl Tree<'_> {
    fn root(&self, len: u64) -> Result<blake3::Hash> {
        use blake3::hazmat::{left_subtree_len, merge_subtrees_root, Mode};
        let left = left_subtree_len(len);
        let (l, r) = self.both(0, left, left, len - left)?;
        Ok(merge_subtrees_root(&l, &r, Mode::Hash))
    }

    fn subtree(&self, offset: u64, len: u64) -> Result<blake3::hazmat::ChainingValue> {
        use blake3::hazmat::{left_subtree_len, merge_subtrees_non_root, Mode};
        if len <= self.leaf_max {
            return self.leaf(offset, len);
        }
        let left = left_subtree_len(len);
        let (l, r) = self.both(offset, left, offset + left, len - left)?;
        Ok(merge_subtrees_non_root(&l, &r, Mode::Hash))
    }

    /// The two halves of a node, the left one on a new thread.
    fn both(
        &self,
        l_off: u64,
        l_len: u64,
        r_off: u64,
        r_len: u64,
    ) -> Result<(blake3::hazmat::ChainingValue, blake3::hazmat::ChainingValue)> {
        std::thread::scope(|s| {
            let left = std::thread::Builder::new()
                .name("samekey-hash".into())
                .spawn_scoped(s, || self.subtree(l_off, l_len))?;
            let right = self.subtree(r_off, r_len);
            let left = left
                .join()
                .map_err(|_| Error::Io("a hashing thread panicked".into()))?;
            Ok((left?, right?))
        })
    }

    fn leaf(&self, offset: u64, len: u64) -> Result<blake3::hazmat::ChainingValue> {
        use blake3::hazmat::HasherExt;
        use std::os::unix::fs::FileExt;
        let mut hasher = blake3::Hasher::new();
        hasher.set_input_offset(offset);
        let mut buf = vec![0u8; BUFFER.min(len as usize)];
        let mut at = offset;
        let end = offset + len;
        while at < end {
            let n = buf.len().min((end - at) as usize);
            self.file.read_exact_at(&mut buf[..n], at)?;
            hasher.update(&buf[..n]);
            (self.progress)(n as u64);
            at += n as u64;
        }
        Ok(hasher.finalize_non_root())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_tree_equals_one_pass_for_awkward_sizes() {
        let dir = std::env::temp_dir().join(format!("samekey-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Sizes around the thresholds and around chunk/subtree boundaries.
        for len in [
            0,
            1,
            1024,
            (8 << 20) - 1,
            8 << 20,
            (8 << 20) + 1,
            (13 << 20) + 777,
            32 << 20,
        ] {
            let data: Vec<u8> = (0..len)
                .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3])
                .collect();
            let path = dir.join(format!("f{len}"));
            std::fs::write(&path, &data).unwrap();
            let seen = std::sync::atomic::AtomicU64::new(0);
            for scheme in [Scheme::V1, Scheme::V2] {
                seen.store(0, std::sync::atomic::Ordering::Relaxed);
                let got = content_hash_file_with_progress(scheme, &path, &|n| {
                    seen.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                })
                .unwrap();
                assert_eq!(
                    got,
                    crate::content_hash(scheme, &data).unwrap(),
                    "{scheme} {len}"
                );
                assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), len as u64);
            }
            std::fs::remove_file(&path).unwrap();
        }
        let missing = content_hash_file(Scheme::V1, &dir.join("missing")).unwrap_err();
        assert_eq!(missing.code(), "io_error");
    }
}
