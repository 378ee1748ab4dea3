//! In-process content-hash throughput on 64 MiB held in memory (no I/O). The comparison
//! with `openssl dgst -sha256` and `b3sum` on a 256 MiB file is `just bench-content`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

use samekey::{content_hash, Scheme};

fn content(c: &mut Criterion) {
    let data: Vec<u8> = (0..64u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let mut g = c.benchmark_group("content");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    for (name, scheme) in [("v1 sha256", Scheme::V1), ("v2 blake3", Scheme::V2)] {
        g.bench_function(name, |b| {
            b.iter(|| content_hash(scheme, black_box(&data)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, content);
criterion_main!(benches);
