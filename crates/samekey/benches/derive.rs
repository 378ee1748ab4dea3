//! ns per ULID derivation for a typical post (a 20-byte slug and "en") under each scheme,
//! next to the floor: one bare SHA-256 of `slug + ":" + lang` with the sha2 crate.
//! `just bench` prints these as a table with ratios to the floor.

mod common;

use common::{floor, LANG, SECRET, SLUG, T};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

use samekey::{derive_ulid, Scheme, UlidDeriver};

fn derive(c: &mut Criterion) {
    assert_eq!(SLUG.len(), 20);
    let mut g = c.benchmark_group("ulid");
    g.bench_function("floor sha256(slug:lang)", |b| b.iter(floor));
    for (name, scheme, secret) in [
        ("v0", Scheme::V0, None),
        ("v1", Scheme::V1, None),
        ("v2", Scheme::V2, None),
        ("keyed v1", Scheme::V1, Some(SECRET)),
        ("keyed v2", Scheme::V2, Some(SECRET)),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                derive_ulid(
                    scheme,
                    black_box(T),
                    "",
                    &[black_box(SLUG), black_box(LANG)],
                    secret,
                )
                .unwrap()
            })
        });
    }
    for (name, scheme, secret) in [
        ("v1 prepared", Scheme::V1, None),
        ("keyed v1 prepared", Scheme::V1, Some(SECRET)),
    ] {
        let d = UlidDeriver::new(scheme, "", secret).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| {
                d.derive(black_box(T), &[black_box(SLUG), black_box(LANG)])
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, derive);
criterion_main!(benches);
