//! Hashing a stream uses constant memory and agrees with one-shot hashing.

use std::io::Read;

use samekey::{content_hash, content_hash_reader, ContentHasher, Scheme};

/// An endless-looking reader producing `remaining` bytes without holding them.
struct Generated {
    remaining: u64,
    state: u8,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.remaining as usize);
        for b in &mut buf[..n] {
            self.state = self.state.wrapping_mul(31).wrapping_add(7);
            *b = self.state;
        }
        self.remaining -= n as u64;
        Ok(n)
    }
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_large_stream_hashes_in_constant_memory() {
    const SIZE: u64 = 512 << 20;
    for scheme in [Scheme::V1, Scheme::V2] {
        let before = peak_rss_kib();
        let streamed = content_hash_reader(
            scheme,
            Generated {
                remaining: SIZE,
                state: 1,
            },
        )
        .unwrap();
        if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
            assert!(
                after - before < 16 * 1024,
                "peak RSS grew by {} KiB hashing 512 MiB",
                after - before
            );
        }
        // The same bytes fed in odd-sized chunks give the same hash.
        let mut h = ContentHasher::new(scheme).unwrap();
        let mut r = Generated {
            remaining: SIZE,
            state: 1,
        };
        let mut buf = vec![0u8; 1_000_003];
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            h.update(&buf[..n]);
        }
        assert_eq!(h.finalize(), streamed);
    }
}

#[test]
fn small_stream_equals_one_shot() {
    let data: Vec<u8> = (0..200_000u32).map(|i| (i * 13) as u8).collect();
    for scheme in [Scheme::V1, Scheme::V2] {
        assert_eq!(
            content_hash_reader(scheme, &data[..]).unwrap(),
            content_hash(scheme, &data).unwrap()
        );
    }
    assert_eq!(
        content_hash_reader(Scheme::V0, &data[..])
            .unwrap_err()
            .code(),
        "scheme_not_supported"
    );
}
