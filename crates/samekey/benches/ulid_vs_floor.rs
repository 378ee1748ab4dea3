//! The ULID-derivation targets, measured so that machine noise cancels: every variant and
//! the floor run in interleaved rounds in one process, and each reports its fastest round
//! (the least disturbed by other work). Prints a table of ns per id and ratio to the floor.

use std::hint::black_box;
use std::time::Instant;

use sha2::{Digest, Sha256};

use samekey::{derive_ulid, Scheme, UlidDeriver};

const SLUG: &str = "my-first-post-title!";
const LANG: &str = "en";
const T: u64 = 1_714_564_800_000;
const SECRET: &[u8] = b"a 32-byte secret for keyed ids!!";
const ROUNDS: usize = 25;
const ITERS: u32 = 100_000;

fn floor() {
    let mut m = Vec::with_capacity(SLUG.len() + 1 + LANG.len());
    m.extend_from_slice(black_box(SLUG).as_bytes());
    m.push(b':');
    m.extend_from_slice(black_box(LANG).as_bytes());
    black_box(<[u8; 32]>::from(Sha256::digest(&m)));
}

fn main() {
    let v1 = UlidDeriver::new(Scheme::V1, "", None).unwrap();
    let keyed = UlidDeriver::new(Scheme::V1, "", Some(SECRET)).unwrap();
    let derive = |s: Scheme, k: Option<&[u8]>| {
        derive_ulid(s, black_box(T), "", &[black_box(SLUG), black_box(LANG)], k).unwrap()
    };
    let variants: Vec<(&str, Box<dyn Fn()>)> = vec![
        ("floor sha256(slug:lang)", Box::new(floor)),
        (
            "v0",
            Box::new(move || drop(black_box(derive(Scheme::V0, None)))),
        ),
        (
            "v1",
            Box::new(move || drop(black_box(derive(Scheme::V1, None)))),
        ),
        (
            "v1 prepared",
            Box::new(move || {
                drop(black_box(
                    v1.derive(black_box(T), &[black_box(SLUG), black_box(LANG)])
                        .unwrap(),
                ))
            }),
        ),
        (
            "v2",
            Box::new(move || drop(black_box(derive(Scheme::V2, None)))),
        ),
        (
            "keyed v1",
            Box::new(move || drop(black_box(derive(Scheme::V1, Some(SECRET))))),
        ),
        (
            "keyed v1 prepared",
            Box::new(move || {
                drop(black_box(
                    keyed
                        .derive(black_box(T), &[black_box(SLUG), black_box(LANG)])
                        .unwrap(),
                ))
            }),
        ),
        (
            "keyed v2",
            Box::new(move || drop(black_box(derive(Scheme::V2, Some(SECRET))))),
        ),
    ];
    let mut best = vec![f64::INFINITY; variants.len()];
    for _ in 0..ROUNDS {
        for (i, (_, f)) in variants.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..ITERS {
                f();
            }
            best[i] = best[i].min(start.elapsed().as_nanos() as f64 / f64::from(ITERS));
        }
    }
    println!(
        "ULID derivation, 20-byte slug + \"en\": fastest of {ROUNDS} interleaved rounds of {ITERS}"
    );
    println!("| variant | ns per id | x floor |");
    println!("|---|---:|---:|");
    for ((name, _), ns) in variants.iter().zip(&best) {
        println!("| {name} | {ns:.1} | {:.2} |", ns / best[0]);
    }
}
