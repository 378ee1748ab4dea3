//! Where threads pay for a batch: ns per id of `derive_batch` on one thread next to the
//! same rows split in equal parts over every core by hand (what the core does above
//! `PARALLEL_MIN_ROWS`), for batch sizes around that threshold; interleaved rounds,
//! fastest round each. `cargo bench -p samekey --bench batch_threads`.

// The workload only; the floor and the secret are for the other benches.
#[allow(dead_code)]
mod common;

use std::num::NonZeroUsize;
use std::time::Instant;

use common::{LANG, SLUG, T};
use samekey::{Scheme, Ulid, UlidDeriver, PARALLEL_MIN_ROWS};

const ROUNDS: usize = 15;
const IDS: usize = 262_144;
const SIZES: [usize; 6] = [1_024, 4_096, 8_192, 16_384, 65_536, 262_144];

fn one_thread(d: &UlidDeriver, times: &[u64], fields: &[&str]) -> Vec<Ulid> {
    let mut out = Vec::with_capacity(times.len());
    d.derive_batch(times, fields, 2, NonZeroUsize::new(1), &mut out)
        .unwrap();
    out
}

fn split(d: &UlidDeriver, times: &[u64], fields: &[&str], threads: usize) -> Vec<Ulid> {
    if threads == 1 {
        return one_thread(d, times, fields);
    }
    let per = times.len().div_ceil(threads);
    let parts: Vec<Vec<Ulid>> = std::thread::scope(|s| {
        let handles: Vec<_> = times
            .chunks(per)
            .zip(fields.chunks(2 * per))
            .map(|(t, f)| s.spawn(move || one_thread(d, t, f)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    parts.concat()
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let max = *SIZES.last().unwrap();
    let times: Vec<u64> = (0..max as u64).map(|i| T + i).collect();
    let fields = [SLUG, LANG].repeat(max);
    println!(
        "derive_batch, 20-byte slug + \"en\": ns per id, fastest of {ROUNDS} interleaved rounds; \
         {cores} cores; the core splits batches of {PARALLEL_MIN_ROWS} rows or more"
    );
    println!("| scheme | rows | 1 thread | {cores} threads | speed-up |");
    println!("|---|---:|---:|---:|---:|");
    for scheme in [Scheme::V1, Scheme::V2] {
        let d = UlidDeriver::new(scheme, "", None).unwrap();
        let mut best = [[f64::INFINITY; 2]; SIZES.len()];
        for _ in 0..ROUNDS {
            for (i, &n) in SIZES.iter().enumerate() {
                let (t, f) = (&times[..n], &fields[..2 * n]);
                for (k, threads) in [1, cores].into_iter().enumerate() {
                    let calls = IDS / n;
                    let start = Instant::now();
                    for _ in 0..calls {
                        std::hint::black_box(split(&d, t, f, threads));
                    }
                    let ns = start.elapsed().as_nanos() as f64 / (calls * n) as f64;
                    best[i][k] = best[i][k].min(ns);
                }
            }
        }
        for (n, [one, all]) in SIZES.iter().zip(best) {
            println!(
                "| {scheme} | {n} | {one:.1} | {all:.1} | {:.2} |",
                one / all
            );
        }
    }
}
