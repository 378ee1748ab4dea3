//! Closed unless told otherwise: every combination of the listen address (loopback or
//! reachable from other hosts), a token file (or none) and --allow-anonymous, started as an
//! operator starts the registry.

mod common;

use std::io::Read;
use std::process::{Child, Command, Stdio};

use common::{listening_on, token_file};

const TOKEN: &str = "s3cret-token-for-exposure";

enum Outcome {
    /// Serving at this port; what it logged at start.
    Served { port: u16, log: String },
    /// Exited before serving: exit code and stderr.
    Refused { code: i32, stderr: String },
}

/// The registry on `listen` with `extra` flags, on a throwaway database; `meanwhile` runs
/// with its port while it serves.
fn start(listen: &str, extra: &[&str]) -> Outcome {
    start_and(listen, extra, |_| {})
}

fn start_and(listen: &str, extra: &[&str], meanwhile: impl FnOnce(u16)) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("r.db").display());
    let mut child: Child = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
        .args([
            "--database",
            &db,
            "--listen",
            listen,
            "--log-format",
            "text",
        ])
        .args(extra)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let Some(url) = listening_on(&mut child) else {
        let status = child.wait().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        return Outcome::Refused {
            code: status.code().unwrap_or(-1),
            stderr,
        };
    };
    let port = url.rsplit(':').next().unwrap().parse().unwrap();
    // The start lines are written before the first request is answered.
    let reply = get(port, "/healthz", None);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    meanwhile(port);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    drop(dir);
    Outcome::Served { port, log }
}

/// A bare HTTP/1.1 GET on 127.0.0.1:`port`: the status line and the rest.
fn get(port: u16, path: &str, token: Option<&str>) -> String {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

fn served(o: Outcome) -> (u16, String) {
    match o {
        Outcome::Served { port, log } => (port, log),
        Outcome::Refused { code, stderr } => panic!("refused ({code}): {stderr}"),
    }
}

const WARNING: &str = "--allow-anonymous: no tokens";

#[test]
fn loopback_serves_with_or_without_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", TOKEN);
    let (_, log) = served(start("127.0.0.1:0", &[]));
    assert!(!log.contains(WARNING), "{log}");
    let (_, log) = served(start("127.0.0.1:0", &["--token-file", &tokens]));
    assert!(!log.contains(WARNING), "{log}");
    // Asked for, the open server says so at start.
    let (_, log) = served(start("127.0.0.1:0", &["--allow-anonymous"]));
    assert!(log.contains(WARNING) && log.contains("WARN"), "{log}");
}

#[test]
fn a_reachable_address_without_tokens_is_refused_naming_both_ways_out() {
    for listen in ["0.0.0.0:0", "[::]:0"] {
        match start(listen, &[]) {
            Outcome::Refused { code, stderr } => {
                assert_eq!(code, 1, "{stderr}");
                for says in [
                    "refusing to listen on",
                    "no --token-file",
                    "--token-file FILE",
                    "--public-reads",
                    "--allow-anonymous",
                ] {
                    assert!(stderr.contains(says), "{listen}: {says:?} not in {stderr}");
                }
            }
            Outcome::Served { .. } => panic!("{listen} served everyone with no token file"),
        }
    }
}

#[test]
fn a_reachable_address_serves_with_tokens_closed_to_others() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", TOKEN);
    let path =
        "/v1/revisions/rev:v1:0000000000000000000000000000000000000000000000000000000000000000";
    let (_, log) = served(start_and("0.0.0.0:0", &["--token-file", &tokens], |port| {
        let anonymous = get(port, path, None);
        assert!(anonymous.starts_with("HTTP/1.1 401"), "{anonymous}");
        let with_token = get(port, path, Some(TOKEN));
        assert!(with_token.starts_with("HTTP/1.1 404"), "{with_token}");
    }));
    assert!(!log.contains(WARNING), "{log}");
}

#[test]
fn a_reachable_address_serves_open_only_when_asked_and_warns() {
    let (_, log) = served(start("0.0.0.0:0", &["--allow-anonymous"]));
    assert!(log.contains(WARNING) && log.contains("WARN"), "{log}");
}

#[test]
fn allow_anonymous_with_a_token_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", TOKEN);
    for listen in ["127.0.0.1:0", "0.0.0.0:0"] {
        match start(listen, &["--token-file", &tokens, "--allow-anonymous"]) {
            Outcome::Refused { code, stderr } => {
                assert_eq!(code, 2, "{stderr}");
                assert!(
                    stderr.contains("--allow-anonymous") && stderr.contains("--token-file"),
                    "{stderr}"
                );
            }
            Outcome::Served { .. } => panic!("a contradiction was served"),
        }
    }
}
