//! Registrations under faults, each recorded with what its client was told, and the
//! registry's state read back for the history checker.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::history::{History, Index, Outcome, Stored};
use super::TestDb;

/// A small deterministic generator (xorshift64*): the same seed, the same run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&self.next().to_le_bytes());
        }
        out.truncate(len);
        out
    }
}

/// How a load registers: `body` bytes of fresh random data, except that one in
/// `repeat_every` sends data sent before (the same parent too) and one in `child_every`
/// names an acknowledged revision as its parent.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub workers: usize,
    pub body: usize,
    pub repeat_every: u64,
    pub child_every: u64,
}

/// Runs `shape` against `base` until `stop` is set or `ops` registrations were answered,
/// recording each in `history`. Answers other than 201/200 are recorded as failures with
/// their status and problem code; a connection error as a failure too.
pub async fn register_until(
    base: &str,
    history: &Arc<History>,
    shape: Shape,
    ops: u64,
    stop: &Arc<AtomicBool>,
    seed: u64,
) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let done = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..shape.workers)
        .map(|w| {
            let (client, base, history, stop, done) = (
                client.clone(),
                base.to_string(),
                history.clone(),
                stop.clone(),
                done.clone(),
            );
            tokio::spawn(async move {
                let mut rng = Rng::new(seed ^ (w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                while !stop.load(Ordering::SeqCst) && done.fetch_add(1, Ordering::SeqCst) < ops {
                    let earlier = history.ops();
                    let (data, parent) =
                        if !earlier.is_empty() && rng.below(shape.repeat_every) == 0 {
                            let op = &earlier[rng.below(earlier.len() as u64) as usize];
                            (op.data.clone(), op.parent.clone())
                        } else {
                            let acked = history.acked_keys();
                            let parent = (!acked.is_empty() && rng.below(shape.child_every) == 0)
                                .then(|| acked[rng.below(acked.len() as u64) as usize].clone());
                            (rng.bytes(shape.body), parent)
                        };
                    let outcome = register(&client, &base, &data, parent.as_deref()).await;
                    history.record(data, parent, outcome);
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
}

/// Runs `shape` against `base` (as [`register_until`]) for as long as `faults` runs, and
/// returns what `faults` returns once the load has stopped.
pub async fn register_during<F: std::future::Future>(
    base: &str,
    history: &Arc<History>,
    shape: Shape,
    seed: u64,
    faults: F,
) -> F::Output {
    let stop = Arc::new(AtomicBool::new(false));
    let load = {
        let (base, history, stop) = (base.to_string(), history.clone(), stop.clone());
        tokio::spawn(
            async move { register_until(&base, &history, shape, u64::MAX, &stop, seed).await },
        )
    };
    let out = faults.await;
    stop.store(true, Ordering::SeqCst);
    load.await.unwrap();
    out
}

/// One registration of `data` as `application/octet-stream`; what the client was told.
pub async fn register(
    client: &reqwest::Client,
    base: &str,
    data: &[u8],
    parent: Option<&str>,
) -> Outcome {
    let mut url = format!("{base}/v1/revisions");
    if let Some(p) = parent {
        url.push_str(&format!("?parent={p}"));
    }
    let sent = client
        .post(&url)
        .header("content-type", "application/octet-stream")
        .body(data.to_vec())
        .send()
        .await;
    let response = match sent {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("no answer: {e}")),
    };
    let status = response.status().as_u16();
    // Acknowledged means a complete answer reached the client: a body cut short is not one.
    let body = match response.json::<serde_json::Value>().await {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("{status} with a body cut short: {e}")),
    };
    match status {
        200 | 201 => Outcome::Acked {
            status,
            key: body["key"].as_str().unwrap().to_string(),
        },
        _ => Outcome::Failed(format!("{status} {}", body["code"].as_str().unwrap_or("?"))),
    }
}

/// Every acknowledged key of `history` as the registry at `base` shows it (a key it does
/// not find is left out), and every revision of the database: the checker's inputs.
pub async fn observe(
    base: &str,
    history: &History,
    db: &TestDb,
) -> (HashMap<String, Stored>, Index) {
    observe_with(base, history, db, None).await
}

/// As [`observe`], for a registry whose data is (also) in `objects`.
pub async fn observe_with(
    base: &str,
    history: &History,
    db: &TestDb,
    objects: Option<&samekey_registry::store::objects::DataStore>,
) -> (HashMap<String, Stored>, Index) {
    let client = reqwest::Client::new();
    let mut stored = HashMap::new();
    for key in history.acked_keys() {
        let meta = client
            .get(format!("{base}/v1/revisions/{key}"))
            .send()
            .await
            .unwrap();
        if meta.status().as_u16() == 404 {
            continue;
        }
        assert_eq!(meta.status().as_u16(), 200, "GET {key}");
        let meta: serde_json::Value = meta.json().await.unwrap();
        let data = client
            .get(format!("{base}/v1/revisions/{key}/data"))
            .send()
            .await
            .unwrap();
        assert_eq!(data.status().as_u16(), 200, "GET {key}/data");
        stored.insert(
            key,
            Stored {
                parent: meta["parent"].as_str().map(str::to_string),
                content_hash: meta["content_hash"].as_str().unwrap().to_string(),
                data: data.bytes().await.unwrap().to_vec(),
            },
        );
    }
    let d = db.open().await;
    let all = d.revision_index(objects).await.unwrap();
    d.close().await;
    (stored, all)
}
