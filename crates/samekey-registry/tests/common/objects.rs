//! Helpers of the object-store tests: a registry on a SeaweedFS cluster's bucket, the
//! registry's own view of that bucket, payloads, registrations and reads.

use std::collections::BTreeSet;

use samekey_registry::store::objects::DataStore;

use super::seaweed::Cluster;
use super::{post, Server, TestDb};

pub const PREFIX: &str = "revisions";

/// A registry on `db` with its data in `bucket` of `cluster`, reached at `endpoint` instead
/// of the cluster's gateway when given (a proxy in front of it), with the `extra` flags.
pub fn serve_with(
    cluster: &Cluster,
    db: &TestDb,
    bucket: &str,
    endpoint: Option<&str>,
    extra: &[&str],
) -> Server {
    let mut env = cluster.env();
    for (name, value) in env.iter_mut() {
        if let (&mut "AWS_ENDPOINT_URL", Some(endpoint)) = (name, endpoint) {
            *value = endpoint.to_string();
        }
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let data_store = format!("s3://{bucket}/{PREFIX}");
    let args = [&["--data-store", data_store.as_str()][..], extra].concat();
    Server::start_with_env(db, &args, &env)
}

/// A registry that sends every byte to the object store, however small (the default
/// keeps 64 KiB inline).
pub fn serve(cluster: &Cluster, db: &TestDb, bucket: &str) -> Server {
    serve_with(cluster, db, bucket, None, &["--inline-limit", "0"])
}

pub fn store(cluster: &Cluster, bucket: &str) -> DataStore {
    let env = cluster.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    DataStore::open_with(&format!("s3://{bucket}/{PREFIX}"), &env).unwrap()
}

/// A payload of `n` bytes that differs for every `seed`.
pub fn payload(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// POSTs bytes; (status, key or code).
pub async fn register(c: &reqwest::Client, server: &Server, bytes: Vec<u8>) -> (u16, String) {
    let r = post(
        c,
        &server.url("/v1/revisions"),
        "application/octet-stream",
        bytes,
    )
    .await;
    let status = r.status().as_u16();
    let body: serde_json::Value = r.json().await.unwrap();
    let text = body
        .get("key")
        .or(body.get("code"))
        .and_then(|v| v.as_str());
    (status, text.unwrap_or_default().to_string())
}

pub async fn data(c: &reqwest::Client, server: &Server, key: &str) -> Result<Vec<u8>, String> {
    let r = c
        .get(server.url(&format!("/v1/revisions/{key}/data")))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !r.status().is_success() {
        let status = r.status().as_u16();
        return Err(format!("{status} {}", r.text().await.unwrap_or_default()));
    }
    r.bytes()
        .await
        .map(|b| b.to_vec())
        .map_err(|e| format!("{e:?}"))
}

/// The content hash each object of the bucket is named by.
pub async fn object_hashes(cluster: &Cluster, bucket: &str) -> BTreeSet<String> {
    cluster
        .objects(bucket, PREFIX)
        .await
        .into_iter()
        .map(|(key, _)| {
            let mut parts = key.rsplit('/');
            let hex = parts.next().unwrap();
            format!("{}:{hex}", parts.next().unwrap())
        })
        .collect()
}
