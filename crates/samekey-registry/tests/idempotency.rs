//! The registry's promise: the same data on the same parent is one revision, however the
//! requests arrive.

mod common;

use std::io::Write;
use std::net::TcpStream;

use common::{client, fresh_db, get_json, post_all, post_json, Backend, Server};

async fn concurrent_identical_registrations_create_one_revision(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &["--db-connections", "32"]);
    let client = client();
    let (_, root) = post_json(&client, &server, None, r#"{"dataset":"cities"}"#).await;
    let parent = root["key"].as_str().unwrap().to_string();
    let url = format!("{}?parent={parent}", server.url("/v1/revisions"));
    let answers = post_all(
        &client,
        vec![url; 200],
        r#"{"rows": [1, 2, 3], "name": "v2"}"#,
    )
    .await;
    let created = answers.iter().filter(|(s, _)| *s == 201).count();
    let found = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(
        (created, found),
        (1, 199),
        "statuses: one 201, the rest 200"
    );
    assert!(
        answers.iter().all(|(_, body)| *body == answers[0].1),
        "every body is the same bytes"
    );
    assert_eq!(
        db.counts().await,
        (2, 2),
        "the root and one child; two contents"
    );
}

async fn a_client_that_disconnects_then_retries_gets_the_same_revision(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &[]);
    let body = r#"{"retry":"after a lost response"}"#;
    // Send the whole request, then go away without reading a byte of the answer.
    let mut socket = TcpStream::connect(server.addr()).unwrap();
    write!(
        socket,
        "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    socket.flush().unwrap();
    drop(socket);
    let client = client();
    let (status, first) = post_json(&client, &server, None, body).await;
    assert!(
        status == 200 || status == 201,
        "the retry is answered: {status}"
    );
    let (status, second) = post_json(&client, &server, None, body).await;
    assert_eq!(status, 200);
    assert_eq!(first, second);
    // Whatever the first request managed before the client left, there is one revision.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(db.counts().await, (1, 1));
    let expected = samekey::derive_revision(
        samekey::Scheme::V1,
        None,
        &samekey::content_hash_json(samekey::Scheme::V1, &samekey::Value::parse(body).unwrap())
            .unwrap()
            .1,
        None,
    )
    .unwrap();
    assert_eq!(first["key"], expected.to_string());
}

async fn scheme_migration_finds_old_revisions_and_keys_new_ones_with_the_new_scheme(
    backend: Backend,
) {
    let db = fresh_db(backend).await;
    let client = client();
    let server = Server::start(&db, &["--scheme", "v1"]);
    let (s, old_root) = post_json(&client, &server, None, r#"{"a":1}"#).await;
    assert_eq!(s, 201);
    let old_root_key = old_root["key"].as_str().unwrap().to_string();
    assert!(old_root_key.starts_with("rev:v1:"));
    drop(server);

    let server = Server::start(&db, &["--scheme", "v2", "--accept", "v1"]);
    let (s, again) = post_json(&client, &server, None, r#"{"a": 1}"#).await;
    assert_eq!(
        (s, &again),
        (200, &old_root),
        "the v1 revision is found, no v2 twin"
    );
    let (s, new_root) = post_json(&client, &server, None, r#"{"b":2}"#).await;
    assert_eq!(s, 201);
    assert!(new_root["key"].as_str().unwrap().starts_with("rev:v2:"));
    assert!(new_root["content_hash"]
        .as_str()
        .unwrap()
        .starts_with("blake3:"));
    // Parents may be of either scheme.
    let (s, child_of_v1) = post_json(&client, &server, Some(&old_root_key), r#"{"c":3}"#).await;
    assert_eq!(s, 201);
    assert!(child_of_v1["key"].as_str().unwrap().starts_with("rev:v2:"));
    let child_key = child_of_v1["key"].as_str().unwrap().to_string();
    let (s, grandchild) = post_json(&client, &server, Some(&child_key), r#"{"d":4}"#).await;
    assert_eq!(s, 201);
    let history_path = format!(
        "/v1/revisions/{}/history",
        grandchild["key"].as_str().unwrap()
    );
    let history = get_json(&client, &server, &history_path).await;
    let schemes: Vec<_> = history["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["scheme"].as_str().unwrap())
        .collect();
    assert_eq!(schemes, ["v2", "v2", "v1"]);
    assert_eq!(db.counts().await.0, 4);
}

on_both_backends!(
    concurrent_identical_registrations_create_one_revision,
    a_client_that_disconnects_then_retries_gets_the_same_revision,
    scheme_migration_finds_old_revisions_and_keys_new_ones_with_the_new_scheme,
);

/// Two server processes on one PostgreSQL, the same request to both at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_one_postgres_create_one_revision() {
    let db = fresh_db(Backend::Postgres).await;
    let (a, b) = (Server::start(&db, &[]), Server::start(&db, &[]));
    let client = client();
    let urls = (0..100)
        .map(|i| (if i % 2 == 0 { &a } else { &b }).url("/v1/revisions"))
        .collect();
    let answers = post_all(&client, urls, r#"{"same":"request"}"#).await;
    assert_eq!(answers.iter().filter(|(s, _)| *s == 201).count(), 1);
    assert_eq!(answers.iter().filter(|(s, _)| *s == 200).count(), 99);
    assert!(answers.iter().all(|(_, body)| *body == answers[0].1));
    assert_eq!(db.counts().await, (1, 1));
}
