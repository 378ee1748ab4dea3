//! Opening a SQLite database: WAL mode, a writer pool of one and a pool of readers.

use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

/// How long a process waits for other processes' locks, at start and on every write.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The writer pool and the reader pool of the SQLite database at `url`, created if missing.
/// SQLite runs in WAL mode with `synchronous=FULL`: an acknowledged revision survives a
/// crash of the process or of the machine.
pub(crate) async fn open(
    url: &str,
    max_connections: u32,
) -> Result<(SqlitePool, SqlitePool), sqlx::Error> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(BUSY_TIMEOUT)
        .foreign_keys(true);
    // One writer connection: SQLite takes one writer at a time anyway, and queueing in the
    // pool is fair where 32 connections would sleep in SQLite's busy handler. Uniqueness
    // stays the database's (other processes still contend through busy_timeout).
    let writes = SqlitePoolOptions::new().max_connections(1);
    let writes = retry_busy(|| writes.clone().connect_with(options.clone())).await?;
    // Readers look up small rows and stream data in chunks: a page cache of 1 MiB each
    // (SQLite's default is 2 MiB) keeps the pool's memory to a MiB a connection.
    let options = options.pragma("cache_size", "-1024");
    let reads = SqlitePoolOptions::new().max_connections(max_connections);
    let reads = retry_busy(|| reads.clone().connect_with(options.clone())).await?;
    Ok((reads, writes))
}

/// `connect`, again while SQLite answers SQLITE_BUSY, for up to [`BUSY_TIMEOUT`]. Switching
/// a database to WAL takes an exclusive lock that SQLite's busy handler does not wait
/// for: two processes starting at once on a new database (or on one in rollback mode)
/// would otherwise see one of them fail with "database is locked".
async fn retry_busy<F, Fut>(mut connect: F) -> Result<SqlitePool, sqlx::Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<SqlitePool, sqlx::Error>>,
{
    let deadline = Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(5);
    loop {
        match connect().await {
            Err(e) if is_busy(&e) && Instant::now() + pause < deadline => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            result => return result,
        }
    }
}

/// SQLITE_BUSY or one of its extended codes (the low byte is the primary code).
fn is_busy(e: &sqlx::Error) -> bool {
    let code = match e {
        sqlx::Error::Database(e) => e.code(),
        _ => None,
    };
    code.and_then(|c| c.parse::<i32>().ok())
        .is_some_and(|c| c & 0xff == 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Several processes' worth of pools opening one new file at once: every one opens.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn pools_opening_one_new_database_at_once_all_open() {
        let dir = tempfile::tempdir().unwrap();
        for round in 0..20 {
            let url = format!("sqlite:{}/r{round}.db", dir.path().display());
            let mut opens = tokio::task::JoinSet::new();
            for _ in 0..6 {
                let url = url.clone();
                opens.spawn(async move { open(&url, 2).await });
            }
            while let Some(opened) = opens.join_next().await {
                let (reads, writes) = opened.unwrap().unwrap();
                reads.close().await;
                writes.close().await;
            }
        }
    }
}
