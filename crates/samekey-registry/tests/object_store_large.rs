//! A revision far larger than one part, through one POST to a registry whose data is in
//! an object store on a SeaweedFS cluster: streamed into a multipart upload in bounded
//! server memory, a cut upload leaving nothing once gc has run, JSON kept to its limit.

mod common;

use std::time::Duration;

use common::objects::{data, payload, register, serve, store, PREFIX};
use common::seaweed::Cluster;
use common::{client, fresh_db, post, Backend};
use samekey_registry::store::gc::collect;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_large_body_streams_through_a_multipart_upload_in_bounded_memory() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("large").await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = serve(&cluster, &db, "large");
    let c = client();
    let before = common::memory(server.pid()).1;
    // 300 MiB, over the database's 16 MiB default: the object store's default is 5 GiB.
    let big = payload(42, 300 << 20);
    let expected = samekey::content_hash(samekey::Scheme::V1, &big)
        .unwrap()
        .to_string();
    let r = post(
        &c,
        &server.url("/v1/revisions"),
        "application/octet-stream",
        big.clone(),
    )
    .await;
    assert_eq!(r.status().as_u16(), 201);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["content_hash"], expected.as_str());
    assert_eq!(body["size"], 300 << 20);
    let key = body["key"].as_str().unwrap().to_string();
    let peak = common::memory(server.pid()).1;
    eprintln!(
        "300 MiB registered: server peak RSS {} MiB (at start {})",
        peak >> 20,
        before >> 20
    );
    assert!(
        peak < before + (96 << 20),
        "peak RSS {} MiB, {} at start",
        peak >> 20,
        before >> 20
    );
    // Again: the revision exists, nothing new is kept (the staged copy is deleted).
    assert_eq!(register(&c, &server, big.clone()).await, (200, key.clone()));
    let served = data(&c, &server, &key).await.unwrap();
    assert!(served == big, "the data served is not the data sent");
    let objects = cluster.objects("large", PREFIX).await;
    let names: Vec<&str> = objects.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names.len(), 1, "one object, no staged copy left: {names:?}");
    // A large body cut off mid-way leaves no revision, and gc removes what it staged.
    let mut sock = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    use tokio::io::AsyncWriteExt;
    let head = format!(
        "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
        64 << 20
    );
    sock.write_all(head.as_bytes()).await.unwrap();
    sock.write_all(&payload(43, 20 << 20)).await.unwrap();
    drop(sock);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(db.counts().await, (1, 1));
    let registry = db.open().await;
    let r = collect(&registry, &store(&cluster, "large"), Duration::ZERO)
        .await
        .unwrap();
    registry.close().await;
    assert_eq!(cluster.objects("large", PREFIX).await.len(), 1, "{r:?}");
    // JSON is read whole: its limit stays the database's 16 MiB.
    let json = format!("[\"{}\"]", "x".repeat(17 << 20));
    let r = post(&c, &server.url("/v1/revisions"), "application/json", json).await;
    assert_eq!(r.status().as_u16(), 413);
}
