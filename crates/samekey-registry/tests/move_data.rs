//! `samekey-registry move-data` (`samekey registry move-data`) on a registry whose data
//! is in its database, into a bucket of a SeaweedFS cluster, while a registry serves it
//! with `--data-store` and clients read and register: every read answers the bytes a
//! client registered, a kill -9 in the middle is carried on by the next run, and in the
//! end every content past the inline limit is one verified object, its database copy
//! dropped. The data is written by this build, and (ignored unless asked for) by the
//! previous release's binary (SAMEKEY_PREVIOUS_RELEASE, as tests/upgrade_release.rs).

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::objects::{data, payload, register, serve_with, store, PREFIX};
use common::seaweed::Cluster;
use common::{client, fresh_db, Backend, Server, TestDb};
use samekey_registry::store::gc::collect;
use samekey_registry::Db;

const BUCKET: &str = "moved";

/// Sizes in the database: within the inline limit (64 KiB), past it, and past one
/// multipart part (8 MiB).
const SIZES: [usize; 6] = [10, 64 << 10, (64 << 10) + 1, 300 << 10, 3 << 20, 9 << 20];

type Env = Vec<(&'static str, String)>;

/// Runs `move-data` on `database` with the cluster's AWS_* variables `env`; kills it
/// (SIGKILL) once it has moved `kill_after` contents, or lets it finish and returns its
/// standard output.
fn move_data(env: &Env, database: &str, kill_after: Option<usize>) -> Option<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .args(["move-data", "--database", database])
        .args(["--to", &format!("s3://{BUCKET}/{PREFIX}"), "--drain", "2s"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut moved = 0;
    for line in stderr.lines() {
        let line = line.unwrap();
        eprintln!("move-data: {line}");
        moved += usize::from(line.starts_with("moved "));
        if kill_after == Some(moved) {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "move-data failed: {out:?}");
    Some(String::from_utf8(out.stdout).unwrap())
}

/// Registers `SIZES` twice over (distinct payloads) on `writer`, a registry with its data
/// in its database; what clients were told: key -> bytes.
async fn written(writer: &Server) -> BTreeMap<String, Vec<u8>> {
    let c = client();
    let mut told = BTreeMap::new();
    for (i, n) in SIZES.iter().chain(SIZES.iter()).enumerate() {
        let bytes = payload(i as u64 + 1, *n);
        let (status, key) = register(&c, writer, bytes.clone()).await;
        assert!(status == 201 || status == 200, "{n} bytes: {status} {key}");
        told.insert(key, bytes);
    }
    told
}

/// Contents whose database copy is larger than the inline limit.
async fn database_copies(db: &TestDb) -> i64 {
    let sql = "SELECT count(*) FROM contents WHERE length(data) > 65536";
    let db = db.open().await;
    let n = match &db {
        Db::Sqlite(reads, _) => sqlx::query_scalar(sql).fetch_one(reads).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    };
    db.close().await;
    n.unwrap()
}

/// The move of `told`'s registry (in `db`), killed once and run again, with a registry
/// serving it with the store throughout, clients reading everything over and over and
/// registering more.
async fn moves_while_serving(db: TestDb, mut told: BTreeMap<String, Vec<u8>>) {
    let mut cluster = Cluster::start(2).await;
    cluster.bucket(BUCKET).await;
    let env = cluster.env();
    // The registry restarted with the store, before the move: it reads both places.
    let server = serve_with(&cluster, &db, BUCKET, None, &[]);
    let past_limit = told.values().filter(|b| b.len() > 64 << 10).count();
    assert!(database_copies(&db).await as usize == past_limit);
    let stop = Arc::new(AtomicBool::new(false));
    let clients = {
        let (told, stop, base) = (told.clone(), stop.clone(), server.url(""));
        tokio::spawn(async move {
            let c = client();
            let (mut reads, mut more) = (0u64, BTreeMap::new());
            let mut round = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for (key, bytes) in &told {
                    let url = format!("{base}/v1/revisions/{key}/data");
                    let got = c.get(url).send().await.unwrap();
                    assert_eq!(got.status().as_u16(), 200, "{key}");
                    assert!(
                        got.bytes().await.unwrap()[..] == bytes[..],
                        "{key} read wrong"
                    );
                    reads += 1;
                }
                round += 1;
                let bytes = payload(1000 + round, 100 << 10);
                let got = c
                    .post(format!("{base}/v1/revisions"))
                    .header("content-type", "application/octet-stream")
                    .body(bytes.clone())
                    .send()
                    .await
                    .unwrap();
                assert_eq!(got.status().as_u16(), 201);
                let body: serde_json::Value = got.json().await.unwrap();
                more.insert(body["key"].as_str().unwrap().to_string(), bytes);
            }
            (reads, more)
        })
    };
    let kill_after = SIZES.len();
    let out = tokio::task::spawn_blocking({
        let (env, url) = (env.clone(), db.url.clone());
        move || {
            assert!(move_data(&env, &url, Some(kill_after)).is_none());
            move_data(&env, &url, None).unwrap()
        }
    })
    .await
    .unwrap();
    stop.store(true, Ordering::Relaxed);
    let (reads, more) = clients.await.unwrap();
    println!(
        "move-data killed after {kill_after} contents, then run again: {out}{reads} reads and {} registrations during the move, all right",
        more.len()
    );
    assert!(
        out.contains(&format!("{} contents moved", past_limit - kill_after)),
        "the second run moves what the first did not: {out}"
    );
    assert_eq!(
        database_copies(&db).await,
        0,
        "the database copies are dropped"
    );
    // Every content past the limit is one object that its row names; the kill may have
    // left one orphan, which gc deletes.
    let registry = db.open().await;
    let r = collect(&registry, &store(&cluster, BUCKET), Duration::ZERO)
        .await
        .unwrap();
    registry.close().await;
    assert_eq!(r.named as usize, past_limit + more.len(), "{r:?}");
    assert!(r.deleted <= 1, "{r:?}");
    let c = client();
    told.extend(more);
    for (key, bytes) in &told {
        assert!(
            data(&c, &server, key).await.unwrap() == *bytes,
            "{key} after the move"
        );
    }
    // The gateway stopped: what stayed in the database is still served, and moved data
    // is unavailable (503: one is asked, each takes the store client's retries), never
    // wrong.
    cluster.stop_gateway();
    let (inline, moved): (Vec<_>, Vec<_>) = told.iter().partition(|(_, b)| b.len() <= 64 << 10);
    for (key, bytes) in inline {
        assert!(data(&c, &server, key).await.unwrap() == *bytes, "{key}");
    }
    let (key, _) = moved[0];
    let e = data(&c, &server, key).await.unwrap_err();
    assert!(
        e.starts_with("503") && e.contains("data_store_unavailable"),
        "{key}: {e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn data_written_by_this_build_moves_to_the_store_while_serving_through_a_kill() {
    let db = fresh_db(Backend::Postgres).await;
    let told = written(&Server::start(&db, &[])).await;
    moves_while_serving(db, told).await;
}

/// Ignored unless asked for: SAMEKEY_PREVIOUS_RELEASE names the previous release's
/// `samekey` (`just registry::test` builds it and runs this).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore]
async fn data_written_by_the_previous_release_moves_to_the_store() {
    let release = std::env::var("SAMEKEY_PREVIOUS_RELEASE")
        .expect("SAMEKEY_PREVIOUS_RELEASE must name the previous release's samekey binary");
    let db = fresh_db(Backend::Sqlite).await;
    let mut program = Command::new(release);
    program.arg("serve");
    let told = written(&Server::start_program(program, &db, &[], &[])).await;
    moves_while_serving(db, told).await;
}
