//! `just registry::bench-objects`: revision data in an object store, on a SeaweedFS cluster
//! of separate processes (`SAMEKEY_WEED`), against its peers in one run:
//! - small JSON registrations per second (concurrency 8) with the data in the object store,
//!   next to the same registry with the data in the database (SQLite both), in
//!   alternating rounds;
//! - a 1 GiB file registered through the registry (one POST, streamed into a multipart
//!   upload), next to a direct multipart upload of the same bytes to the same store with
//!   the same client library (object_store, the same part size and parts in flight),
//!   alternating; the registry process's peak RSS during its uploads.
//!
//! Prints a ratio table.

#[allow(dead_code)]
#[path = "../tests/common/seaweed.rs"]
mod seaweed;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};

const SMALL_ROUNDS: usize = 5;
const SMALL_PER_ROUND: usize = 300;
const LARGE_ROUNDS: usize = 2;
const LARGE: usize = 1 << 30;
/// What the registry uses (store/staged.rs): 8 MiB parts, 4 in flight.
const PART: usize = 8 << 20;
const PARTS_IN_FLIGHT: usize = 4;

struct Registry {
    child: Child,
    url: String,
}

impl Registry {
    fn start(db: &str, extra: &[&str], env: &[(&'static str, String)]) -> Registry {
        let mut child = Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
            .args([
                "--database",
                db,
                "--listen",
                "127.0.0.1:0",
                "--body-timeout",
                "10m",
            ])
            .args(extra)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_string();
        Registry { child, url }
    }

    fn peak_rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|r| r.trim().strip_suffix(" kB"))
            .unwrap();
        kb.trim().parse::<u64>().unwrap() * 1024
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Registrations per second of `n` small JSON documents at concurrency 8.
async fn small_round(client: &reqwest::Client, url: &str, tag: &str, n: usize) -> f64 {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let (client, url, next, tag) = (client.clone(), url.to_string(), next.clone(), tag.to_string());
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= n {
                        return;
                    }
                    let body = format!(
                        r#"{{"run":"{tag}","item":{i},"text":"a small document of about one hundred bytes, as a registry mostly sees"}}"#
                    );
                    let r = client
                        .post(format!("{url}/v1/revisions"))
                        .header("content-type", "application/json")
                        .body(body)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(r.status(), 201);
                    r.bytes().await.unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    n as f64 / started.elapsed().as_secs_f64()
}

/// 1 GiB of bytes that differ for every `seed`, as a stream of 1 MiB pieces.
fn pieces(seed: u64) -> impl Iterator<Item = Bytes> {
    (0..LARGE / (1 << 20)).map(move |i| {
        let mut x = (seed << 32 | i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut v = vec![0u8; 1 << 20];
        for chunk in v.chunks_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        Bytes::from(v)
    })
}

/// Seconds for a direct multipart upload of 1 GiB.
async fn direct(store: &Arc<dyn ObjectStore>, seed: u64) -> f64 {
    let data: Vec<Bytes> = pieces(seed).collect();
    let path = Path::from(format!("direct/{seed}"));
    let started = Instant::now();
    let upload = store.put_multipart(&path).await.unwrap();
    let mut writer = WriteMultipart::new_with_chunk_size(upload, PART);
    for piece in data {
        writer.wait_for_capacity(PARTS_IN_FLIGHT).await.unwrap();
        writer.put(piece);
    }
    writer.finish().await.unwrap();
    let took = started.elapsed().as_secs_f64();
    store.delete(&path).await.unwrap();
    took
}

/// Seconds for registering 1 GiB through the registry in one POST.
async fn through_registry(client: &reqwest::Client, url: &str, seed: u64) -> f64 {
    let data: Vec<Bytes> = pieces(seed).collect();
    let frames = data
        .into_iter()
        .map(|piece| Ok::<_, std::io::Error>(http_body::Frame::data(piece)));
    let body = reqwest::Body::wrap(http_body_util::StreamBody::new(futures_util::stream::iter(
        frames,
    )));
    let started = Instant::now();
    let r = client
        .post(format!("{url}/v1/revisions"))
        .header("content-type", "application/octet-stream")
        .header("content-length", LARGE.to_string())
        .body(body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let text = r.text().await.unwrap();
    assert_eq!(status, 201, "{text}");
    started.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let cluster = seaweed::Cluster::start(2).await;
        cluster.bucket("bench").await;
        let env = cluster.env();
        let dir = tempfile::tempdir().unwrap();
        let db = |name: &str| format!("sqlite:{}", dir.path().join(name).display());
        let in_db = Registry::start(&db("database.db"), &[], &env);
        let in_store = Registry::start(&db("objects.db"), &["--data-store", "s3://bench/revisions"], &env);
        let client = reqwest::Client::builder().pool_max_idle_per_host(16).build().unwrap();
        // Warm both (connections, the first volume assignment).
        small_round(&client, &in_db.url, "warm", 50).await;
        small_round(&client, &in_store.url, "warm", 50).await;
        let (mut database, mut objects) = (Vec::new(), Vec::new());
        for round in 0..SMALL_ROUNDS {
            let tag = format!("r{round}");
            database.push(small_round(&client, &in_db.url, &tag, SMALL_PER_ROUND).await);
            objects.push(small_round(&client, &in_store.url, &tag, SMALL_PER_ROUND).await);
        }
        let (database, objects) = (median(database), median(objects));

        // The registry's own choice of TLS provider for the object store (store/objects.rs).
        #[allow(deprecated)]
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = AmazonS3Builder::new().with_bucket_name("bench");
        for (k, v) in &env {
            builder = builder.with_config(k.to_ascii_lowercase().parse().unwrap(), v);
        }
        let store: Arc<dyn ObjectStore> = Arc::new(builder.build().unwrap());
        let rss_before = in_store.peak_rss();
        let (mut direct_s, mut registry_s) = (Vec::new(), Vec::new());
        for round in 0..LARGE_ROUNDS as u64 {
            direct_s.push(direct(&store, 100 + round).await);
            registry_s.push(through_registry(&client, &in_store.url, 200 + round).await);
        }
        let rss = in_store.peak_rss();
        let mib = LARGE as f64 / (1 << 20) as f64;
        let (direct_s, registry_s) = (median(direct_s), median(registry_s));
        println!("| operation | peer | peer | samekey registry | ratio (>= goal) |");
        println!("|---|---|---:|---:|---:|");
        println!(
            "| small JSON registrations/s, concurrency 8 (median of {SMALL_ROUNDS} rounds of {SMALL_PER_ROUND}) | data in the database | {database:.0} | {objects:.0} | {:.2}x (0.8) |",
            objects / database
        );
        println!(
            "| 1 GiB file, MiB/s (median of {LARGE_ROUNDS}) | direct multipart upload (object_store) | {:.0} | {:.0} | {:.2}x (0.7) |",
            mib / direct_s,
            mib / registry_s,
            direct_s / registry_s
        );
        println!(
            "\nregistry peak RSS: {} MiB before the 1 GiB uploads, {} MiB after",
            rss_before >> 20,
            rss >> 20
        );
    });
}
