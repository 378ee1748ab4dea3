//! Changing the scheme while the registry runs: processes of different key rings on one
//! database, as every rolling deploy has them. One (parent, data) is one revision whatever
//! ring answers, sequentially and concurrently, and every client is told the key the
//! revision was created under; also with every byte of data in an object store.

mod common;

use std::collections::HashSet;

use common::seaweed::Cluster;
use common::{client, fresh_db, post_json, Backend, Server, TestDb};
use samekey::Scheme;
use samekey_registry::store::gc::collect;
use samekey_registry::store::schemes;

const OLD: &[&str] = &["--scheme", "v1"];
const EXPAND: &[&str] = &["--scheme", "v1", "--accept", "v2"];
const SWITCH: &[&str] = &["--scheme", "v2", "--accept", "v1"];
const NEW: &[&str] = &["--scheme", "v2"];

fn payload(i: usize) -> String {
    format!(r#"{{"payload":{i},"rows":[1,2,3]}}"#)
}

/// Every payload posted to both servers at once: each payload's two answers, which must
/// name one key, and the number of revisions the database holds must be the payloads'.
async fn race(db: &TestDb, a: &Server, b: &Server, payloads: std::ops::Range<usize>) {
    let client = client();
    let mut tasks = Vec::new();
    for i in payloads.clone() {
        for server in [a.url("/v1/revisions"), b.url("/v1/revisions")] {
            let client = client.clone();
            tasks.push(tokio::spawn(async move {
                let r = common::post(&client, &server, "application/json", payload(i)).await;
                let status = r.status().as_u16();
                let body: serde_json::Value = r.json().await.unwrap();
                (i, status, body)
            }));
        }
    }
    let mut keys = std::collections::HashMap::new();
    for t in tasks {
        let (i, status, body) = t.await.unwrap();
        assert!(
            status == 200 || status == 201,
            "payload {i}: {status} {body}"
        );
        let key = body["key"].as_str().unwrap().to_string();
        let first = keys.entry(i).or_insert_with(|| key.clone());
        assert_eq!(*first, key, "payload {i}: two servers answered two keys");
    }
    let (revisions, _) = db.counts().await;
    assert_eq!(
        revisions as usize, payloads.end,
        "one revision per payload: {} payloads, {revisions} revisions",
        payloads.end
    );
}

async fn rings_side_by_side_create_one_revision_per_payload(first: &[&str], second: &[&str]) {
    let db = fresh_db(Backend::Postgres).await;
    let a = Server::start(&db, first);
    let b = Server::start(&db, second);
    race(&db, &a, &b, 0..40).await;
    // And one after the other, the newer ring first, then the older.
    let client = client();
    let (s1, one) = post_json(&client, &b, None, &payload(100)).await;
    let (s2, two) = post_json(&client, &a, None, &payload(100)).await;
    assert_eq!(
        (s1, s2),
        (201, 200),
        "created by the first, found by the second"
    );
    assert_eq!(
        one["key"], two["key"],
        "the second answers the creator's key"
    );
    assert_eq!(db.counts().await.0, 41);
}

#[tokio::test]
async fn old_and_expanded_rings_on_postgres() {
    rings_side_by_side_create_one_revision_per_payload(OLD, EXPAND).await;
}

#[tokio::test]
async fn expanded_and_switched_rings_on_postgres() {
    rings_side_by_side_create_one_revision_per_payload(EXPAND, SWITCH).await;
}

#[tokio::test]
async fn old_ring_beside_the_one_step_v2_plus_v1_on_postgres() {
    rings_side_by_side_create_one_revision_per_payload(OLD, SWITCH).await;
}

/// The rollout on one database, each step with a process of the step before still
/// serving: every payload keeps the key of its first answer, and a process whose ring the
/// database has moved past refuses to start, or refuses writes with scheme_required.
/// With `cluster`, every process keeps all data in its bucket (`--inline-limit 0`), and
/// at the end every key reads back its payload from there and gc deletes nothing.
async fn the_rollout_step_by_step(backend: Backend, cluster: Option<&Cluster>) {
    let db = fresh_db(backend).await;
    let objects = cluster.map(|c| common::objects::store(c, "rollout"));
    let start = |ring: &[&str]| match cluster {
        None => Server::start(&db, ring),
        Some(c) => {
            let args = [ring, &["--inline-limit", "0"]].concat();
            common::objects::serve_with(c, &db, "rollout", None, &args)
        }
    };
    let client = client();
    let mut told = std::collections::HashMap::new();
    let mut check = |i: usize, status: u16, body: &serde_json::Value| {
        assert!(
            status == 200 || status == 201,
            "payload {i}: {status} {body}"
        );
        let key = body["key"].as_str().unwrap().to_string();
        let first = told.entry(i).or_insert_with(|| key.clone());
        assert_eq!(*first, key, "payload {i} was told two keys");
    };
    let old = start(OLD);
    for i in 0..10 {
        let (s, b) = post_json(&client, &old, None, &payload(i)).await;
        check(i, s, &b);
    }
    // A v2-only process would not find the v1 revisions: it does not start.
    let why = Server::refused(&db, NEW);
    assert!(why.contains("add v1 to --accept"), "{why}");

    // Expand, beside the old one.
    let expand = start(EXPAND);
    for i in 0..20 {
        for server in [&old, &expand] {
            let (s, b) = post_json(&client, server, None, &payload(i)).await;
            check(i, s, &b);
        }
    }
    // Where the rollout stands, in /metrics: this process's ring and the database's schemes.
    let metrics = common::get_text(&client, &expand, "/metrics").await;
    for line in [
        r#"samekey_registry_ring{scheme="v1",role="primary"} 1"#,
        r#"samekey_registry_ring{scheme="v2",role="accepted"} 1"#,
        r#"samekey_registry_scheme_state{scheme="v1",state="required"} 1"#,
        r#"samekey_registry_scheme_state{scheme="v2",state="optional"} 1"#,
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "no {line} in:\n{metrics}"
        );
    }
    // Require v2: the old revisions get their v2 keys; the old ring can no longer write.
    let done = schemes::require(&db.open().await, Scheme::V2, objects.as_ref())
        .await
        .unwrap();
    assert_eq!(
        done.recorded, 20,
        "payloads 0-19, which the old process created"
    );
    let (s, b) = post_json(&client, &old, None, &payload(50)).await;
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("scheme_required")),
        "{b}"
    );
    let (s, b) = post_json(&client, &old, None, &payload(3)).await;
    check(3, s, &b);
    drop(old);
    let why = Server::refused(&db, OLD);
    assert!(why.contains("add v2 to --accept"), "{why}");

    // Switch, beside the expanded one.
    let switch = start(SWITCH);
    for i in 0..30 {
        for server in [&expand, &switch] {
            let (s, b) = post_json(&client, server, None, &payload(i)).await;
            check(i, s, &b);
        }
    }
    drop(expand);
    // Retire v1: nothing new is recorded under it; the switched ring can no longer write.
    let db_handle = db.open().await;
    schemes::retire(&db_handle, Scheme::V1).await.unwrap();
    let (s, b) = post_json(&client, &switch, None, &payload(60)).await;
    assert_eq!(
        (s, b["code"].as_str()),
        (503, Some("scheme_required")),
        "{b}"
    );
    drop(switch);
    let why = Server::refused(&db, SWITCH);
    assert!(why.contains("remove v1"), "{why}");

    // Contract: v2 alone answers every payload with the key it was first told.
    let new = start(NEW);
    for i in 0..40 {
        let (s, b) = post_json(&client, &new, None, &payload(i)).await;
        check(i, s, &b);
    }
    assert_eq!(db.counts().await.0, 40, "one revision per payload");
    let created: HashSet<_> = told.values().map(|k| &k[..7]).collect();
    assert_eq!(created, HashSet::from(["rev:v1:", "rev:v2:"]));
    let status = schemes::status(&db_handle).await.unwrap();
    assert_eq!(
        status,
        vec![
            (Scheme::V1, schemes::State::Retired, 30, 30),
            (Scheme::V2, schemes::State::Required, 10, 40)
        ],
        "v1: 30 created (0-29, by the old and expanded rings), none recorded after its retirement; \
         v2: 10 created (30-39), every revision recorded"
    );
    // A retired scheme is never required again.
    assert!(schemes::require(&db_handle, Scheme::V1, None)
        .await
        .is_err());
    if let Some(cluster) = cluster {
        // gc deletes what the two refused writes (payloads 50 and 60) uploaded, nothing a
        // revision names: every key still reads back its payload from the store.
        let objects = common::objects::store(cluster, "rollout");
        let r = collect(&db_handle, &objects, std::time::Duration::ZERO)
            .await
            .unwrap();
        println!("the rollout with its data in the object store, then gc: {r:?}");
        assert_eq!((r.named, r.deleted, r.busy), (40, 2, 0), "{r:?}");
        for (i, key) in &told {
            let got = common::get_text(&client, &new, &format!("/v1/revisions/{key}/data")).await;
            let want: serde_json::Value = serde_json::from_str(&payload(*i)).unwrap();
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&got).unwrap(),
                want,
                "{key}"
            );
        }
    }
}

#[tokio::test]
async fn the_rollout_step_by_step_on_sqlite() {
    the_rollout_step_by_step(Backend::Sqlite, None).await;
}

#[tokio::test]
async fn the_rollout_step_by_step_on_postgres() {
    the_rollout_step_by_step(Backend::Postgres, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rollout_step_by_step_on_postgres_with_the_data_in_an_object_store() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("rollout").await;
    the_rollout_step_by_step(Backend::Postgres, Some(&cluster)).await;
}

/// A child registered by its parent's key under another scheme is the same child.
#[tokio::test]
async fn a_parent_named_by_any_of_its_keys_is_one_parent() {
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, EXPAND);
    let client = client();
    let (_, root) = post_json(&client, &server, None, r#"{"root":true}"#).await;
    let v1 = root["key"].as_str().unwrap().to_string();
    let data = samekey::content_hash(Scheme::V2, br#"{"root":true}"#).unwrap();
    let v2 = samekey::derive_revision(Scheme::V2, None, &data, None)
        .unwrap()
        .to_string();
    let (s1, one) = post_json(&client, &server, Some(&v1), r#"{"child":1}"#).await;
    let (s2, two) = post_json(&client, &server, Some(&v2), r#"{"child":1}"#).await;
    assert_eq!((s1, s2), (201, 200));
    assert_eq!(one["key"], two["key"]);
    assert_eq!(two["parent"].as_str(), Some(v1.as_str()));
    // Read by its v2 key, the root is the same revision.
    let read = common::get_json(&client, &server, &format!("/v1/revisions/{v2}")).await;
    assert_eq!(read["key"].as_str(), Some(v1.as_str()));
}

/// Retiring needs another required scheme; a fresh database requires its first ring's
/// primary.
#[tokio::test]
async fn retiring_the_only_required_scheme_is_refused() {
    let db = fresh_db(Backend::Sqlite).await;
    drop(Server::start(&db, SWITCH));
    let handle = db.open().await;
    let states = schemes::states(&handle).await.unwrap();
    assert_eq!(
        states,
        vec![
            (Scheme::V1, schemes::State::Optional),
            (Scheme::V2, schemes::State::Required)
        ]
    );
    let e = schemes::retire(&handle, Scheme::V2).await.unwrap_err();
    assert!(e.to_string().contains("no other scheme is required"), "{e}");
}
