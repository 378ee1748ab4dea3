//! The samekey revision registry: an HTTP service that derives revision keys
//! `H(parent, H(data))` server side, so that registering the same data on the same parent
//! twice, concurrently or as a retry, creates one revision. `samekey serve` starts it.

#![forbid(unsafe_code)]

pub mod api;
mod auth;
pub mod db;
pub mod error;
pub mod register;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use samekey::{KeyRing, Scheme};
use tokio::net::TcpListener;

pub use api::{router, AppState};
pub use db::{Db, Revision};

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
    /// Address to listen on (port 0 picks a free port; the address is printed on stdout).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The scheme new revisions get (v1 = SHA-256, v2 = BLAKE3).
    #[arg(long, default_value = "v1")]
    pub scheme: Scheme,
    /// Older schemes whose revisions are still found, comma separated (e.g. --scheme v2 --accept v1).
    #[arg(long, value_delimiter = ',')]
    pub accept: Vec<Scheme>,
    /// Largest request body in bytes; larger ones get 413.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
    pub body_limit: usize,
    /// A file holding the bearer token that writes must present (reads stay open).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// Database connections in the pool.
    #[arg(long, default_value_t = 16)]
    pub max_connections: u32,
    /// Log lines as JSON objects (default) or as text.
    #[arg(long, value_enum, default_value = "json")]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Json,
    Text,
}

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Builds the state a server needs: the ring (whose primary must hash content), the
/// database with its tables, the token.
pub async fn state(args: &ServeArgs) -> Result<Arc<AppState>, BoxError> {
    let ring = KeyRing::new(args.scheme, &args.accept)?;
    // The core refuses a scheme without a content hash (v0): revisions need v1 or v2.
    samekey::content_hash(args.scheme, b"")?;
    let token = match &args.token_file {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --token-file {}: {e}", path.display()))?;
            let token = text.trim_end_matches(['\r', '\n']).to_string();
            if token.is_empty() {
                return Err(format!("--token-file {} is empty", path.display()).into());
            }
            Some(token)
        }
    };
    let db = Db::connect(&args.database, args.max_connections).await?;
    Ok(Arc::new(AppState { db, ring, token }))
}

/// Serves until SIGTERM or Ctrl-C, then stops accepting and finishes the requests in flight.
pub async fn serve(args: ServeArgs) -> Result<(), BoxError> {
    init_logs(args.log_format);
    let state = state(&args).await?;
    let listener = TcpListener::bind(args.listen).await?;
    let addr = listener.local_addr()?;
    // The first line on stdout, for scripts and tests that started us on port 0.
    println!("listening on http://{addr}");
    tracing::info!(%addr, database = state.db.backend(), primary = %args.scheme, "samekey registry started");
    let app = router(state.clone(), args.body_limit);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    state.db.close().await;
    tracing::info!("samekey registry stopped");
    Ok(())
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
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
    tracing::info!("shutting down: finishing requests in flight");
}
