//! The `samekey` command as a shell user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use samekey::{content_hash, derive_ulid, parse_rfc3339, Scheme};

fn samekey(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_samekey"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from another thread: a large input's output fills the pipe before the
    // input is all read.
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn ulid_matches_the_core_for_time_text_and_ms() {
    let t = parse_rfc3339("2024-05-01T12:00:00Z").unwrap();
    let want = derive_ulid(Scheme::V2, t, "posts", &["hello", "en"], None).unwrap();
    let by_text = samekey(
        &[
            "ulid",
            "--scheme",
            "v2",
            "--time",
            "2024-05-01T12:00:00Z",
            "--namespace",
            "posts",
            "hello",
            "en",
        ],
        b"",
    );
    let by_ms = samekey(
        &[
            "ulid",
            "--scheme",
            "v2",
            "--ms",
            &t.to_string(),
            "--namespace",
            "posts",
            "hello",
            "en",
        ],
        b"",
    );
    assert!(by_text.status.success());
    assert_eq!(stdout(&by_text).trim(), want.to_string());
    assert_eq!(stdout(&by_ms), stdout(&by_text));
    let uuid = samekey(
        &[
            "ulid",
            "--scheme",
            "v2",
            "--ms",
            &t.to_string(),
            "--uuid",
            "--namespace",
            "posts",
            "hello",
            "en",
        ],
        b"",
    );
    assert_eq!(stdout(&uuid).trim(), want.to_uuid_string());
}

#[test]
fn keyed_ulid_reads_the_exact_secret_bytes() {
    let dir = std::env::temp_dir().join(format!("samekey-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret");
    std::fs::write(&secret, b"s3cret\n").unwrap();
    let out = samekey(
        &[
            "ulid",
            "--ms",
            "5",
            "--secret-file",
            secret.to_str().unwrap(),
            "a",
        ],
        b"",
    );
    let want = derive_ulid(Scheme::V1, 5, "", &["a"], Some(b"s3cret\n")).unwrap();
    assert_eq!(stdout(&out).trim(), want.to_string());
}

#[test]
fn bad_input_names_the_code_and_exits_65() {
    let out = samekey(&["ulid", "--time", "2024-05-01T12:00:00", "x"], b"");
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[invalid_timestamp]"));
    let out = samekey(&["ulid", "--ms", "281474976710656", "x"], b"");
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("timestamp_out_of_range"));
    let out = samekey(&["ulid", "--scheme", "v9", "--ms", "1", "x"], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap rejects an unknown scheme as a usage error"
    );
}

#[test]
fn hash_of_stdin_and_json_canonical_form() {
    let out = samekey(&["hash"], b"abc");
    let abc = content_hash(Scheme::V1, b"abc").unwrap().to_string();
    assert_eq!(stdout(&out), format!("{abc}  -\n"));
    let out = samekey(&["hash", "--no-names"], b"abc");
    assert_eq!(stdout(&out), format!("{abc}\n"));
    let out = samekey(
        &["hash", "--json", "--print-canonical", "--scheme", "v2"],
        b"{\"b\":1.0,\"a\":[]}",
    );
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines[0], "{\"a\":[],\"b\":1}");
    let canonical_hash = content_hash(Scheme::V2, lines[0].as_bytes()).unwrap();
    assert_eq!(lines[1], format!("{canonical_hash}  -"));
    let out = samekey(&["hash", "--json"], b"{\"a\":1,\"a\":2}");
    assert_eq!(out.status.code(), Some(65));
    assert!(String::from_utf8_lossy(&out.stderr).contains("duplicate_key"));
    let out = samekey(&["hash", "/nonexistent/file"], b"");
    assert_eq!(out.status.code(), Some(66));
}

#[test]
fn hash_prints_checksum_lines_and_check_verifies_them() {
    let dir = std::env::temp_dir().join(format!("samekey-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.txt"), dir.join("with space.bin"));
    std::fs::write(&a, b"abc").unwrap();
    std::fs::write(&b, b"\x00\x01").unwrap();
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = samekey(&["hash", "--scheme", "v2", a_s, "-", b_s], b"stdin");
    assert!(out.status.success());
    let want = [
        format!("{}  {a_s}", content_hash(Scheme::V2, b"abc").unwrap()),
        format!("{}  -", content_hash(Scheme::V2, b"stdin").unwrap()),
        format!("{}  {b_s}", content_hash(Scheme::V2, b"\x00\x01").unwrap()),
    ];
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), want);

    let list = dir.join("SUMS");
    let files = samekey(&["hash", a_s, b_s], b"");
    std::fs::write(&list, &files.stdout).unwrap();
    let ok = samekey(&["hash", "--check", list.to_str().unwrap()], b"");
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(stdout(&ok), format!("{a_s}: OK\n{b_s}: OK\n"));
    // The list from standard input, one file changed: exit 1 and a summary on stderr.
    std::fs::write(&a, b"abd").unwrap();
    let bad = samekey(&["hash", "--check", "-"], &files.stdout);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout(&bad), format!("{a_s}: FAILED\n{b_s}: OK\n"));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("1 computed checksum did NOT match"));
    // A malformed line and a missing file fail the check too.
    std::fs::remove_file(&b).unwrap();
    let worse = samekey(
        &["hash", "--check", "-"],
        format!("{}not a line\n", stdout(&files)).as_bytes(),
    );
    assert_eq!(worse.status.code(), Some(1));
    let err = String::from_utf8_lossy(&worse.stderr);
    assert!(
        err.contains("1 line is improperly formatted") && err.contains("could not be read"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn seconds_given_as_milliseconds_get_a_warning() {
    let out = samekey(&["ulid", "--ms", "1714564800", "slug", "en"], b"");
    assert!(out.status.success(), "a valid time is not refused");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1970-01-20") && err.contains("pass 1714564800000"),
        "{err}"
    );
    let quiet = samekey(&["ulid", "--ms", "1714564800000", "slug", "en"], b"");
    assert!(quiet.stderr.is_empty());
}

#[test]
fn batch_warns_once_a_run_of_times_that_look_like_seconds() {
    let args = [
        "batch",
        "--fields",
        "slug",
        "--time-field",
        "t",
        "--threads",
        "2",
    ];
    let lines: String = (0..500)
        .map(|i| format!("{{\"slug\":\"s{i}\",\"t\":{}}}\n", 1_714_564_800 + i))
        .collect();
    let out = samekey(&args, lines.as_bytes());
    assert!(out.status.success(), "a valid time is not refused");
    assert_eq!(stdout(&out).lines().count(), 500);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(err.contains("\"t\"") && err.contains("1970-01-20"), "{err}");
    let quiet = samekey(&args, b"{\"slug\":\"a\",\"t\":1714564800000}\n");
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
}

#[test]
fn checks_come_in_the_spec_order() {
    let dir = std::env::temp_dir().join(format!("samekey-cli-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("key");
    std::fs::write(&key, b"k").unwrap();
    let key = key.to_str().unwrap();
    let code = |args: &[&str]| {
        let out = samekey(args, b"");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        err.split(['[', ']'])
            .nth(1)
            .map(String::from)
            .unwrap_or(err)
    };
    // Text that is no time is a host conversion: first. A time before 1970 is a range
    // check: after the scheme's secret check (spec §4.4).
    let v0 = ["ulid", "--scheme", "v0", "--secret-file", key];
    assert_eq!(
        code(&[&v0[..], &["--time", "yesterday", "a"]].concat()),
        "invalid_timestamp"
    );
    assert_eq!(
        code(&[&v0[..], &["--time", "1969-12-31T23:59:59Z", "a"]].concat()),
        "secret_not_supported"
    );
    assert_eq!(
        code(&["ulid", "--time", "1969-12-31T23:59:59Z", "a"]),
        "timestamp_out_of_range"
    );
    // verify: the id is parsed after the time is converted, before the derivation's checks.
    let verify = [
        "verify",
        "not-a-ulid",
        "--accept",
        "v0",
        "--secret-file",
        key,
    ];
    assert_eq!(
        code(&[&verify[..], &["--time", "1969-12-31T23:59:59Z", "a"]].concat()),
        "invalid_ulid"
    );
    assert_eq!(
        code(&[&verify[..], &["--time", "nope", "a"]].concat()),
        "invalid_timestamp"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn revision_and_hash_offer_no_v0() {
    let help = samekey(&["revision", "--help"], b"");
    let text = stdout(&help);
    assert!(!text.contains("v0 (legacy"), "{text}");
    let out = samekey(
        &["revision", "--scheme", "v0", "--content-hash", "sha256:00"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "a usage error, before any work");
}

#[test]
fn verify_accepts_the_right_inputs_and_refuses_a_changed_identity() {
    let id = derive_ulid(Scheme::V0, 1000, "", &["slug", "en"], None)
        .unwrap()
        .to_string();
    let ok = samekey(
        &[
            "verify", &id, "--ms", "1000", "--accept", "v2,v1,v0", "slug", "en",
        ],
        b"",
    );
    assert!(ok.status.success());
    assert_eq!(stdout(&ok).trim(), "v0");
    let changed = samekey(
        &[
            "verify", &id, "--ms", "1001", "--accept", "v2,v1,v0", "slug", "en",
        ],
        b"",
    );
    assert_eq!(changed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&changed.stderr).contains("identity_mismatch"));
}

#[test]
fn revision_of_a_root_and_a_child() {
    let h = content_hash(Scheme::V1, b"data").unwrap().to_string();
    let root = samekey(&["revision", "--content-hash", &h], b"");
    let root = stdout(&root).trim().to_string();
    assert!(root.starts_with("rev:v1:"));
    let child = samekey(&["revision", "--content-hash", &h, "--parent", &root], b"");
    assert_ne!(stdout(&child).trim(), root);
    let empty = samekey(&["revision", "--content-hash", &h, "--parent", ""], b"");
    assert!(String::from_utf8_lossy(&empty.stderr).contains("empty_parent"));
}

const RECORDS: &str = concat!(
    "{\"slug\":\"hello\",\"lang\":\"en\",\"publishedAt\":\"2024-05-01T12:00:00Z\",\"body\":\"hi\"}\n",
    "\n",
    "{\"slug\":\"hola\",\"lang\":\"es\",\"publishedAt\":1714564800000,\"body\":\"hola\",\"views\":1e20,\"score\":1.50}\n",
);

#[test]
fn batch_adds_ids_and_hashes_and_is_idempotent() {
    let args = [
        "batch",
        "--fields",
        "slug,lang",
        "--time-field",
        "publishedAt",
        "--namespace",
        "posts",
    ];
    let first = samekey(&args, RECORDS.as_bytes());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let out = stdout(&first);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let want = derive_ulid(
        Scheme::V1,
        1_714_564_800_000,
        "posts",
        &["hello", "en"],
        None,
    )
    .unwrap();
    assert_eq!(lines[0]["_id"], want.to_string());
    assert!(lines[0]["contentHash"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    // The record goes out byte for byte as it came in (member order, number text such as
    // 1e20 and 1.50); the new members come last.
    assert!(out.lines().nth(1).unwrap().starts_with("{\"slug\":\"hola\",\"lang\":\"es\",\"publishedAt\":1714564800000,\"body\":\"hola\",\"views\":1e20,\"score\":1.50,\"_id\":"));
    // Feeding the output back in verifies the stored ids and reproduces it exactly.
    let second = samekey(&args, out.as_bytes());
    assert!(second.status.success());
    assert_eq!(stdout(&second), out);
}

#[test]
fn batch_keeps_every_byte_of_the_record_and_replaces_its_own_members() {
    let args = ["batch", "--fields", "slug", "--time-field", "t"];
    let id = derive_ulid(Scheme::V1, 5, "", &["a"], None).unwrap();
    let hash = |canonical: &str| content_hash(Scheme::V1, canonical.as_bytes()).unwrap();
    let input = concat!(
        "{ \"slug\" : \"a\",\t\"t\": 5 , \"x\": \"\\u00e9\" }\r\n",
        "{\"contentHash\":\"old\", \"slug\":\"a\",\"t\":5}\n",
        "{\"slug\":\"a\", \"_id\": \"ID\", \"t\":5, \"contentHash\":\"old\"}\n",
        "{\"slug\":\"a\",\"t\":5,\"_id\":\"ID\"}",
    )
    .replace("ID", &id.to_string().to_lowercase());
    let out = samekey(&args, input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tail =
        |canonical: &str| format!("\"_id\":\"{id}\",\"contentHash\":\"{}\"}}", hash(canonical));
    let want = [
        format!(
            "{{ \"slug\" : \"a\",\t\"t\": 5 , \"x\": \"\\u00e9\" ,{}",
            tail("{\"slug\":\"a\",\"t\":5,\"x\":\"é\"}")
        ),
        format!(
            "{{\"slug\":\"a\",\"t\":5,{}",
            tail("{\"slug\":\"a\",\"t\":5}")
        ),
        format!(
            "{{\"slug\":\"a\", \"t\":5,{}",
            tail("{\"slug\":\"a\",\"t\":5}")
        ),
        format!(
            "{{\"slug\":\"a\",\"t\":5,{}",
            tail("{\"slug\":\"a\",\"t\":5}")
        ),
    ];
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), want);
}

/// Enough lines for several 1 MiB chunks, with bad records at `bad` (1-based).
fn many_records(n: usize, bad: &[usize]) -> String {
    (1..=n)
        .map(|i| {
            let t = if bad.contains(&i) {
                "-1".to_string()
            } else {
                i.to_string()
            };
            format!(
                "{{\"slug\":\"post-{i}\",\"body\":\"{}\",\"t\":{t}}}\n",
                "x".repeat(i % 200)
            )
        })
        .collect()
}

#[test]
fn batch_threads_keep_the_order_and_the_first_error() {
    let input = many_records(40_000, &[]);
    let run = |threads: &str, input: &str| {
        samekey(
            &[
                "batch",
                "--fields",
                "slug",
                "--time-field",
                "t",
                "--threads",
                threads,
            ],
            input.as_bytes(),
        )
    };
    let one = run("1", &input);
    assert!(one.status.success());
    assert_eq!(stdout(&one).lines().count(), 40_000);
    for threads in ["2", "3", "8"] {
        assert_eq!(
            run(threads, &input).stdout,
            one.stdout,
            "--threads {threads}"
        );
    }
    // The first bad record stops the output there, whichever thread keyed it.
    let bad = many_records(40_000, &[23_456, 31_000]);
    for threads in ["1", "2", "3"] {
        let out = run(threads, &bad);
        assert_eq!(out.status.code(), Some(65));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("line 23456: error[timestamp_out_of_range]"),
            "{err}"
        );
        assert!(!err.contains("line 31000"), "{err}");
        assert_eq!(stdout(&out).lines().count(), 23_455);
        assert_eq!(out.stdout, one.stdout[..out.stdout.len()]);
    }
    let keep = samekey(
        &[
            "batch",
            "--fields",
            "slug",
            "--time-field",
            "t",
            "--threads",
            "2",
            "--keep-going",
        ],
        bad.as_bytes(),
    );
    let err = String::from_utf8_lossy(&keep.stderr);
    let first = err.find("line 23456:").expect("the first bad line");
    let second = err.find("line 31000:").expect("the second bad line");
    assert!(first < second, "{err}");
    assert_eq!(stdout(&keep).lines().count(), 39_998);
    assert!(err.contains("39998 record(s) written, 2 failed"), "{err}");
}

#[test]
fn batch_draws_progress_on_a_terminal_only() {
    let dir = std::env::temp_dir().join(format!("samekey-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("in.jsonl");
    std::fs::write(&file, many_records(40_000, &[])).unwrap();
    let cmd = format!(
        "{} batch --fields slug --time-field t --threads 1 {} > /dev/null",
        env!("CARGO_BIN_EXE_samekey"),
        file.display()
    );
    // `script` (util-linux) runs the command on a pseudo-terminal and prints what it drew.
    let tty = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script(1) from util-linux runs a command on a terminal");
    let drawn = String::from_utf8_lossy(&tty.stdout);
    assert!(tty.status.success(), "{drawn}");
    assert!(
        drawn.contains("MiB"),
        "no progress bar on a terminal: {drawn:?}"
    );
    // Not a terminal: nothing on standard error.
    let piped = samekey(
        &[
            "batch",
            "--fields",
            "slug",
            "--time-field",
            "t",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(piped.status.success());
    assert_eq!(piped.stderr, b"");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_stops_quietly_when_its_reader_goes_away() {
    // `samekey batch ... | head -1`: the reader takes one line and closes the pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_samekey"))
        .args(["batch", "--fields", "slug", "--time-field", "t"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // More than any pipe buffer; stops when samekey stops reading.
        for i in 0..200_000 {
            let line = format!("{{\"slug\":\"post-{i}\",\"t\":{i}}}\n");
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    assert!(first.contains("\"_id\""), "{first}");
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

#[test]
fn batch_names_the_bad_line_and_refuses_a_changed_identity() {
    let args = [
        "batch",
        "--fields",
        "slug,lang",
        "--time-field",
        "publishedAt",
    ];
    let input = "{\"slug\":\"a\",\"lang\":\"en\",\"publishedAt\":0}\n{\"slug\":\"b\",\"publishedAt\":0}\n{\"slug\":\"c\",\"lang\":\"en\",\"publishedAt\":1.5}\n";
    let stop = samekey(&args, input.as_bytes());
    assert_eq!(stop.status.code(), Some(65));
    let err = String::from_utf8_lossy(&stop.stderr);
    assert!(err.contains("line 2:") && err.contains("\"lang\""), "{err}");
    assert!(!err.contains("line 3:"));
    assert_eq!(stdout(&stop).lines().count(), 1);

    let mut all = args.to_vec();
    all.push("--keep-going");
    let keep = samekey(&all, input.as_bytes());
    let err = String::from_utf8_lossy(&keep.stderr);
    assert!(err.contains("line 3: error[invalid_timestamp]"), "{err}");

    let moved = "{\"_id\":\"01HWT0D7G0NXVJZMMA9TW58EBH\",\"slug\":\"a\",\"lang\":\"en\",\"publishedAt\":0}\n";
    let refused = samekey(&args, moved.as_bytes());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("line 1: error[identity_mismatch]"));
}

#[test]
fn vectors_command_prints_the_count_line() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../test-vectors/samekey.json"
    );
    let out = samekey(&["vectors", file], b"");
    assert!(out.status.success());
    let last = stdout(&out).lines().last().unwrap().to_string();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

/// `samekey serve` is the registry: it starts on a fresh SQLite file with no setup and
/// answers a registration twice with the same revision.
#[test]
fn serve_starts_the_registry_on_a_fresh_sqlite_file() {
    use std::io::{BufRead, BufReader, Read};
    let dir = std::env::temp_dir().join(format!("samekey-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite:{}", dir.join("r.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_samekey"))
        .args(["serve", "--database", &db, "--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap()
        .to_string();
    let post = || {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(s, "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{{\"a\":1}}").unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        answer
    };
    let (first, second) = (post(), post());
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(first.starts_with("HTTP/1.1 201"), "{first}");
    assert!(second.starts_with("HTTP/1.1 200"), "{second}");
    let body = |a: &str| a.split("\r\n\r\n").nth(1).unwrap().to_string();
    assert_eq!(body(&first), body(&second));
}

/// `--ms` and text arguments fail with the spec's codes (§4.1, §8, §2.2) and exit 65, as
/// every other bad input does, not with the argument parser's usage error.
#[test]
fn a_bad_ms_or_a_non_utf8_argument_is_a_coded_error() {
    for (ms, code) in [
        ("-5", "timestamp_out_of_range"),
        ("18446744073709551616", "timestamp_out_of_range"),
        ("281474976710656", "timestamp_out_of_range"),
        ("1.5", "invalid_timestamp"),
        ("1e3", "invalid_timestamp"),
        ("", "invalid_timestamp"),
    ] {
        let out = samekey(&["ulid", "--ms", ms, "a"], b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(65), "--ms {ms:?}: {err}");
        assert!(
            err.starts_with(&format!("samekey: error[{code}]")),
            "--ms {ms:?}: {err}"
        );
    }
    let ok = samekey(&["ulid", "--ms", "281474976710655", "a"], b"");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_samekey"))
        .args(["ulid", "--ms", "0"])
        .arg(std::ffi::OsStr::from_bytes(b"caf\xe9"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(65), "{err}");
    assert!(err.starts_with("samekey: error[invalid_string]"), "{err}");
}
