//! The samekey revision registry: an HTTP service that derives revision keys
//! `H(parent, H(data))` server side, so that registering the same data on the same parent
//! twice, concurrently or as a retry, creates one revision. `samekey serve` starts it.

// The one exception is src/store/blob.rs (SQLite incremental blob reads), allowed there.
#![deny(unsafe_code)]

// Layers, each importing only those below it (the README draws them):
// admin and this file (configuration, start-up) > api (routes, problems, registration)
// > http (the server loop) > metrics > store (databases, schemes, data stores).
pub mod admin;
pub mod api;
pub mod http;
pub mod maintenance;
pub mod metrics;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use samekey::{KeyRing, Scheme};
use tokio::net::TcpListener;

pub use admin::SchemesArgs;
pub use api::{router, AppState, RequestLimits};
pub use maintenance::RegistryArgs;
pub use store::{Db, Revision};

// Numeric and duration flags take values that start with '-', so that `-1` is judged by
// the flag's parser (and refused naming the flag) rather than read as an unknown flag.
/// `samekey serve` and `samekey-registry`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Where revisions live: sqlite:PATH (created if missing) or postgres://USER@HOST/DB.
    #[arg(
        long,
        env = "SAMEKEY_DATABASE_URL",
        default_value = "sqlite:samekey-registry.db"
    )]
    pub database: String,
    /// Where revision data lives: `database` (in the database's contents table) or
    /// s3://BUCKET/PREFIX (objects named by content hash, large uploads by their own name; endpoint, region and credentials
    /// from the standard AWS_* variables). Revisions and their keys stay in the database.
    #[arg(long, env = "SAMEKEY_DATA_STORE", default_value = "database")]
    pub data_store: String,
    /// With an object store: data of at most this many bytes stays in the database (a
    /// small registration then costs no object store round trips); 0 sends all of it to
    /// the object store.
    #[arg(long, allow_hyphen_values = true, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(0..=16 << 20))]
    pub inline_limit: u64,
    /// Address to listen on (port 0 picks a free port; the address is printed on stdout).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The scheme new revisions get (v1 = SHA-256, v2 = BLAKE3).
    #[arg(long, default_value = "v1")]
    pub scheme: Scheme,
    /// Older schemes whose revisions are still found, comma separated (e.g. --scheme v2 --accept v1).
    #[arg(long, value_delimiter = ',')]
    pub accept: Vec<Scheme>,
    /// Largest request body in bytes; larger ones get 413 (at once when declared).
    /// Default: 16 MiB with --data-store database (which stores at most 999,000,000
    /// bytes in one value: a larger limit is lowered to it), 5 GiB with an object store
    /// (raw bytes stream into it, up to S3's largest object, 5 TiB).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u64).range(1..=MAX_BODY))]
    pub body_limit: Option<u64>,
    /// Largest JSON body in bytes (JSON is read whole to canonicalize it). Default: the
    /// body limit with --data-store database, 16 MiB with an object store.
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub json_limit: Option<u64>,
    /// Tokens that may write and read, one per line. With it, every request but
    /// /healthz and /openapi.json needs `Authorization: Bearer <token>`.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// Tokens that may only read, one per line (needs --token-file).
    #[arg(long)]
    pub read_token_file: Option<PathBuf>,
    /// With --token-file, let reads through without a token.
    #[arg(long)]
    pub public_reads: bool,
    /// Serve with no tokens on an address other hosts can reach, where anyone may then
    /// read and write. Without a token file, only a loopback address is served otherwise.
    #[arg(long, conflicts_with = "token_file")]
    pub allow_anonymous: bool,
    /// An origin whose pages may call the registry from a browser (e.g.
    /// https://app.example.com); repeat for each. Exact origins only, no wildcard.
    #[arg(long = "cors-origin", value_name = "ORIGIN", value_parser = http::cors::parse_origin)]
    pub cors_origins: Vec<String>,
    /// Serve HTTPS with this PEM certificate chain (TLS 1.2 and 1.3; needs --tls-key).
    /// Reloaded on SIGHUP or when the file changes: a renewal needs no restart.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Client connections open at once; more wait to be accepted. Lowered to what the
    /// open-files limit allows.
    #[arg(long, allow_hyphen_values = true, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Database connections in the pool.
    #[arg(long, allow_hyphen_values = true, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub db_connections: u32,
    /// Time from a request head's first byte to its end, and a new connection's wait for
    /// its first byte (e.g. 10s, 500ms).
    #[arg(long, allow_hyphen_values = true, default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,

    /// Time a new connection may take to send its first byte (e.g. 5s); never longer than
    /// --header-timeout. Silent connections are also the first closed at the cap.
    #[arg(long, allow_hyphen_values = true, default_value = "5s", value_parser = parse_duration)]
    pub first_byte_timeout: Duration,

    /// Connections one client address may hold open at once; more are closed as they
    /// are accepted (default: no limit, as behind a proxy every client has its address).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections_per_ip: Option<u32>,
    /// Time a request body may take to arrive in all; slower ones get 408.
    #[arg(long, allow_hyphen_values = true, default_value = "60s", value_parser = parse_duration)]
    pub body_timeout: Duration,
    /// Time a kept-alive connection may wait for its next request.
    #[arg(long, allow_hyphen_values = true, default_value = "30s", value_parser = parse_duration)]
    pub idle_timeout: Duration,
    /// Time a write may wait for a client that does not read its answer.
    #[arg(long, allow_hyphen_values = true, default_value = "30s", value_parser = parse_duration)]
    pub send_timeout: Duration,
    /// After SIGTERM or Ctrl-C, time to finish the requests in flight before the
    /// connections still open are dropped and the process exits 0.
    #[arg(long, allow_hyphen_values = true, default_value = "10s", value_parser = parse_duration)]
    pub shutdown_timeout: Duration,

    /// Bytes per second a client must read while an answer waits for it, averaged over 10
    /// seconds; a slower one is cut (0: no minimum).
    #[arg(long, allow_hyphen_values = true, default_value_t = 32 * 1024)]
    pub min_send_rate: u64,
    /// Large bodies canonicalized and hashed at once (default: one less than the CPUs, at least 1).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub cpu_jobs: Option<u32>,
    /// Largest request head: header names and values added up, in bytes (431 above).
    #[arg(long, allow_hyphen_values = true, default_value_t = 16 * 1024, value_parser = clap::value_parser!(u32).range(1024..=1 << 20))]
    pub max_header_bytes: u32,
    /// Log lines as JSON objects (default) or as text.
    #[arg(long, value_enum, default_value = "json")]
    pub log_format: LogFormat,
}

/// The default body limit with the data in the database.
const DATABASE_BODY: u64 = 16 * 1024 * 1024;

/// The default body limit with an object store.
const OBJECT_BODY: u64 = 5 << 30;

/// The largest body limit: S3's largest object.
const MAX_BODY: u64 = 5 << 40;

/// The largest data the database stores as one value, with room for the rest of its row:
/// SQLite's longest string or blob is 1,000,000,000 bytes, PostgreSQL's `bytea` 1 GiB.
/// A larger body limit with `--data-store database` is lowered to it, so that a body the
/// database cannot hold gets 413 (with this limit), not a retryable 503 from the insert.
pub const DATABASE_MAX_BODY: u64 = 999_000_000;

/// Most header fields a request may have (431 above).
const MAX_HEADERS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Json,
    Text,
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// `500ms`, `10s`, `2m`: a positive whole number and its unit.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{text:?} has no unit: write e.g. 500ms, 10s or 2m"))?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} does not start with a whole number"))?;
    let d = match unit {
        "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        _ => return Err(format!("{text:?}: the unit must be ms, s or m")),
    };
    if d.is_zero() {
        return Err(format!("{text:?}: a time limit must be more than zero"));
    }
    Ok(d)
}

impl ServeArgs {
    /// The arguments of `samekey serve` with every default, on `database`.
    pub fn defaults(database: &str) -> ServeArgs {
        ServeArgs::from_flags(["--database", database])
    }

    /// The arguments these command-line flags give (for tests and embedding); exits
    /// with clap's message on a bad flag, as the command would.
    pub fn from_flags<'a>(flags: impl IntoIterator<Item = &'a str>) -> ServeArgs {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: ServeArgs,
        }
        Wrapper::parse_from(std::iter::once("samekey-registry").chain(flags)).args
    }

    /// (body limit, JSON limit) for this data store.
    pub fn body_limits(&self) -> (u64, u64) {
        let database = self.data_store == "database";
        let body = self
            .body_limit
            .unwrap_or(if database { DATABASE_BODY } else { OBJECT_BODY });
        let body = if database {
            body.min(DATABASE_MAX_BODY)
        } else {
            body
        };
        let json = self
            .json_limit
            .unwrap_or(if database { body } else { DATABASE_BODY });
        (body, json.min(body))
    }

    fn request_limits(&self) -> RequestLimits {
        let (body, json) = self.body_limits();
        RequestLimits {
            body_bytes: usize::try_from(body).unwrap_or(usize::MAX),
            json_bytes: usize::try_from(json).unwrap_or(usize::MAX),
            body_timeout: self.body_timeout,
            header_bytes: self.max_header_bytes as usize,
            headers: MAX_HEADERS,
        }
    }

    fn cpu_jobs(&self) -> usize {
        self.cpu_jobs.map_or_else(
            || {
                let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
                cpus.saturating_sub(1).max(1)
            },
            |n| n as usize,
        )
    }
}

/// Builds the state a server needs: the ring (whose primary must hash content), the
/// tokens, the database with its tables.
pub async fn state(args: &ServeArgs) -> Result<Arc<AppState>, BoxError> {
    let ring = KeyRing::new(args.scheme, &args.accept)?;
    // The core refuses a scheme without a content hash (v0): revisions need v1 or v2.
    samekey::content_hash(args.scheme, b"")?;
    let tokens = api::auth::Tokens::load(
        args.token_file.as_deref(),
        args.read_token_file.as_deref(),
        args.public_reads,
    )?;
    let objects = match args.data_store.as_str() {
        "database" => None,
        url => {
            let objects = store::objects::DataStore::open(url)?;
            objects.check().await?;
            Some(objects)
        }
    };
    let db = Db::connect(&args.database, args.db_connections).await?;
    if let Err(e) = db.require_writable(&args.database).await {
        db.close().await;
        return Err(e.into());
    }
    // A ring that could create a twin of what the database holds does not start.
    if let Err(e) = store::schemes::settle(&db, &ring, objects.as_ref()).await {
        db.close().await;
        return Err(e.into());
    }
    let metrics = Arc::new(metrics::Metrics::default());
    let registrar = api::register::Registrar::new(
        db,
        objects.map(|o| (o, args.inline_limit)),
        ring,
        metrics.clone(),
        args.cpu_jobs(),
    );
    Ok(Arc::new(AppState {
        registrar: Arc::new(registrar),
        tokens: Arc::new(tokens),
        cors: Arc::new(http::cors::Cors::new(&args.cors_origins)),
        metrics,
        limits: args.request_limits(),
    }))
}

/// Closed unless told otherwise (as Redis's protected mode): with no token file, an
/// address other hosts can reach is served only with --allow-anonymous. Loopback is
/// this machine's alone, so it needs neither.
pub fn check_exposure(args: &ServeArgs) -> Result<(), String> {
    if args.listen.ip().is_loopback() || args.token_file.is_some() || args.allow_anonymous {
        return Ok(());
    }
    Err(format!(
        "refusing to listen on {} with no --token-file: every host that reaches it could \
         read and write revisions. Give --token-file FILE (tokens that may write; add \
         --public-reads to let anyone read), or --allow-anonymous to serve it open on purpose",
        args.listen
    ))
}

/// Serves until SIGTERM or Ctrl-C, then stops accepting, finishes the requests in flight
/// within `--shutdown-timeout`, and returns.
pub async fn serve(args: ServeArgs) -> Result<(), BoxError> {
    init_logs(args.log_format);
    check_exposure(&args)?;
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(http::tls::Tls::load(cert, key)?),
        _ => None,
    };
    let state = state(&args).await?;
    let listener = TcpListener::bind(args.listen).await?;
    // The first line on stdout, for scripts and tests that started us on port 0.
    let scheme = if tls.is_some() { "https" } else { "http" };
    println!("listening on {scheme}://{}", listener.local_addr()?);
    let watch = tls.clone().map(http::tls::Tls::watch);
    run_tls(listener, state, &args, tls, shutdown_signal()).await;
    if let Some(watch) = watch {
        watch.abort();
    }
    Ok(())
}

/// Serves `state` on `listener` in plain HTTP until `signal` resolves, then shuts down as
/// `serve` does.
pub async fn run(
    listener: TcpListener,
    state: Arc<AppState>,
    args: &ServeArgs,
    signal: impl std::future::Future<Output = ()>,
) {
    run_tls(listener, state, args, None, signal).await
}

/// As [`run`], over TLS with `tls`'s certificate when given.
pub async fn run_tls(
    listener: TcpListener,
    state: Arc<AppState>,
    args: &ServeArgs,
    tls: Option<Arc<http::tls::Tls>>,
    signal: impl std::future::Future<Output = ()>,
) {
    // Descriptors besides client connections: the database pools, the listener, logs.
    let reserved = 2 * args.db_connections as usize + 32;
    let max_connections =
        http::connections_within_open_files(args.max_connections as usize, reserved);
    if max_connections < args.max_connections as usize {
        tracing::warn!(
            max_connections,
            wanted = args.max_connections,
            "the open-files limit allows fewer connections than --max-connections; raise it with ulimit -n"
        );
    }
    state.metrics.set_connection_limit(max_connections);
    let limits = http::Limits {
        header_timeout: args.header_timeout,
        idle_timeout: args.idle_timeout,
        send_timeout: args.send_timeout,
        min_send_rate: args.min_send_rate,
        first_byte_timeout: args.first_byte_timeout,
        max_connections_per_ip: args.max_connections_per_ip.map(|n| n as usize),
        max_connections,
        shutdown_timeout: args.shutdown_timeout,
        max_head_bytes: 4 * args.max_header_bytes as usize,
        max_headers: 2 * MAX_HEADERS,
    };
    tracing::info!(addr = ?listener.local_addr().ok(), database = state.registrar.db.backend(),
        primary = %args.scheme, tokens = state.tokens.is_enabled(), tls = tls.is_some(),
        max_connections, "samekey registry started");
    if args.data_store == "database" && args.body_limit.is_some_and(|b| b > DATABASE_MAX_BODY) {
        tracing::warn!(limit = DATABASE_MAX_BODY,
            "--body-limit is more than the database stores in one value: bodies over {DATABASE_MAX_BODY} bytes get 413; keep larger data in an object store (--data-store s3://BUCKET/PREFIX)");
    }
    if args.allow_anonymous {
        tracing::warn!(addr = ?listener.local_addr().ok(),
            "--allow-anonymous: no tokens, so anyone who reaches this address may read and write revisions");
    }
    let app = router(state.clone());
    let deadline = http::run(listener, app, limits, tls, state.metrics.clone(), signal).await;
    // Registrations whose body had arrived finish too (their clients may have left), but
    // not past the deadline: an unfinished one is rolled back and was never acknowledged.
    match tokio::time::timeout_at(deadline, state.registrar.finished()).await {
        Ok(()) => state.registrar.db.close().await,
        Err(_) => tracing::warn!("shutdown deadline reached with registrations unfinished"),
    }
    tracing::info!("samekey registry stopped");
}

fn init_logs(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // try_init: a second server in one process (tests, benchmarks) keeps the first subscriber.
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {},
                    _ = term.recv() => {},
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "no SIGTERM handler; stopping on Ctrl-C only");
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_need_a_unit_and_a_positive_value() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        for bad in ["10", "0s", "s", "-1s", "1.5s", "10h", ""] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_body_limit_past_what_the_database_stores_is_lowered_to_it() {
        let limits = |flags: &[&str]| {
            ServeArgs::from_flags(
                ["--database", "sqlite:x.db"]
                    .into_iter()
                    .chain(flags.iter().copied()),
            )
            .body_limits()
        };
        assert_eq!(limits(&[]), (16 << 20, 16 << 20));
        assert_eq!(
            limits(&["--body-limit", "2000000000"]),
            (DATABASE_MAX_BODY, DATABASE_MAX_BODY)
        );
        let s3 = ["--data-store", "s3://b/p", "--body-limit", "2000000000"];
        assert_eq!(limits(&s3), (2_000_000_000, 16 << 20));
    }

    #[test]
    fn the_defaults_parse() {
        let args = ServeArgs::defaults("sqlite:x.db");
        assert_eq!(args.max_connections, 4096);
        assert_eq!(args.header_timeout, Duration::from_secs(10));
        assert!(args.cpu_jobs() >= 1);
    }
}
