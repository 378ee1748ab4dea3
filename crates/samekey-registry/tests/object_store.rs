//! Revision data in an object store (`--data-store s3://...`) on a real SeaweedFS cluster of
//! separate processes: registry processes on one PostgreSQL, gc racing registrations, the
//! store unreachable, objects deleted or altered behind the registry's back, kill -9 in the
//! middle of registrations, a volume server killed. Every answer a client was given is
//! recorded and checked against what the registry serves afterwards.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use common::objects::{data, object_hashes, payload, register, serve, store, PREFIX};
use common::seaweed::Cluster;
use common::{client, fresh_db, post, Backend, Server};
use samekey_registry::store::gc::{collect, GcReport};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_servers_on_one_postgres_and_the_cluster_make_one_revision_and_one_object_each() {
    let cluster = Cluster::start(3).await;
    cluster.bucket("hosts").await;
    let db = fresh_db(Backend::Postgres).await;
    let servers: Vec<Server> = (0..3).map(|_| serve(&cluster, &db, "hosts")).collect();
    let c = client();
    // 20 payloads, each sent to all three servers at once, twice.
    let mut tasks = Vec::new();
    for seed in 0..20u64 {
        for round in 0..2 {
            for s in &servers {
                let (c, url) = (c.clone(), s.url("/v1/revisions"));
                tasks.push(tokio::spawn(async move {
                    let bytes = payload(seed, 1000 + seed as usize * 997);
                    let r = post(&c, &url, "application/octet-stream", bytes).await;
                    let status = r.status().as_u16();
                    let body: serde_json::Value = r.json().await.unwrap();
                    (seed, round, status, body)
                }));
            }
        }
    }
    let mut keys: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    let mut created: BTreeMap<u64, usize> = BTreeMap::new();
    for t in tasks {
        let (seed, _, status, body) = t.await.unwrap();
        assert!(status == 200 || status == 201, "{status} {body}");
        keys.entry(seed)
            .or_default()
            .insert(body["key"].as_str().unwrap().to_string());
        *created.entry(seed).or_default() += usize::from(status == 201);
    }
    for seed in 0..20u64 {
        assert_eq!(
            keys[&seed].len(),
            1,
            "payload {seed} got several keys: {:?}",
            keys[&seed]
        );
        assert_eq!(
            created[&seed], 1,
            "payload {seed} was created {} times",
            created[&seed]
        );
        let key = keys[&seed].first().unwrap();
        for s in &servers {
            assert_eq!(
                data(&c, s, key).await.unwrap(),
                payload(seed, 1000 + seed as usize * 997)
            );
        }
    }
    assert_eq!(db.counts().await, (20, 20));
    let hashes = object_hashes(&cluster, "hosts").await;
    assert_eq!(hashes.len(), 20, "one object per content: {hashes:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gc_deletes_orphans_after_the_grace_and_keeps_what_revisions_name() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("gc-bucket").await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = serve(&cluster, &db, "gc-bucket");
    let c = client();
    let (status, kept) = register(&c, &server, payload(1, 5000)).await;
    assert_eq!(status, 201, "{kept}");
    // What a registration killed between its object and its commit leaves: an object no
    // row names. And a name under the prefix that is no content hash.
    let orphan = samekey::content_hash(samekey::Scheme::V1, &payload(2, 3000)).unwrap();
    let orphan_key = format!(
        "{PREFIX}/sha256/{}",
        orphan.to_string().trim_start_matches("sha256:")
    );
    cluster
        .put("gc-bucket", &orphan_key, payload(2, 3000))
        .await;
    cluster
        .put(
            "gc-bucket",
            &format!("{PREFIX}/notes.txt"),
            b"not a content".to_vec(),
        )
        .await;
    let objects = store(&cluster, "gc-bucket");
    let registry = db.open().await;
    // Within the grace period nothing is deleted.
    let r = collect(&registry, &objects, Duration::from_secs(3600))
        .await
        .unwrap();
    assert_eq!(
        r,
        GcReport {
            listed: 3,
            foreign: 1,
            young: 2,
            ..GcReport::default()
        }
    );
    let r = collect(&registry, &objects, Duration::ZERO).await.unwrap();
    assert_eq!(
        r,
        GcReport {
            listed: 3,
            foreign: 1,
            named: 1,
            deleted: 1,
            ..GcReport::default()
        }
    );
    assert_eq!(
        object_hashes(&cluster, "gc-bucket").await.len(),
        2,
        "the orphan is gone, the rest kept"
    );
    assert_eq!(data(&c, &server, &kept).await.unwrap(), payload(1, 5000));
    // The orphan's content registered afterwards is written anew.
    let (status, key) = register(&c, &server, payload(2, 3000)).await;
    assert_eq!(status, 201);
    assert_eq!(data(&c, &server, &key).await.unwrap(), payload(2, 3000));
    registry.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn gc_racing_registrations_of_the_same_content_never_deletes_what_a_revision_names() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("race").await;
    let db = fresh_db(Backend::Postgres).await;
    let servers: Vec<Server> = (0..2).map(|_| serve(&cluster, &db, "race")).collect();
    let objects = store(&cluster, "race");
    let c = client();
    let mut told: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for round in 0..8u64 {
        // Orphans of the contents about to be registered, as killed registrations leave.
        let contents: Vec<Vec<u8>> = (0..6).map(|i| payload(round * 100 + i, 2000)).collect();
        for bytes in &contents {
            let hash = samekey::content_hash(samekey::Scheme::V1, bytes)
                .unwrap()
                .to_string();
            let key = format!("{PREFIX}/sha256/{}", hash.trim_start_matches("sha256:"));
            cluster.put("race", &key, bytes.clone()).await;
        }
        // Two gc processes (grace zero: every orphan is fair game) against registrations
        // of them: two passes at once is the interleaving the model found losing an
        // object when they shared one announcement.
        let mut gcs = Vec::new();
        for _ in 0..2 {
            let (registry, objects) = (db.open().await, objects.clone());
            gcs.push(tokio::spawn(async move {
                for _ in 0..3 {
                    collect(&registry, &objects, Duration::ZERO).await.unwrap();
                }
                registry.close().await;
            }));
        }
        let mut tasks = Vec::new();
        for (i, bytes) in contents.iter().enumerate() {
            let (c, url, bytes) = (
                c.clone(),
                servers[i % 2].url("/v1/revisions"),
                bytes.clone(),
            );
            tasks.push(tokio::spawn(async move {
                loop {
                    let r = post(&c, &url, "application/octet-stream", bytes.clone()).await;
                    let status = r.status().as_u16();
                    let body: serde_json::Value = r.json().await.unwrap();
                    match status {
                        200 | 201 => return (body["key"].as_str().unwrap().to_string(), bytes),
                        503 => tokio::time::sleep(Duration::from_millis(50)).await,
                        _ => panic!("{status} {body}"),
                    }
                }
            }));
        }
        for t in tasks {
            let (key, bytes) = t.await.unwrap();
            told.insert(key, bytes);
        }
        for gc in gcs {
            gc.await.unwrap();
        }
        // A gc after the registrations deletes nothing any revision names.
        let registry = db.open().await;
        let r = collect(&registry, &objects, Duration::ZERO).await.unwrap();
        registry.close().await;
        assert_eq!(
            r.deleted, 0,
            "round {round}: gc deleted a named object: {r:?}"
        );
    }
    for (key, bytes) in &told {
        assert_eq!(&data(&c, &servers[0], key).await.unwrap(), bytes, "{key}");
    }
    assert_eq!(told.len(), 48);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_object_deleted_or_altered_behind_the_registrys_back_is_an_error_naming_the_key() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("tamper").await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = serve(&cluster, &db, "tamper");
    let c = client();
    let original = payload(7, 3 * 1024 * 1024);
    let (status, key) = register(&c, &server, original.clone()).await;
    assert_eq!(status, 201);
    let [(object, stored)]: [(String, Vec<u8>); 1] =
        cluster.objects("tamper", PREFIX).await.try_into().unwrap();
    assert_eq!(stored, original);
    // The same size, one bit flipped near the end: the answer is cut, never complete.
    let mut altered = original.clone();
    *altered.last_mut().unwrap() ^= 1;
    cluster.put("tamper", &object, altered).await;
    match data(&c, &server, &key).await {
        Ok(bytes) => panic!("an altered object was served whole ({} bytes)", bytes.len()),
        Err(e) => assert!(!e.starts_with("200"), "{e}"),
    }
    // Another size: refused before the answer starts, naming the key.
    cluster.put("tamper", &object, b"short".to_vec()).await;
    let e = data(&c, &server, &key).await.unwrap_err();
    assert!(
        e.starts_with("500") && e.contains("data_corrupt") && e.contains(&key),
        "{e}"
    );
    // Deleted.
    cluster.delete("tamper", &object).await;
    let e = data(&c, &server, &key).await.unwrap_err();
    assert!(
        e.starts_with("500") && e.contains("data_corrupt") && e.contains(&key),
        "{e}"
    );
    // Registering the same data again does not mend it silently (the revision exists and
    // needs no upload), but the original bytes put back are served again.
    cluster.put("tamper", &object, original.clone()).await;
    assert_eq!(data(&c, &server, &key).await.unwrap(), original);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_store_unreachable_is_a_retryable_503_that_commits_nothing() {
    let mut cluster = Cluster::start(2).await;
    cluster.bucket("down").await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = serve(&cluster, &db, "down");
    let c = client();
    let (status, _) = register(&c, &server, payload(1, 100)).await;
    assert_eq!(status, 201);
    cluster.stop_gateway();
    let (status, code) = register(&c, &server, payload(2, 100)).await;
    assert_eq!((status, code.as_str()), (503, "data_store_unavailable"));
    assert_eq!(db.counts().await, (1, 1), "a failed upload commits no row");
    // What exists is still answered (from the database) while the store is down.
    let (status, _) = register(&c, &server, payload(1, 100)).await;
    assert_eq!(status, 200);
    // With the default --inline-limit (64 KiB), small data stays in the database: it
    // registers and reads with the store down, and makes no object.
    let env = cluster.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let inline_db = fresh_db(Backend::Sqlite).await;
    cluster.start_gateway(); // the server checks the store once at start
    let inline = Server::start_with_env(&inline_db, &["--data-store", "s3://down/inline"], &env);
    cluster.stop_gateway();
    let (status, key) = register(&c, &inline, payload(3, 64 * 1024)).await;
    assert_eq!(status, 201, "{key}");
    assert_eq!(
        data(&c, &inline, &key).await.unwrap(),
        payload(3, 64 * 1024)
    );
    let (status, code) = register(&c, &inline, payload(4, 64 * 1024 + 1)).await;
    assert_eq!((status, code.as_str()), (503, "data_store_unavailable"));
    cluster.start_gateway();
    let mut answer = (0, String::new());
    for _ in 0..100 {
        answer = register(&c, &server, payload(2, 100)).await;
        if answer.0 != 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(answer.0, 201, "{answer:?}");
    assert_eq!(data(&c, &server, &answer.1).await.unwrap(), payload(2, 100));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_mid_registrations_loses_nothing_acknowledged_and_gc_removes_the_orphans() {
    let mut cluster = Cluster::start(3).await;
    cluster.bucket("kill").await;
    let db = fresh_db(Backend::Postgres).await;
    let c = client();
    let mut told: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for round in 0..3u64 {
        let server = serve(&cluster, &db, "kill");
        let acknowledged = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for i in 0..40u64 {
            let (c, url, acks) = (c.clone(), server.url("/v1/revisions"), acknowledged.clone());
            tasks.push(tokio::spawn(async move {
                let bytes = payload(round * 1000 + i, 50_000 + i as usize * 1000);
                let r = post_or_fail(&c, &url, bytes.clone()).await?;
                acks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                Some((r, bytes))
            }));
        }
        // Killed in the middle: after a few answers, with the rest in flight.
        let waited = std::time::Instant::now();
        while acknowledged.load(std::sync::atomic::Ordering::SeqCst) < 3 + round as usize * 5
            && waited.elapsed() < Duration::from_secs(30)
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        server.kill9();
        for t in tasks {
            if let Some((key, bytes)) = t.await.unwrap() {
                told.insert(key, bytes);
            }
        }
    }
    // One volume server of three killed: every object has a replica elsewhere.
    cluster.kill_volume(0);
    let server = serve(&cluster, &db, "kill");
    for (key, bytes) in &told {
        assert_eq!(&data(&c, &server, key).await.unwrap(), bytes, "{key}");
    }
    let objects = store(&cluster, "kill");
    let registry = db.open().await;
    // The gateway may finish writing an upload whose registry was killed after gc has
    // listed: a second pass a moment later takes it.
    let mut r = collect(&registry, &objects, Duration::ZERO).await.unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    r.deleted += collect(&registry, &objects, Duration::ZERO)
        .await
        .unwrap()
        .deleted;
    let (revisions, contents) = registry.counts().await.unwrap();
    registry.close().await;
    assert_eq!(revisions as usize, contents as usize);
    assert!(revisions as usize >= told.len());
    assert_eq!(
        object_hashes(&cluster, "kill").await.len(),
        contents as usize,
        "after gc every object is named by a revision ({r:?})"
    );
    eprintln!(
        "kill -9: {} acknowledged, {revisions} stored, gc: {r:?}",
        told.len()
    );
}

/// The key a registration was acknowledged with, or None when the server died first.
async fn post_or_fail(c: &reqwest::Client, url: &str, bytes: Vec<u8>) -> Option<String> {
    let r = c
        .post(url)
        .header("content-type", "application/octet-stream")
        .body(bytes)
        .send()
        .await
        .ok()?;
    let status = r.status().as_u16();
    let body: serde_json::Value = r.json().await.ok()?;
    assert!(status == 201 || status == 200, "{status} {body}");
    Some(body["key"].as_str()?.to_string())
}
