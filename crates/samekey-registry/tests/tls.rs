//! TLS without a proxy (`--tls-cert`, `--tls-key`): certificates made here (rcgen), clients
//! that verify them (rustls), a renewal picked up on SIGHUP and on a change of the files
//! with no restart, a renewal under load with nothing lost (the history checker), and bad
//! files refused at start with a message naming the flag.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use common::history::{check, History, Outcome};
use common::load::observe;
use common::{fresh_db, Backend, Server, TestDb};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::TlsConnector;

/// A certificate authority of the test and a server certificate it signed for localhost.
struct Authority {
    root: CertificateDer<'static>,
    cert_pem: String,
    key_pem: String,
}

fn authority(name: &str) -> Authority {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name.push(DnType::CommonName, name);
    let root = ca.self_signed(&ca_key).unwrap().der().clone();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    Authority {
        root,
        cert_pem: leaf.pem(),
        key_pem: key.serialize_pem(),
    }
}

/// Every certificate and key file is this long: PEM readers skip what follows the block,
/// so a renewal can leave both the length and (set back) the time of the files as they
/// were, which only SIGHUP then notices.
const PADDED: usize = 4096;

fn write_padded(path: &Path, pem: &str, modified: Option<SystemTime>) {
    assert!(pem.len() < PADDED);
    let mut text = pem.to_string();
    text.push_str(&"\n".repeat(PADDED - pem.len()));
    std::fs::write(path, text).unwrap();
    if let Some(t) = modified {
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
}

struct Files {
    _dir: tempfile::TempDir,
    cert: PathBuf,
    key: PathBuf,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        Files {
            cert: dir.path().join("cert.pem"),
            key: dir.path().join("key.pem"),
            _dir: dir,
        }
    }

    /// Installs `a`'s certificate and key, with this modified time when given.
    fn install(&self, a: &Authority, modified: Option<SystemTime>) {
        write_padded(&self.key, &a.key_pem, modified);
        write_padded(&self.cert, &a.cert_pem, modified);
    }
}

/// The registry over TLS on a port of its own, and that port.
fn start_tls(db: &TestDb, files: &Files) -> (Server, u16) {
    let (cert, key) = (files.cert.to_str().unwrap(), files.key.to_str().unwrap());
    let server = Server::start(db, &["--tls-cert", cert, "--tls-key", key]);
    let base = server.url("");
    assert!(base.starts_with("https://"), "{base}");
    let port = base.rsplit(':').next().unwrap().parse().unwrap();
    (server, port)
}

/// A client that trusts these roots only.
fn connector(roots: &[&CertificateDer<'static>]) -> TlsConnector {
    connector_for(roots, rustls::DEFAULT_VERSIONS)
}

/// A client of these protocol versions only.
fn connector_for(
    roots: &[&CertificateDer<'static>],
    versions: &[&'static rustls::SupportedProtocolVersion],
) -> TlsConnector {
    let mut store = rustls::RootCertStore::empty();
    for r in roots {
        store.add((*r).clone()).unwrap();
    }
    #[allow(deprecated)] // ring, as the server (see src/tls.rs)
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(versions)
        .unwrap()
        .with_root_certificates(store)
        .with_no_client_auth();
    TlsConnector::from(Arc::new(config))
}

/// One request on a new TLS connection: (status, body), or the error of the handshake
/// or the exchange.
async fn https(
    tls: &TlsConnector,
    port: u16,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<(u16, Vec<u8>), String> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let name = ServerName::try_from("localhost").unwrap();
    let mut s = tls
        .connect(name, tcp)
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    s.write_all(body).await.map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    // A peer that closes without close_notify still gave its whole answer (Content-Length).
    let _ = s.read_to_end(&mut answer).await;
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no answer head")?;
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    Ok((status, answer[split + 4..].to_vec()))
}

async fn healthy(tls: &TlsConnector, port: u16) -> Result<(), String> {
    let (status, _) = https(tls, port, "GET", "/healthz", b"").await?;
    (status == 200)
        .then_some(())
        .ok_or(format!("status {status}"))
}

/// Waits up to `limit` for the server to present `a`'s certificate to new connections.
async fn serves(a: &Authority, port: u16, limit: Duration) -> bool {
    let tls = connector(&[&a.root]);
    let until = std::time::Instant::now() + limit;
    while std::time::Instant::now() < until {
        if healthy(&tls, port).await.is_ok() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

fn sighup(server: &Server) {
    let status = Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn https_with_a_verified_certificate_renewed_without_a_restart() {
    let db = fresh_db(Backend::Sqlite).await;
    let files = Files::new();
    let (a, b, c) = (
        authority("samekey test A"),
        authority("samekey test B"),
        authority("samekey test C"),
    );
    let then = SystemTime::now() - Duration::from_secs(3600);
    files.install(&a, Some(then));
    let (mut server, port) = start_tls(&db, &files);

    // Verified against its authority; /healthz and /metrics on the one listener.
    healthy(&connector(&[&a.root]), port).await.unwrap();
    let (status, metrics) = https(&connector(&[&a.root]), port, "GET", "/metrics", b"")
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&metrics).contains("samekey_registry_"));
    // TLS 1.2 and 1.3 each (rustls has nothing older to offer).
    for version in [&rustls::version::TLS12, &rustls::version::TLS13] {
        healthy(&connector_for(&[&a.root], &[version]), port)
            .await
            .unwrap_or_else(|e| panic!("{version:?}: {e}"));
    }
    // A client that trusts another authority refuses the server.
    let refused = healthy(&connector(&[&b.root]), port).await.unwrap_err();
    assert!(
        refused.contains("handshake") && refused.contains("UnknownIssuer"),
        "{refused}"
    );
    // Plain HTTP to the TLS port gets no HTTP answer.
    let mut plain = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    std::io::Write::write_all(&mut plain, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut got = Vec::new();
    let _ = std::io::Read::read_to_end(&mut plain, &mut got);
    assert!(
        !got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );

    // B's files with A's length and time: the watcher sees nothing, SIGHUP reloads.
    files.install(&b, Some(then));
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        serves(&a, port, Duration::from_secs(1)).await,
        "reloaded without being asked"
    );
    sighup(&server);
    assert!(
        serves(&b, port, Duration::from_secs(3)).await,
        "SIGHUP did not reload"
    );

    // C's files, written as a renewal writes them: reloaded when they change.
    files.install(&c, None);
    assert!(
        serves(&c, port, Duration::from_secs(5)).await,
        "a change of the files was not reloaded"
    );

    // A broken renewal keeps the certificate in use.
    std::fs::write(&files.cert, "-----BEGIN CERTIFICATE-----\nnot base64\n").unwrap();
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        serves(&c, port, Duration::from_secs(1)).await,
        "a broken file replaced the certificate"
    );
    assert!(
        server.wait_for(Duration::ZERO).is_none(),
        "the server stopped on a broken renewal"
    );
}

/// Registrations on new TLS connections (a handshake each) while the certificate is
/// renewed every 300 ms: every one answered, every acknowledged revision stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_renewal_under_load_loses_nothing() {
    let db = fresh_db(Backend::Sqlite).await;
    let files = Files::new();
    let (a, b) = (authority("samekey load A"), authority("samekey load B"));
    files.install(&a, None);
    let (server, port) = start_tls(&db, &files);
    let tls = connector(&[&a.root, &b.root]);
    let history = Arc::new(History::default());
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let (tls, history, stop, sent) =
                (tls.clone(), history.clone(), stop.clone(), sent.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let n = sent.fetch_add(1, Ordering::Relaxed);
                    let data = format!("worker {w} registration {n}").into_bytes();
                    let outcome = match https(&tls, port, "POST", "/v1/revisions", &data).await {
                        Ok((status @ (200 | 201), body)) => {
                            let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
                            Outcome::Acked {
                                status,
                                key: v["key"].as_str().unwrap().to_string(),
                            }
                        }
                        Ok((status, body)) => {
                            Outcome::Failed(format!("{status} {}", String::from_utf8_lossy(&body)))
                        }
                        Err(e) => Outcome::Failed(format!("no answer: {e}")),
                    };
                    history.record(data, None, outcome);
                }
            })
        })
        .collect();
    let mut renewals = 0;
    for round in 0..12 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        files.install(if round % 2 == 0 { &b } else { &a }, None);
        renewals += 1;
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.await.unwrap();
    }
    drop(server);

    // Read back through a plain server on the same database.
    let plain = Server::start(&db, &[]);
    let (stored, all) = observe(&plain.url(""), &history, &db).await;
    let problems = check(&history.ops(), &stored, &all);
    let (acked, failed) = history.counts();
    eprintln!("TLS renewal under load: {renewals} renewals, {acked} acknowledged, {failed} failed, {} violations", problems.len());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(
        failed,
        0,
        "{:?}",
        history
            .ops()
            .iter()
            .filter(|o| matches!(o.outcome, Outcome::Failed(_)))
            .take(3)
            .collect::<Vec<_>>()
    );
    assert!(acked >= 50, "too little load to mean anything: {acked}");
}

#[test]
fn bad_files_are_refused_at_start_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let a = authority("samekey bad A");
    let other = authority("samekey bad B");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let (cert, key, other_key) = (
        write("cert.pem", &a.cert_pem),
        write("key.pem", &a.key_pem),
        write("other.pem", &other.key_pem),
    );
    let empty = write("empty.pem", "");
    let missing = dir.path().join("missing.pem").to_str().unwrap().to_string();
    for (args, says) in [
        (
            vec!["--tls-cert", &missing, "--tls-key", &key],
            "--tls-cert",
        ),
        (
            vec!["--tls-cert", &empty, "--tls-key", &key],
            "holds no PEM certificate",
        ),
        (vec!["--tls-cert", &cert, "--tls-key", &empty], "--tls-key"),
        (
            vec!["--tls-cert", &key, "--tls-key", &key],
            "holds no PEM certificate",
        ),
        (
            vec!["--tls-cert", &cert, "--tls-key", &other_key],
            "does not go with --tls-cert",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
            .args(["--database", "sqlite::memory:", "--listen", "127.0.0.1:0"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {says:?} not in {stderr}");
        assert!(
            out.stdout.is_empty(),
            "it listened: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // Each flag needs the other.
    for args in [["--tls-cert", &cert], ["--tls-key", &key]] {
        let out = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
            .args(["--database", "sqlite::memory:"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
