//! The Rust core's column of `just bench-matrix` (bench/matrix/README.md): every operation
//! of the matrix through the core's own API, with text in and text out as a binding
//! passes it, timed the way every runner times (bench/matrix/protocol.md).

use std::hint::black_box;
use std::io::BufRead;
use std::time::{Duration, Instant};

use samekey::{KeyRing, Scheme, Ulid, UlidDeriver};
use serde_json::Value;

type Op<'a> = (&'static str, Box<dyn FnMut() -> usize + 'a>);

fn main() {
    let path = std::env::var("SAMEKEY_MATRIX_CASES").expect("SAMEKEY_MATRIX_CASES: the cases file");
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = |k: &str| cases[k].as_str().unwrap().to_owned();
    let ms = cases["time_ms"].as_u64().unwrap();
    let namespace = text("namespace");
    let fields: Vec<String> = cases["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().into())
        .collect();
    let (ulid, json, small, rfc3339, parent) = (
        text("ulid"),
        text("json"),
        text("small"),
        text("rfc3339"),
        text("parent"),
    );
    let large: Vec<u8> = (0..cases["large_bytes"].as_u64().unwrap() as usize)
        .map(|i| (i * 131) as u8)
        .collect();
    let ring_names: Vec<&str> = cases["ring"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();

    let deriver = UlidDeriver::new(Scheme::V1, &namespace, None).unwrap();
    let ring: KeyRing = samekey::host::ring(&ring_names).unwrap();
    let stored = samekey::content_hash(Scheme::V1, small.as_bytes())
        .unwrap()
        .to_string();
    let incoming = samekey::content_hash_json_text(Scheme::V1, &json)
        .unwrap()
        .1
        .to_string();
    let old = samekey::derive_ulid(Scheme::V1, ms, &namespace, &fields, None).unwrap();
    let id: Ulid = ulid.parse().unwrap();

    let mut ops: Vec<Op> = vec![
        (
            "ulid",
            Box::new(|| {
                samekey::derive_ulid(Scheme::V1, black_box(ms), &namespace, &fields, None)
                    .unwrap()
                    .as_bytes()[15] as usize
            }),
        ),
        (
            "ulid_v2",
            Box::new(|| {
                let id = samekey::derive_ulid(Scheme::V2, black_box(ms), &namespace, &fields, None);
                id.unwrap().as_bytes()[15] as usize
            }),
        ),
        (
            "ulid_prepared",
            Box::new(|| deriver.derive(black_box(ms), &fields).unwrap().as_bytes()[15] as usize),
        ),
        (
            "ulid_parse",
            Box::new(|| black_box(&ulid).parse::<Ulid>().unwrap().as_bytes()[15] as usize),
        ),
        // Each result is made and kept, as a host's is: black_box stops the compiler from
        // eliding the allocation (it had: 2 ns for a Vec of 16 bytes).
        (
            "ulid_text",
            Box::new(|| black_box(black_box(id).to_string()).len()),
        ),
        (
            "ulid_bytes",
            Box::new(|| black_box(black_box(id).to_bytes().to_vec()).len()),
        ),
        (
            "hash_40",
            Box::new(|| {
                samekey::content_hash(Scheme::V1, black_box(small.as_bytes()))
                    .unwrap()
                    .to_string()
                    .len()
            }),
        ),
        (
            "hash_1m",
            Box::new(|| {
                samekey::content_hash(Scheme::V1, black_box(&large))
                    .unwrap()
                    .to_string()
                    .len()
            }),
        ),
        (
            "content_json",
            Box::new(|| {
                samekey::content_hash_json_text(Scheme::V1, black_box(&json))
                    .unwrap()
                    .1
                    .to_string()
                    .len()
            }),
        ),
        (
            "canonical_json",
            Box::new(|| {
                samekey::canonicalize_json_text(black_box(&json))
                    .unwrap()
                    .len()
            }),
        ),
        (
            "revision_key",
            Box::new(|| {
                let content = black_box(&stored).parse().unwrap();
                samekey::derive_revision(Scheme::V1, Some(&parent), &content, None)
                    .unwrap()
                    .to_string()
                    .len()
            }),
        ),
        (
            "key_parse",
            Box::new(|| {
                black_box(&stored)
                    .parse::<samekey::Key>()
                    .unwrap()
                    .to_string()
                    .len()
            }),
        ),
        (
            "ring_verify",
            Box::new(|| {
                let found = ring
                    .verify_ulid(black_box(&old), ms, &namespace, &fields, None)
                    .unwrap();
                found.as_str().len()
            }),
        ),
        (
            "ring_candidates",
            Box::new(|| {
                ring.candidate_ulids(black_box(ms), &namespace, &fields, None)
                    .unwrap()
                    .len()
            }),
        ),
        (
            "needs_write",
            Box::new(|| {
                samekey::host::needs_write(Some(black_box(&stored)), &incoming).unwrap() as usize
            }),
        ),
        (
            "rfc3339",
            Box::new(|| samekey::parse_rfc3339(black_box(&rfc3339)).unwrap() as usize),
        ),
    ];
    serve(&mut ops);
}

/// The protocol (bench/matrix/protocol.md): a line of the milliseconds each operation
/// runs for, answered by one line of JSON, ns per call by operation; EOF ends.
fn serve(ops: &mut [Op]) {
    for line in std::io::stdin().lock().lines() {
        let budget = Duration::from_millis(line.unwrap().trim().parse().unwrap());
        let mut sink = 0usize;
        let cells: Vec<String> = ops
            .iter_mut()
            .map(|(name, op)| {
                let mut n = 1u64;
                loop {
                    let start = Instant::now();
                    for _ in 0..n {
                        sink = sink.wrapping_add(op());
                    }
                    let took = start.elapsed();
                    if took >= budget {
                        break format!("\"{name}\":{:.1}", took.as_nanos() as f64 / n as f64);
                    }
                    n *= 2;
                }
            })
            .collect();
        println!("{{{},\"sink\":{}}}", cells.join(","), sink % 10);
    }
}
