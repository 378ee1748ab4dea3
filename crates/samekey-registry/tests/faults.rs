//! The registry under storage, process and clock faults. Each run records every
//! registration and what its client was told (common::history), then checks that every
//! acknowledged revision is readable with its bytes and parent, before and after a
//! restart, and that one (parent, data) is one revision.
//!
//! These mount filesystems and start database servers, so they need root: they are
//! ignored by a plain `cargo test` and run by `just test-registry-faults` (in `just test`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use common::history::{check, History, Outcome};
use common::load::{observe, register_during, register_until, Shape};
use common::proxy::Proxy;
use common::{Server, TestDb};

fn sh(program: &str, args: &[&str]) {
    let status = Command::new(program).args(args).status().unwrap();
    assert!(status.success(), "{program} {args:?}: {status}");
}

/// A tmpfs of `size` (mount's units: 6m) at a fresh directory, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        sh(
            "mount",
            &[
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size}"),
                "tmpfs",
                path(dir.path()),
            ],
        );
        Tmpfs { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn resize(&self, size: &str) {
        sh(
            "mount",
            &["-o", &format!("remount,size={size}"), path(self.path())],
        );
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.path()).status();
    }
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The LD_PRELOAD shim of tests/faults/shim.c, built once per test binary run.
fn shim() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("samekey-fault-shim.so");
            let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/faults/shim.c");
            sh(
                "cc",
                &[
                    "-shared",
                    "-fPIC",
                    "-O2",
                    "-Wall",
                    "-Werror",
                    "-o",
                    path(&out),
                    path(&source),
                    "-ldl",
                ],
            );
            out
        })
        .clone()
}

/// Fails the run if the history and the registry at `server` disagree; prints the counts.
async fn assert_history(label: &str, server: &Server, history: &History, db: &TestDb) {
    let (stored, all) = observe(&server.base, history, db).await;
    let problems = check(&history.ops(), &stored, &all);
    let (acked, failed) = history.counts();
    eprintln!(
        "{label}: {acked} acknowledged, {failed} failed, {} revisions stored, {} violations",
        all.len(),
        problems.len()
    );
    assert!(problems.is_empty(), "{label}: {problems:#?}");
}

/// Every failure of `history` was said as a 503 with `database_unavailable` (or the
/// connection went away): never a 500, never a 201 for what was not stored.
fn failures_are_unavailable(history: &History) -> usize {
    let mut n = 0;
    for op in history.ops() {
        if let Outcome::Failed(why) = &op.outcome {
            assert!(
                why == "503 database_unavailable" || why.starts_with("no answer"),
                "a failed registration was answered {why:?}"
            );
            n += 1;
        }
    }
    n
}

async fn integrity(db: &TestDb) {
    let d = db.open().await;
    let problems = d.integrity_problems().await.unwrap();
    d.close().await;
    assert!(problems.is_empty(), "integrity: {problems:?}");
}

/// Every failed request is logged as an error; the history holds what matters here.
const QUIET: (&str, &str) = ("RUST_LOG", "off");

const SHAPE: Shape = Shape {
    workers: 4,
    body: 48 * 1024,
    repeat_every: 8,
    child_every: 4,
};

/// With the fault gone, 40 more registrations all succeed, on the same server process.
async fn recovers(server: &Server, history: &Arc<History>, shape: Shape, seed: u64, what: &str) {
    let before = history.counts();
    run(&server.base, history, shape, 40, seed).await;
    assert_eq!(
        history.counts().1,
        before.1,
        "{what}: {:?}",
        history.ops().last()
    );
}

/// kill -9, a restart on the same database, then the history check and the database's
/// integrity check.
async fn restarted_after_kill_9(label: &str, server: Server, history: &History, db: &TestDb) {
    server.kill9();
    let server = Server::start(db, &[]);
    assert_history(label, &server, history, db).await;
    integrity(db).await;
}

async fn run(base: &str, history: &Arc<History>, shape: Shape, ops: u64, seed: u64) {
    register_until(
        base,
        history,
        shape,
        ops,
        &Arc::new(AtomicBool::new(false)),
        seed,
    )
    .await;
}

/// SQLite on a 6 MiB filesystem: registrations fill it; once it is full each one is a
/// 503 and nothing is acknowledged that is not stored. Grown again, with the same server
/// process, writes succeed again by themselves. After kill -9 and a restart every
/// acknowledged revision is still there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn sqlite_disk_full() {
    let fs = Tmpfs::mount("6m");
    let db = TestDb::at(format!("sqlite:{}", fs.path().join("r.db").display()));
    let server = Server::start_with_env(&db, &[], &[QUIET]);
    let history = Arc::new(History::default());
    run(&server.base, &history, SHAPE, 300, 1).await;
    assert_history("sqlite disk full", &server, &history, &db).await;
    let (acked, failed) = history.counts();
    assert!(
        acked >= 20 && failed >= 100,
        "the disk did not fill: {acked} acknowledged, {failed} failed"
    );
    failures_are_unavailable(&history);

    fs.resize("64m");
    recovers(
        &server,
        &history,
        SHAPE,
        2,
        "with space again, a registration still failed",
    )
    .await;
    assert_history("sqlite disk full, space back", &server, &history, &db).await;

    restarted_after_kill_9("sqlite disk full, after kill -9", server, &history, &db).await;
}

/// SQLite whose writes and syncs fail with EIO for short spells: each registration in a
/// spell fails with a 503, none is acknowledged unless stored; between spells writes
/// succeed; after kill -9 and a restart without faults, every acknowledged one is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn sqlite_io_errors() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let control = dir.path().join("data.eio");
    let db = TestDb::at(format!("sqlite:{}", data.join("r.db").display()));
    let shim = shim();
    let server = Server::start_with_env(
        &db,
        &[],
        &[
            ("LD_PRELOAD", path(&shim)),
            ("SAMEKEY_FAULT_DIR", path(&data)),
        ],
    );
    let history = Arc::new(History::default());
    let shape = Shape {
        body: 8 * 1024,
        ..SHAPE
    };
    register_during(&server.base, &history, shape, 3, async {
        for _ in 0..5 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            std::fs::write(&control, b"").unwrap();
            tokio::time::sleep(Duration::from_millis(200)).await;
            std::fs::remove_file(&control).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    })
    .await;
    assert_history("sqlite EIO", &server, &history, &db).await;
    let (acked, failed) = history.counts();
    assert!(
        acked >= 50 && failed >= 5,
        "faults did not bite: {acked} acknowledged, {failed} failed"
    );
    failures_are_unavailable(&history);

    recovers(
        &server,
        &history,
        shape,
        4,
        "after the faults, a registration still failed",
    )
    .await;

    restarted_after_kill_9("sqlite EIO, after kill -9", server, &history, &db).await;
}

/// The wall clock jumps back an hour, then forward a day, under writers: registration
/// does not depend on it (keys are content's; created_at is only recorded).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn clock_jumps() {
    let dir = tempfile::tempdir().unwrap();
    let clock = dir.path().join("clock");
    std::fs::write(&clock, b"0").unwrap();
    let db = TestDb::at(format!("sqlite:{}", dir.path().join("r.db").display()));
    let shim = shim();
    let server = Server::start_with_env(
        &db,
        &[],
        &[
            ("LD_PRELOAD", path(&shim)),
            ("SAMEKEY_FAULT_CLOCK", path(&clock)),
        ],
    );
    let history = Arc::new(History::default());
    let shape = Shape {
        body: 1024,
        ..SHAPE
    };
    register_during(&server.base, &history, shape, 5, async {
        for offset in ["-3600", "86400", "0"] {
            tokio::time::sleep(Duration::from_millis(300)).await;
            std::fs::write(&clock, offset).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    })
    .await;
    let (acked, failed) = history.counts();
    assert_eq!(
        failed,
        0,
        "a clock jump failed a registration: {:?}",
        history.ops()
    );
    assert!(acked >= 50, "only {acked} registrations");
    assert_history("clock jumps", &server, &history, &db).await;
}

/// kill -9 while writers commit, twice, the history checked after each restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn sqlite_kill_9_mid_commit() {
    let dir = tempfile::tempdir().unwrap();
    let db = TestDb::at(format!("sqlite:{}", dir.path().join("r.db").display()));
    let history = Arc::new(History::default());
    let shape = Shape {
        body: 16 * 1024,
        workers: 8,
        ..SHAPE
    };
    for round in 0..2u64 {
        let server = Server::start(&db, &[]);
        let base = server.base.clone();
        register_during(&base, &history, shape, 6 + round, async {
            tokio::time::sleep(Duration::from_millis(700)).await;
            server.kill9();
        })
        .await;
        let server = Server::start(&db, &[]);
        assert_history(&format!("kill -9 round {round}"), &server, &history, &db).await;
    }
    integrity(&db).await;
}

/// A PostgreSQL server of this test's own (scripts/postgres.sh on a free port, its data
/// under `dir`), so that it can be crashed, restarted and starved of disk.
struct Postgres {
    dir: PathBuf,
    port: u16,
    url: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn pg_bin() -> PathBuf {
    let mut majors: Vec<u32> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL from Debian's packages (scripts/setup-system.sh)")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    majors.sort();
    PathBuf::from(format!(
        "/usr/lib/postgresql/{}/bin",
        majors.last().unwrap()
    ))
}

impl Postgres {
    fn start(dir: &Path) -> Postgres {
        let port = free_port();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/postgres.sh");
        let out = Command::new(script)
            .env("PGPORT", port.to_string())
            .env("SAMEKEY_PG_DIR", dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "postgres.sh: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Postgres {
            dir: dir.to_path_buf(),
            port,
            url: String::from_utf8(out.stdout).unwrap().trim().to_string(),
        }
    }

    /// pg_ctl as the server's user: `-m immediate stop` is a crash (no checkpoint, WAL
    /// recovery at the next start).
    fn ctl(&self, args: &[&str]) -> bool {
        let data = self.dir.join("data");
        let log = self.dir.join("log");
        let opts = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {}",
            self.port,
            self.dir.display()
        );
        Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(pg_bin().join("pg_ctl"))
            .args([
                "-D",
                path(&data),
                "-l",
                path(&log),
                "-w",
                "-t",
                "60",
                "-o",
                &opts,
            ])
            .args(args)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap()
            .success()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.ctl(&["-m", "immediate", "stop"]);
    }
}

/// Writers register while their PostgreSQL crashes (`-m immediate`) and restarts, twice:
/// requests in the gap are 503s, the registry reconnects by itself, and every
/// acknowledged revision survives WAL recovery.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn postgres_crash_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let pg = Postgres::start(&dir.path().join("pg"));
    let db = TestDb::at(pg.url.clone());
    let server = Server::start_with_env(&db, &[], &[QUIET]);
    let history = Arc::new(History::default());
    let shape = Shape {
        body: 16 * 1024,
        workers: 8,
        ..SHAPE
    };
    register_during(&server.base, &history, shape, 7, async {
        for mode in ["immediate", "fast"] {
            tokio::time::sleep(Duration::from_millis(600)).await;
            assert!(pg.ctl(&["-m", mode, "stop"]), "pg_ctl stop -m {mode}");
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(pg.ctl(&["start"]), "pg_ctl start");
        }
        tokio::time::sleep(Duration::from_millis(600)).await;
    })
    .await;
    assert_history("postgres crash and restart", &server, &history, &db).await;
    let (acked, failed) = history.counts();
    // Requests in the gap wait for a connection (the pool's acquire timeout) or fail
    // with 503; either is right, so only progress is required.
    assert!(acked >= 50, "{acked} acknowledged, {failed} failed");
    failures_are_unavailable(&history);

    recovers(
        &server,
        &history,
        shape,
        8,
        "after the restarts, a registration still failed",
    )
    .await;
    integrity(&db).await;
}

/// A TCP proxy between the registry and PostgreSQL that cuts every connection through
/// it every 150 ms under writers: a registration whose connection is cut is a 503 (it
/// may still have committed), never an acknowledgement of what was not stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn postgres_connections_cut() {
    let dir = tempfile::tempdir().unwrap();
    let pg = Postgres::start(&dir.path().join("pg"));
    let proxy = Proxy::start(pg.port).await;
    let db = TestDb::at(
        pg.url
            .replace(&format!(":{}/", pg.port), &format!(":{}/", proxy.port)),
    );
    let server = Server::start_with_env(&db, &[], &[QUIET]);
    let history = Arc::new(History::default());
    let shape = Shape {
        body: 16 * 1024,
        workers: 8,
        ..SHAPE
    };
    let cut = register_during(&server.base, &history, shape, 9, async {
        let mut cut = 0;
        for _ in 0..12 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            cut += proxy.cut();
        }
        cut
    })
    .await;
    assert!(cut >= 12, "only {cut} connections were cut");
    assert_history("postgres connections cut", &server, &history, &db).await;
    let (acked, failed) = history.counts();
    assert!(acked >= 50, "{acked} acknowledged, {failed} failed");
    failures_are_unavailable(&history);

    recovers(
        &server,
        &history,
        shape,
        10,
        "with the proxy quiet, a registration still failed",
    )
    .await;
}

/// PostgreSQL with its data on a filesystem that fills: registrations fail with 503 (the
/// server may even stop, if it cannot write its WAL), none is acknowledged unless stored;
/// with space again and the server started, every acknowledged revision is there and
/// writes succeed.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn postgres_disk_full() {
    let fs = Tmpfs::mount("160m");
    let pg = Postgres::start(&fs.path().join("pg"));
    let db = TestDb::at(pg.url.clone());
    let server = Server::start_with_env(&db, &[], &[QUIET]);
    // Leave about 6 MiB free: less than a WAL segment (16 MiB).
    let free = {
        let out = Command::new("df")
            .args(["--output=avail", "-B1", path(fs.path())])
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .trim()
            .parse::<u64>()
            .unwrap()
    };
    let filler = fs.path().join("filler");
    std::fs::write(&filler, vec![0u8; (free - 6 * 1024 * 1024) as usize]).unwrap();
    let history = Arc::new(History::default());
    run(&server.base, &history, SHAPE, 300, 11).await;
    let (acked, failed) = history.counts();
    assert!(
        acked >= 20 && failed >= 50,
        "the disk did not fill: {acked} acknowledged, {failed} failed"
    );
    failures_are_unavailable(&history);

    std::fs::remove_file(&filler).unwrap();
    // A server that could not write its WAL has stopped; an operator starts it again.
    let up = Command::new(pg_bin().join("pg_isready"))
        .args(["-q", "-h", "127.0.0.1", "-p", &pg.port.to_string()])
        .status()
        .unwrap()
        .success();
    eprintln!(
        "postgres disk full: the server {} the full disk",
        if up { "survived" } else { "stopped on" }
    );
    if !up {
        assert!(pg.ctl(&["start"]), "pg_ctl start after the disk full");
    }
    recovers(
        &server,
        &history,
        SHAPE,
        12,
        "with space again, a registration still failed",
    )
    .await;
    assert_history("postgres disk full", &server, &history, &db).await;
    integrity(&db).await;
}

/// Starts the registry on `url` expecting it to refuse: its exit status and stderr.
fn refused_at_start(url: &str) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
        .args(["--database", url, "--listen", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > until {
            child.kill().unwrap();
            panic!("the registry started on {url}, which it cannot write");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    (status, stderr)
}

/// A database the registry cannot write stops it at start, with a message that says so:
/// SQLite on a full filesystem, on a read-only one, and a read-only PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs root (mounts a tmpfs or runs a PostgreSQL server): just test-registry-faults"]
async fn unwritable_databases_are_refused_at_start() {
    let fs = Tmpfs::mount("6m");
    let file = fs.path().join("r.db");
    let url = format!("sqlite:{}", file.display());
    Server::start(&TestDb::at(url.clone()), &[]).kill9();
    // Fill what is left, to the last byte.
    let mut filler = std::fs::File::create(fs.path().join("filler")).unwrap();
    let block = vec![0u8; 64 * 1024];
    while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    while std::io::Write::write_all(&mut filler, &block[..512]).is_ok() {}
    drop(filler);
    let (status, stderr) = refused_at_start(&url);
    assert_eq!(status.code(), Some(1), "{stderr}");
    let said = format!("the SQLite database {} cannot be written", file.display());
    assert!(
        stderr.contains(&said) && stderr.contains("full"),
        "full disk: {stderr}"
    );

    std::fs::remove_file(fs.path().join("filler")).unwrap();
    sh("mount", &["-o", "remount,ro", path(fs.path())]);
    let (status, stderr) = refused_at_start(&url);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&said), "read-only filesystem: {stderr}");
    sh("mount", &["-o", "remount,rw", path(fs.path())]);
    Server::start(&TestDb::at(url), &[]).kill9();

    let dir = tempfile::tempdir().unwrap();
    let pg = Postgres::start(&dir.path().join("pg"));
    let admin = sqlx::PgPool::connect(&pg.url).await.unwrap();
    sqlx::query("ALTER DATABASE samekey SET default_transaction_read_only = on")
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let (status, stderr) = refused_at_start(&pg.url);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the PostgreSQL database cannot be written")
            && stderr.contains("read-only"),
        "read-only PostgreSQL: {stderr}"
    );
}
