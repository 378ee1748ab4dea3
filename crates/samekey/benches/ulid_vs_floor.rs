//! The ULID-derivation targets, measured so that machine noise cancels: every variant and
//! the floor run in interleaved rounds in one process, and each reports its fastest round
//! (the least disturbed by other work). Prints a table of ns per id and ratio to the floor.
//!
//! `--only NAME --iters N` runs one variant N times and nothing else, for counting
//! instructions under callgrind (`just bench-instructions`), which no neighbour disturbs.

mod common;

use std::hint::black_box;
use std::time::Instant;

use common::{LANG, SECRET, SLUG, T};
use samekey::{derive_ulid, Scheme, Ulid, UlidDeriver};

const ROUNDS: usize = 25;
const ITERS: u32 = 100_000;

struct Prepared {
    v1: UlidDeriver,
    keyed_v1: UlidDeriver,
}

type Variant = (&'static str, fn(&Prepared));

fn once(scheme: Scheme, secret: Option<&[u8]>) -> Ulid {
    derive_ulid(
        scheme,
        black_box(T),
        "",
        &[black_box(SLUG), black_box(LANG)],
        secret,
    )
    .unwrap()
}

fn prepared(d: &UlidDeriver) -> Ulid {
    d.derive(black_box(T), &[black_box(SLUG), black_box(LANG)])
        .unwrap()
}

const VARIANTS: [Variant; 8] = [
    ("floor sha256(slug:lang)", |_| {
        black_box(common::floor());
    }),
    ("v0", |_| {
        black_box(once(Scheme::V0, None));
    }),
    ("v1", |_| {
        black_box(once(Scheme::V1, None));
    }),
    ("v1 prepared", |p| {
        black_box(prepared(&p.v1));
    }),
    ("v2", |_| {
        black_box(once(Scheme::V2, None));
    }),
    ("keyed v1", |_| {
        black_box(once(Scheme::V1, Some(SECRET)));
    }),
    ("keyed v1 prepared", |p| {
        black_box(prepared(&p.keyed_v1));
    }),
    ("keyed v2", |_| {
        black_box(once(Scheme::V2, Some(SECRET)));
    }),
];

fn main() {
    let p = Prepared {
        v1: UlidDeriver::new(Scheme::V1, "", None).unwrap(),
        keyed_v1: UlidDeriver::new(Scheme::V1, "", Some(SECRET)).unwrap(),
    };
    let args: Vec<String> = std::env::args().collect();
    let arg = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    if let Some(name) = arg("--only") {
        let iters: u32 = arg("--iters").and_then(|n| n.parse().ok()).unwrap_or(1000);
        let (_, f) = VARIANTS
            .iter()
            .find(|(n, _)| n == name)
            .expect("unknown variant");
        for _ in 0..iters {
            f(&p);
        }
        return;
    }
    let mut best = [f64::INFINITY; VARIANTS.len()];
    for _ in 0..ROUNDS {
        for (i, (_, f)) in VARIANTS.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..ITERS {
                f(&p);
            }
            best[i] = best[i].min(start.elapsed().as_nanos() as f64 / f64::from(ITERS));
        }
    }
    println!(
        "ULID derivation, 20-byte slug + \"en\": fastest of {ROUNDS} interleaved rounds of {ITERS}"
    );
    println!("| variant | ns per id | x floor |");
    println!("|---|---:|---:|");
    for ((name, _), ns) in VARIANTS.iter().zip(&best) {
        println!("| {name} | {ns:.1} | {:.2} |", ns / best[0]);
    }
}
