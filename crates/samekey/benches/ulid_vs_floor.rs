//! The ULID-derivation targets, measured so that machine noise cancels: every variant and
//! the floor run in interleaved rounds in one process, and each reports its fastest round
//! (the least disturbed by other work). Prints a table of ns per id and ratio to the floor.
//!
//! `--only NAME --ids N` derives about N ids with one variant and nothing else, for
//! counting instructions under callgrind (`just bench-instructions`), which no neighbour
//! disturbs. `--list` prints the variants that run on one thread.

mod common;

use std::hint::black_box;
use std::num::NonZeroUsize;
use std::time::Instant;

use common::{LANG, SECRET, SLUG, T};
use samekey::{derive_ulid, Scheme, Ulid, UlidDeriver};

const ROUNDS: usize = 25;
/// Ids per variant per round.
const IDS: usize = 131_072;
/// Rows per batch call on one thread, and with every core (above the threading threshold).
const BATCH: usize = 4_096;
const BATCH_THREADED: usize = 65_536;

struct Prepared {
    v1: UlidDeriver,
    v2: UlidDeriver,
    keyed_v1: UlidDeriver,
    keyed_v2: UlidDeriver,
    times: Vec<u64>,
    fields: Vec<&'static str>,
}

/// A name, ids per call, how many threads may run, and the call.
struct Variant {
    name: &'static str,
    ids: usize,
    threaded: bool,
    run: fn(&Prepared),
}

const fn single(name: &'static str, run: fn(&Prepared)) -> Variant {
    Variant {
        name,
        ids: 1,
        threaded: false,
        run,
    }
}

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

fn batch(d: &UlidDeriver, p: &Prepared, rows: usize, threads: Option<usize>) {
    let mut out = Vec::with_capacity(rows);
    let threads = threads.and_then(NonZeroUsize::new);
    d.derive_batch(
        &p.times[..rows],
        &p.fields[..2 * rows],
        2,
        threads,
        &mut out,
    )
    .unwrap();
    black_box(out);
}

const VARIANTS: [Variant; 17] = [
    single("floor sha256(slug:lang)", |_| {
        black_box(common::floor());
    }),
    single("floor blake3(slug:lang)", |_| {
        black_box(common::floor_blake3());
    }),
    single("v0", |_| {
        black_box(once(Scheme::V0, None));
    }),
    single("v1", |_| {
        black_box(once(Scheme::V1, None));
    }),
    single("v1 prepared", |p| {
        black_box(prepared(&p.v1));
    }),
    single("v2", |_| {
        black_box(once(Scheme::V2, None));
    }),
    single("v2 prepared", |p| {
        black_box(prepared(&p.v2));
    }),
    single("keyed v1", |_| {
        black_box(once(Scheme::V1, Some(SECRET)));
    }),
    single("keyed v1 prepared", |p| {
        black_box(prepared(&p.keyed_v1));
    }),
    single("keyed v2", |_| {
        black_box(once(Scheme::V2, Some(SECRET)));
    }),
    single("keyed v2 prepared", |p| {
        black_box(prepared(&p.keyed_v2));
    }),
    Variant {
        name: "v1 batch, 1 thread",
        ids: BATCH,
        threaded: false,
        run: |p| batch(&p.v1, p, BATCH, Some(1)),
    },
    Variant {
        name: "keyed v1 batch, 1 thread",
        ids: BATCH,
        threaded: false,
        run: |p| batch(&p.keyed_v1, p, BATCH, Some(1)),
    },
    Variant {
        name: "v2 batch, 1 thread",
        ids: BATCH,
        threaded: false,
        run: |p| batch(&p.v2, p, BATCH, Some(1)),
    },
    Variant {
        name: "keyed v2 batch, 1 thread",
        ids: BATCH,
        threaded: false,
        run: |p| batch(&p.keyed_v2, p, BATCH, Some(1)),
    },
    Variant {
        name: "v1 batch, all threads",
        ids: BATCH_THREADED,
        threaded: true,
        run: |p| batch(&p.v1, p, BATCH_THREADED, None),
    },
    Variant {
        name: "v2 batch, all threads",
        ids: BATCH_THREADED,
        threaded: true,
        run: |p| batch(&p.v2, p, BATCH_THREADED, None),
    },
];

fn main() {
    let p = Prepared {
        v1: UlidDeriver::new(Scheme::V1, "", None).unwrap(),
        v2: UlidDeriver::new(Scheme::V2, "", None).unwrap(),
        keyed_v1: UlidDeriver::new(Scheme::V1, "", Some(SECRET)).unwrap(),
        keyed_v2: UlidDeriver::new(Scheme::V2, "", Some(SECRET)).unwrap(),
        times: (0..BATCH_THREADED as u64).map(|i| T + i).collect(),
        fields: [SLUG, LANG].repeat(BATCH_THREADED),
    };
    let args: Vec<String> = std::env::args().collect();
    let arg = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    if args.iter().any(|a| a == "--list") {
        for v in VARIANTS.iter().filter(|v| !v.threaded) {
            println!("{}\t{}", v.name, v.ids);
        }
        return;
    }
    if let Some(name) = arg("--only") {
        let ids: usize = arg("--ids").and_then(|n| n.parse().ok()).unwrap_or(1000);
        let v = VARIANTS
            .iter()
            .find(|v| v.name == name)
            .expect("unknown variant");
        for _ in 0..ids.div_ceil(v.ids) {
            (v.run)(&p);
        }
        return;
    }
    let mut best = [f64::INFINITY; VARIANTS.len()];
    for _ in 0..ROUNDS {
        for (i, v) in VARIANTS.iter().enumerate() {
            let calls = IDS.div_ceil(v.ids);
            let start = Instant::now();
            for _ in 0..calls {
                (v.run)(&p);
            }
            let ids = (calls * v.ids) as f64;
            best[i] = best[i].min(start.elapsed().as_nanos() as f64 / ids);
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    println!(
        "ULID derivation, 20-byte slug + \"en\": fastest of {ROUNDS} interleaved rounds of \
         {IDS} ids; batches of {BATCH} rows on 1 thread, {BATCH_THREADED} on all {cores} cores"
    );
    println!("| variant | ns per id | x floor | x v1 |");
    println!("|---|---:|---:|---:|");
    let v1 = best[2];
    for (v, ns) in VARIANTS.iter().zip(&best) {
        println!(
            "| {} | {ns:.1} | {:.2} | {:.2} |",
            v.name,
            ns / best[0],
            ns / v1
        );
    }
}
