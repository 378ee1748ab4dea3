//! Every bad flag or token file stops the server at start with a message that names the
//! problem: never a panic, never a server that then refuses every request.

mod common;

use std::process::Command;

use common::token_file;

/// (exit code, stderr) of the registry started with `args` on a throwaway database.
fn start(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("r.db").display());
    let out = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
        .args(["--database", &db, "--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_flags_are_usage_errors() {
    for (args, says) in [
        (&["--max-connections", "0"][..], "--max-connections"),
        (&["--db-connections", "0"], "--db-connections"),
        (&["--header-timeout", "0s"], "more than zero"),
        (&["--idle-timeout", "10"], "no unit"),
        (&["--body-timeout", "1h"], "unit must be"),
        (&["--send-timeout", "0ms"], "more than zero"),
        (&["--shutdown-timeout=-1s"], "--shutdown-timeout"),
        (&["--body-limit", "0"], "--body-limit"),
        (&["--cpu-jobs", "0"], "--cpu-jobs"),
        (&["--max-header-bytes", "10"], "--max-header-bytes"),
        // A negative number is the flag's bad value, not an unknown argument.
        (
            &["--max-connections", "-1"],
            "invalid value '-1' for '--max-connections",
        ),
        (
            &["--db-connections", "-3"],
            "invalid value '-3' for '--db-connections",
        ),
        (
            &["--body-limit", "-1"],
            "invalid value '-1' for '--body-limit",
        ),
        (
            &["--min-send-rate", "-5"],
            "invalid value '-5' for '--min-send-rate",
        ),
        (&["--cpu-jobs", "-2"], "invalid value '-2' for '--cpu-jobs"),
        (
            &["--max-header-bytes", "-1"],
            "invalid value '-1' for '--max-header-bytes",
        ),
        (
            &["--header-timeout", "-1s"],
            "invalid value '-1s' for '--header-timeout",
        ),
        (
            &["--send-timeout", "-5ms"],
            "invalid value '-5ms' for '--send-timeout",
        ),
        (&["--first-byte-timeout", "0s"], "more than zero"),
        (&["--first-byte-timeout", "5"], "no unit"),
        (
            &["--max-connections-per-ip", "0"],
            "--max-connections-per-ip",
        ),
        (
            &["--max-connections-per-ip", "-1"],
            "invalid value '-1' for '--max-connections-per-ip",
        ),
    ] {
        let (code, stderr) = start(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn bad_token_files_stop_the_server_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let blank = token_file(&dir, "blank", "one\n\ntwo\n");
    let empty = token_file(&dir, "empty", "");
    let spaced = token_file(&dir, "spaced", "two words\n");
    let good = token_file(&dir, "good", "w\n");
    let reads = token_file(&dir, "reads", "r\n");
    let latin1 = dir.path().join("latin1");
    std::fs::write(&latin1, b"good\ncaf\xe9\n").unwrap();
    let latin1 = latin1.to_str().unwrap().to_string();
    for (args, says) in [
        (vec!["--token-file", &latin1], "latin1 line 2 is not UTF-8"),
        (vec!["--token-file", &blank], "line 2 is empty"),
        (vec!["--token-file", &empty], "holds no token"),
        (
            vec!["--token-file", &spaced],
            "line 1: a token may hold only",
        ),
        (
            vec!["--token-file", "/nonexistent/token"],
            "cannot read /nonexistent/token",
        ),
        (vec!["--read-token-file", &reads], "needs --token-file"),
        (
            vec![
                "--token-file",
                &good,
                "--read-token-file",
                &reads,
                "--public-reads",
            ],
            "contradict",
        ),
        (
            vec!["--token-file", &good, "--read-token-file", &good],
            "both",
        ),
    ] {
        let (code, stderr) = start(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
