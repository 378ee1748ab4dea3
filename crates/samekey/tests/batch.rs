//! `derive_batch` gives exactly what `derive` gives row by row: the same ids in the same
//! order, and on an error the same error with the ids of the rows before it.

use std::num::NonZeroUsize;

use proptest::prelude::*;
use samekey::{Scheme, Ulid, UlidDeriver, PARALLEL_MIN_ROWS};

const T: u64 = 1_700_000_000_000;

fn derivers() -> Vec<UlidDeriver> {
    let mut all = vec![UlidDeriver::new(Scheme::V0, "", None).unwrap()];
    for scheme in [Scheme::V1, Scheme::V2] {
        for secret in [None, Some(&b"k"[..])] {
            for namespace in ["", "posts"] {
                all.push(UlidDeriver::new(scheme, namespace, secret).unwrap());
            }
        }
    }
    all
}

/// Row `i`'s fields: lengths that cross one block, two blocks and the stack buffer.
fn row(i: usize) -> [String; 2] {
    let long = match i % 11 {
        3 => 70,
        7 => 130,
        _ => i % 40,
    };
    [
        format!("slug-{i}-{}", "x".repeat(long)),
        format!("{}", i % 3),
    ]
}

fn one_by_one(
    d: &UlidDeriver,
    times: &[u64],
    fields: &[String],
    width: usize,
) -> (Vec<Ulid>, Option<&'static str>) {
    let mut ids = Vec::new();
    for (i, &t) in times.iter().enumerate() {
        match d.derive(t, &fields[i * width..(i + 1) * width]) {
            Ok(id) => ids.push(id),
            Err(e) => return (ids, Some(e.code())),
        }
    }
    (ids, None)
}

fn check(d: &UlidDeriver, times: &[u64], fields: &[String], width: usize, threads: Option<usize>) {
    let (want, want_err) = one_by_one(d, times, fields, width);
    let mut got = vec![Ulid::from_bytes([1; 16])];
    let threads = threads.and_then(NonZeroUsize::new);
    let result = d.derive_batch(times, fields, width, threads, &mut got);
    assert_eq!(
        got.remove(0),
        Ulid::from_bytes([1; 16]),
        "kept what `out` held"
    );
    assert_eq!(result.err().map(|e| e.code()), want_err, "{d:?}");
    assert_eq!(got, want, "{d:?} {} rows", times.len());
}

fn rows(n: usize) -> (Vec<u64>, Vec<String>) {
    let times = (0..n as u64).map(|i| T + i).collect();
    let fields = (0..n).flat_map(row).collect();
    (times, fields)
}

#[test]
fn small_batches_equal_row_by_row() {
    for n in [0, 1, 7, 8, 9, 17, 100] {
        let (times, fields) = rows(n);
        for d in derivers() {
            check(&d, &times, &fields, 2, None);
        }
    }
}

#[test]
fn threaded_batches_equal_row_by_row_in_order() {
    let n = 3 * PARALLEL_MIN_ROWS + 5;
    let (times, fields) = rows(n);
    for d in derivers() {
        for threads in [None, Some(1), Some(2), Some(3), Some(64)] {
            check(&d, &times, &fields, 2, threads);
        }
    }
}

#[test]
fn the_first_failing_row_wins_whichever_thread_finds_it() {
    let n = 4 * PARALLEL_MIN_ROWS;
    let (mut times, fields) = rows(n);
    // Out of range late, then earlier in another part of the batch.
    times[n - 3] = u64::MAX;
    times[PARALLEL_MIN_ROWS + 9] = 1 << 48;
    for d in derivers() {
        for threads in [None, Some(1), Some(4)] {
            check(&d, &times, &fields, 2, threads);
        }
    }
}

#[test]
fn rows_of_no_fields_fail_like_derive() {
    for d in derivers() {
        check(&d, &[T, T], &[], 0, None);
        check(&d, &[], &[], 0, None);
    }
}

#[test]
#[should_panic(expected = "`width` fields for every time")]
fn a_ragged_batch_is_a_programming_error() {
    let d = UlidDeriver::new(Scheme::V1, "", None).unwrap();
    let _ = d.derive_batch(&[T, T], &["a", "b", "c"], 2, None, &mut Vec::new());
}

proptest! {
    #[test]
    fn any_rows_equal_row_by_row(
        rows in proptest::collection::vec(
            (0u64..(1 << 49), proptest::collection::vec(any::<u8>(), 0..150), proptest::collection::vec(any::<u8>(), 0..20)),
            0..40),
        which in 0usize..9,
    ) {
        let d = &derivers()[which];
        let times: Vec<u64> = rows.iter().map(|r| r.0).collect();
        let fields: Vec<Vec<u8>> = rows.iter().flat_map(|r| [r.1.clone(), r.2.clone()]).collect();
        let mut want = Vec::new();
        let mut want_err = None;
        for (i, &t) in times.iter().enumerate() {
            match d.derive(t, &fields[2 * i..2 * i + 2]) {
                Ok(id) => want.push(id),
                Err(e) => { want_err = Some(e.code()); break; }
            }
        }
        let mut got = Vec::new();
        let result = d.derive_batch(&times, &fields, 2, None, &mut got);
        prop_assert_eq!(result.err().map(|e| e.code()), want_err);
        prop_assert_eq!(got, want);
    }
}
