//! `just bench-registry`: registrations per second and p50/p99 latency at concurrency 1
//! and 32, on SQLite and PostgreSQL, next to a baseline that inserts the same rows with
//! the same durability settings directly through SQL. The two alternate in rounds within
//! one run, so that a noisy neighbour or a slow disk moment falls on both. A third side,
//! a registry whose ring has two schemes (`--scheme v1 --accept v2`, the expand step: each
//! revision keyed and recorded under both), alternates with them and is compared with the
//! one-scheme registry. Prints a table.
//!
//! The server runs in this process through the real server loop (`samekey_registry::run`);
//! the load comes from reqwest over loopback HTTP/1.1 keep-alive connections, one per
//! concurrent client. PostgreSQL is measured when SAMEKEY_BENCH_POSTGRES names a server
//! this may create databases on (the just recipe starts one).

use std::future::Future;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use samekey::{content_hash, derive_revision, Scheme};
use samekey_registry::{Db, ServeArgs};
use sqlx::Executor;

const ROUNDS: usize = 5;
const PER_ROUND: usize = 400;
fn payload(run: &str, i: usize) -> String {
    format!(
        r#"{{"run":"{run}","item":{i},"text":"a small document of about one hundred bytes, as a registry mostly sees"}}"#
    )
}

struct Stats {
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
}

fn stats(mut latencies: Vec<Duration>, wall: Duration) -> Stats {
    latencies.sort();
    let at = |q: f64| {
        latencies[((latencies.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1e3
    };
    Stats {
        per_second: latencies.len() as f64 / wall.as_secs_f64(),
        p50_ms: at(0.50),
        p99_ms: at(0.99),
    }
}

/// Runs `op(i)` for every i of `range` from `concurrency` workers: the latency of each,
/// and the time the whole range took.
async fn load(concurrency: usize, range: Range<usize>, op: RoundOp) -> (Vec<Duration>, Duration) {
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(range.start));
    let started = Instant::now();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (op, next, end) = (op.clone(), next.clone(), range.end);
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= end {
                        return latencies;
                    }
                    let t = Instant::now();
                    op(i).await;
                    latencies.push(t.elapsed());
                }
            })
        })
        .collect();
    let mut all = Vec::with_capacity(range.len());
    for w in workers {
        all.extend(w.await.unwrap());
    }
    (all, started.elapsed())
}

/// Latencies and busy time summed over a side's rounds.
#[derive(Default)]
struct Side {
    latencies: Vec<Duration>,
    busy: Duration,
}

impl Side {
    fn add(&mut self, (latencies, took): (Vec<Duration>, Duration)) {
        self.latencies.extend(latencies);
        self.busy += took;
    }

    fn stats(self) -> Stats {
        stats(self.latencies, self.busy)
    }
}

async fn fresh_url(
    backend: &str,
    admin: Option<&str>,
    name: &str,
    dir: &std::path::Path,
) -> String {
    match backend {
        "sqlite" => format!("sqlite:{}", dir.join(format!("{name}.db")).display()),
        _ => {
            let admin = admin.unwrap();
            let pool = sqlx::PgPool::connect(admin).await.unwrap();
            pool.execute(format!("DROP DATABASE IF EXISTS {name}").as_str())
                .await
                .unwrap();
            pool.execute(format!("CREATE DATABASE {name}").as_str())
                .await
                .unwrap();
            pool.close().await;
            format!("{}/{name}", admin.rsplit_once('/').unwrap().0)
        }
    }
}

/// One registration of row `i`, by HTTP or by SQL.
type RoundOp = Arc<dyn Fn(usize) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The registry on `url`, serving until `stop` is sent; what a round posts.
async fn registry(
    url: String,
    run: &'static str,
    accept: &[Scheme],
) -> (
    RoundOp,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let mut args = ServeArgs::defaults(&url);
    args.db_connections = 32;
    args.accept = accept.to_vec();
    let state = samekey_registry::state(&args).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1/revisions", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        samekey_registry::run(listener, state, &args, async {
            let _ = stopped.await;
        })
        .await
    });
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();
    let op = move |i: usize| -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let (client, url) = (client.clone(), url.clone());
        Box::pin(async move {
            let r = client
                .post(url)
                .header("content-type", "application/json")
                .body(payload(run, i))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 201);
            r.bytes().await.unwrap();
        })
    };
    (Arc::new(op) as RoundOp, stop, server)
}

/// The same two rows per registration, in one transaction, through the same pools (on
/// SQLite its one writer connection) and durability settings.
async fn direct_sql(url: String, run: &'static str) -> (RoundOp, Db) {
    let db = Db::connect(&url, 32).await.unwrap();
    let rows: Arc<Vec<(String, String, Vec<u8>)>> = Arc::new(
        (0..ROUNDS * PER_ROUND)
            .map(|i| {
                let data = samekey::canonicalize_json_text(&payload(run, i))
                    .unwrap()
                    .into_bytes();
                let hash = content_hash(Scheme::V1, &data).unwrap();
                let key = derive_revision(Scheme::V1, None, &hash, None).unwrap();
                (key.to_string(), hash.to_string(), data)
            })
            .collect(),
    );
    let db2 = db.clone();
    let op = move |i: usize| -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let (db, rows) = (db2.clone(), rows.clone());
        Box::pin(async move {
            let (key, hash, data) = &rows[i];
            macro_rules! insert {
                ($pool:expr) => {{
                    let mut tx = $pool.begin().await.unwrap();
                    sqlx::query("INSERT INTO contents (hash, media_type, data) VALUES ($1, $2, $3)")
                        .bind(hash).bind("application/json").bind(data).execute(&mut *tx).await.unwrap();
                    sqlx::query("INSERT INTO revisions (key, parent, scheme, content_hash, media_type, size, created_at_ms, key_v1) VALUES ($1, NULL, 'v1', $2, 'application/json', $3, $4, $1)")
                        .bind(key).bind(hash).bind(data.len() as i64).bind(0i64).execute(&mut *tx).await.unwrap();
                    tx.commit().await.unwrap();
                }};
            }
            match &db {
                Db::Sqlite(_, writes) => insert!(writes),
                Db::Postgres(pool) => insert!(pool),
            }
        })
    };
    (Arc::new(op) as RoundOp, db)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let admin = std::env::var("SAMEKEY_BENCH_POSTGRES").ok();
    let dir = tempfile::tempdir().unwrap();
    let mut backends = vec!["sqlite"];
    if admin.is_some() {
        backends.push("postgres");
    } else {
        eprintln!(
            "bench-registry: PostgreSQL not measured (set SAMEKEY_BENCH_POSTGRES to a server URL)"
        );
    }
    println!("{} registrations of ~110-byte JSON per cell in {ROUNDS} rounds alternating with the direct-SQL baseline;", ROUNDS * PER_ROUND);
    println!("SQLite WAL synchronous=FULL, PostgreSQL fsync=on synchronous_commit=on\n");
    println!("| database | concurrency | registry req/s | p50 ms | p99 ms | direct SQL rows/s | p50 ms | p99 ms | registry / SQL | ring v1+v2 req/s | p50 ms | p99 ms | v1+v2 / v1 |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    runtime.block_on(async {
        for backend in backends {
            for (n, concurrency) in [1usize, 32].into_iter().enumerate() {
                let (reg_run, two_run, sql_run) =
                    if n == 0 { ("r1", "t1", "s1") } else { ("r32", "t32", "s32") };
                let url = fresh_url(backend, admin.as_deref(), &format!("bench_reg_{n}"), dir.path()).await;
                let (post, stop, server) = registry(url, reg_run, &[]).await;
                // The expand step's ring: the same primary, every revision also keyed under v2.
                let url = fresh_url(backend, admin.as_deref(), &format!("bench_two_{n}"), dir.path()).await;
                let (post_two, stop_two, server_two) = registry(url, two_run, &[Scheme::V2]).await;
                let url = fresh_url(backend, admin.as_deref(), &format!("bench_sql_{n}"), dir.path()).await;
                let (insert, db) = direct_sql(url, sql_run).await;
                let (mut reg, mut two, mut sql) = (Side::default(), Side::default(), Side::default());
                for round in 0..ROUNDS {
                    let rows = round * PER_ROUND..(round + 1) * PER_ROUND;
                    reg.add(load(concurrency, rows.clone(), post.clone()).await);
                    two.add(load(concurrency, rows.clone(), post_two.clone()).await);
                    sql.add(load(concurrency, rows, insert.clone()).await);
                }
                let _ = stop_two.send(());
                server_two.await.unwrap();
                let _ = stop.send(());
                server.await.unwrap();
                db.close().await;
                let (reg, two, sql) = (reg.stats(), two.stats(), sql.stats());
                println!(
                    "| {backend} | {concurrency} | {:.0} | {:.2} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2}x | {:.0} | {:.2} | {:.2} | {:.2}x |",
                    reg.per_second, reg.p50_ms, reg.p99_ms, sql.per_second, sql.p50_ms, sql.p99_ms, reg.per_second / sql.per_second,
                    two.per_second, two.p50_ms, two.p99_ms, two.per_second / reg.per_second
                );
            }
        }
    });
}
