//! Servers as real processes (so that tests can kill -9 them and run two at once), on a
//! fresh SQLite file or a fresh PostgreSQL database each.

#![allow(dead_code)]

pub mod history;
pub mod load;
pub mod objects;
pub mod proxy;
pub mod seaweed;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use samekey_registry::Db;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The URL a registry started with its stdout piped says it listens on (its first line),
/// or None when it ended without one (it refused to start).
pub fn listening_on(child: &mut std::process::Child) -> Option<String> {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line.trim()
        .strip_prefix("listening on ")
        .map(str::to_string)
}

/// A database of its own for one test; the SQLite file lives as long as this value.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

pub async fn fresh_db(backend: Backend) -> TestDb {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite:{}", dir.path().join("registry.db").display());
            TestDb {
                url,
                _dir: Some(dir),
            }
        }
        Backend::Postgres => {
            let admin = std::env::var("SAMEKEY_TEST_POSTGRES").expect(
                "SAMEKEY_TEST_POSTGRES must name a PostgreSQL server these tests may create databases on \
                 (`just test-registry` starts one with scripts/postgres.sh)",
            );
            let name = format!(
                "t{}_{}_{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::SeqCst),
                nanos()
            );
            let pool = sqlx::PgPool::connect(&admin).await.unwrap();
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
            let base = admin.rsplit_once('/').unwrap().0;
            TestDb {
                url: format!("{base}/{name}"),
                _dir: None,
            }
        }
    }
}

fn nanos() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
}

impl TestDb {
    /// A database at `url` that something else made and cleans up.
    pub fn at(url: String) -> TestDb {
        TestDb { url, _dir: None }
    }

    pub async fn open(&self) -> Db {
        Db::connect(&self.url, 2).await.unwrap()
    }

    /// (revisions, contents)
    pub async fn counts(&self) -> (i64, i64) {
        let db = self.open().await;
        let counts = db.counts().await.unwrap();
        db.close().await;
        counts
    }
}

pub struct Server {
    child: Child,
    pub base: String,
}

impl Server {
    pub fn start(db: &TestDb, extra: &[&str]) -> Server {
        Server::start_with_env(db, extra, &[])
    }

    /// As [`Server::start`], with these environment variables set for the process.
    pub fn start_with_env(db: &TestDb, extra: &[&str], env: &[(&str, &str)]) -> Server {
        Server::start_program(
            Command::new(env!("CARGO_BIN_EXE_samekey-registry")),
            db,
            extra,
            env,
        )
    }

    /// As [`Server::start_with_env`], running `program` (another build's registry, say
    /// `samekey serve` of a previous release).
    pub fn start_program(
        mut program: Command,
        db: &TestDb,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Server {
        let mut child = program
            .args([
                "--database",
                &db.url,
                "--listen",
                "127.0.0.1:0",
                "--log-format",
                "text",
            ])
            .args(extra)
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let base = listening_on(&mut child).unwrap_or_else(|| panic!("the server did not start"));
        Server { child, base }
    }

    /// What the server printed on stderr when it refused to start on `db` with `extra`
    /// (it must exit unsuccessfully).
    pub fn refused(db: &TestDb, extra: &[&str]) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
            .args(["--database", &db.url, "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "the server started: {stderr}");
        stderr
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn addr(&self) -> String {
        self.base.trim_start_matches("http://").to_string()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to finish anything.
    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn wait(mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    /// The exit status if the process ends within `limit`.
    pub fn wait_for(&mut self, limit: std::time::Duration) -> Option<std::process::ExitStatus> {
        let until = std::time::Instant::now() + limit;
        while std::time::Instant::now() < until {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .build()
        .unwrap()
}

/// POSTs `body` with this content type to `url`; the response.
pub async fn post(
    client: &reqwest::Client,
    url: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    client
        .post(url)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

/// The text of `GET path`.
pub async fn get_text(client: &reqwest::Client, server: &Server, path: &str) -> String {
    client
        .get(server.url(path))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

pub async fn post_json(
    client: &reqwest::Client,
    server: &Server,
    parent: Option<&str>,
    body: &str,
) -> (u16, serde_json::Value) {
    let mut url = server.url("/v1/revisions");
    if let Some(p) = parent {
        url = format!("{url}?parent={p}");
    }
    let response = post(client, &url, "application/json", body.to_string()).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// The same JSON body posted to every URL of `urls` at once; each answer's status and bytes.
pub async fn post_all(
    client: &reqwest::Client,
    urls: Vec<String>,
    body: &'static str,
) -> Vec<(u16, axum::body::Bytes)> {
    let tasks: Vec<_> = urls
        .into_iter()
        .map(|url| {
            let client = client.clone();
            tokio::spawn(async move {
                let r = post(&client, &url, "application/json", body).await;
                (r.status().as_u16(), r.bytes().await.unwrap())
            })
        })
        .collect();
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap());
    }
    answers
}

pub async fn get_json(client: &reqwest::Client, server: &Server, path: &str) -> serde_json::Value {
    client
        .get(server.url(path))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Both backends run every scenario.
#[macro_export]
macro_rules! on_both_backends {
    ($($scenario:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $scenario() { super::$scenario($crate::common::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $scenario() { super::$scenario($crate::common::Backend::Postgres).await })*
        }
    };
}

/// The router of a server on `db` with these command-line flags, for in-process requests
/// (`Router::oneshot`): no sockets, no process.
pub async fn app(db: &TestDb, flags: &[&str]) -> axum::Router {
    let flags = ["--database", db.url.as_str()]
        .into_iter()
        .chain(flags.iter().copied());
    let args = samekey_registry::ServeArgs::from_flags(flags);
    samekey_registry::router(samekey_registry::state(&args).await.unwrap())
}

/// One in-process request: status, headers, body.
pub async fn call(
    app: &axum::Router,
    request: axum::http::Request<axum::body::Body>,
) -> (u16, axum::http::HeaderMap, axum::body::Bytes) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, body)
}

/// A request with these headers and body, and `Host: registry.test` unless they name
/// a host (as every HTTP/1.1 client sends one).
pub fn request(
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: impl Into<axum::body::Body>,
) -> axum::http::Request<axum::body::Body> {
    let mut r = axum::http::Request::builder().method(method).uri(uri);
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        r = r.header("host", "registry.test");
    }
    for (name, value) in headers {
        r = r.header(*name, *value);
    }
    r.body(body.into()).unwrap()
}

/// Checks that an answer is an RFC 9457 problem whose `status` is the HTTP status and
/// which carries every member; returns (status, code).
pub fn problem(status: u16, headers: &axum::http::HeaderMap, body: &[u8]) -> (u16, String) {
    assert_eq!(
        headers
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string()),
        Some("application/problem+json".to_string()),
        "status {status}: {}",
        String::from_utf8_lossy(body)
    );
    let p: serde_json::Value = serde_json::from_slice(body).unwrap();
    assert_eq!(p["status"], status, "{p}");
    for member in ["type", "title", "detail", "code"] {
        assert!(
            p[member].as_str().is_some_and(|s| !s.is_empty()),
            "{member} in {p}"
        );
    }
    let code = p["code"].as_str().unwrap().to_string();
    assert_eq!(
        p["type"].as_str().unwrap(),
        format!("https://samekey.github.io/samekey/reference/errors.html#{code}"),
        "{p}"
    );
    (status, code)
}

/// (status, code) of a problem answered over HTTP.
pub async fn problem_of(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.bytes().await.unwrap();
    let mut h = axum::http::HeaderMap::new();
    for (name, value) in headers.iter() {
        h.insert(
            name.as_str().parse::<axum::http::HeaderName>().unwrap(),
            value.to_str().unwrap().parse().unwrap(),
        );
    }
    problem(status, &h, &body)
}

/// A process's resident memory now and at its peak, in bytes (Linux /proc).
pub fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.trim().strip_suffix(" kB"))
            .map(|kb| kb.trim().parse::<u64>().unwrap() * 1024)
            .unwrap_or_else(|| panic!("no {name} in /proc/{pid}/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A token file holding these lines.
pub fn token_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Lets this test process open as many sockets as the hard limit allows (the server's
/// own start-up step); the limit it then has.
pub fn raise_open_files() -> usize {
    samekey_registry::http::connections_within_open_files(usize::MAX, 0)
}
