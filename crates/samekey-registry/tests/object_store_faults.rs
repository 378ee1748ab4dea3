//! The object store's faults seen from the registry, through a TCP proxy between the
//! registry and a SeaweedFS cluster's S3 gateway: connections cut mid-upload (single
//! objects and multipart parts), and a store slowed to a trickle. Every registration is
//! recorded with what its client was told, and the history checker (common::history)
//! reads the registry afterwards, its data from the store: nothing acknowledged is lost or
//! changed, no (parent, data) has two keys; gc then deletes only what no revision names.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::history::{check, History};
use common::load::{observe_with, register, register_during, Shape};
use common::objects::{payload, serve_with, store};
use common::proxy::Proxy;
use common::seaweed::Cluster;
use common::{client, fresh_db, Backend, Server, TestDb};
use samekey_registry::store::gc::collect;

/// A registry whose store is reached through `proxy`; data past `inline_limit` bytes goes
/// to the store.
fn serve(
    cluster: &Cluster,
    proxy: &Proxy,
    db: &TestDb,
    bucket: &str,
    inline_limit: &str,
) -> Server {
    let endpoint = format!("http://127.0.0.1:{}", proxy.port);
    serve_with(
        cluster,
        db,
        bucket,
        Some(&endpoint),
        &["--inline-limit", inline_limit],
    )
}

/// The history checker on everything `history` recorded, the data read from the store.
async fn checked(server: &Server, history: &History, db: &TestDb, cluster: &Cluster, bucket: &str) {
    let objects = store(cluster, bucket);
    let (stored, all) = observe_with(&server.url(""), history, db, Some(&objects)).await;
    let problems = check(&history.ops(), &stored, &all);
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn connections_to_the_store_cut_mid_upload_lose_nothing_acknowledged() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("cut").await;
    let proxy = Proxy::start(cluster.s3_port).await;
    let db = fresh_db(Backend::Postgres).await;
    let server = serve(&cluster, &proxy, &db, "cut", "0");
    let history = Arc::new(History::default());
    // Single objects (256 KiB), then multipart uploads (12 MiB: two parts), each while
    // every connection to the store is cut every 150 ms.
    let mut cut = 0;
    for (body, workers, seed) in [(256 << 10, 6, 1), (12 << 20, 2, 2)] {
        let shape = Shape {
            workers,
            body,
            repeat_every: 4,
            child_every: 5,
        };
        cut += register_during(&server.url(""), &history, shape, seed, async {
            let mut cut = 0;
            for _ in 0..40 {
                tokio::time::sleep(Duration::from_millis(150)).await;
                cut += proxy.cut();
            }
            cut
        })
        .await;
    }
    let (acked, failed) = history.counts();
    println!("store connections cut {cut} times mid-traffic: {acked} registrations acknowledged, {failed} not");
    assert!(cut > 0 && acked > 0, "cut {cut}, acknowledged {acked}");
    checked(&server, &history, &db, &cluster, "cut").await;
    // gc with no grace: what the cuts left is deleted, nothing a revision names.
    let registry = db.open().await;
    let r = collect(&registry, &store(&cluster, "cut"), Duration::ZERO)
        .await
        .unwrap();
    registry.close().await;
    println!("gc after the cuts: {r:?}");
    checked(&server, &history, &db, &cluster, "cut").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_slow_store_slows_only_what_goes_to_it() {
    let cluster = Cluster::start(2).await;
    cluster.bucket("slow").await;
    let proxy = Proxy::start(cluster.s3_port).await;
    let db = fresh_db(Backend::Sqlite).await;
    // The default inline limit: 64 KiB.
    let server = serve(&cluster, &proxy, &db, "slow", "65536");
    let base = server.url("");
    // 256 KiB/s each way: a 1 MiB object takes about four seconds to go in.
    proxy.throttle(256 << 10);
    let history = Arc::new(History::default());
    let big = {
        let (base, history) = (base.clone(), history.clone());
        tokio::spawn(async move {
            let started = Instant::now();
            let bytes = payload(7, 1 << 20);
            let outcome = register(&client(), &base, &bytes, None).await;
            history.record(bytes, None, outcome);
            started.elapsed()
        })
    };
    // Meanwhile small registrations, which stay in the database, answer at once.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let c = client();
    let mut slowest = Duration::ZERO;
    for i in 0..20 {
        let bytes = payload(100 + i, 1000);
        let started = Instant::now();
        let outcome = register(&c, &base, &bytes, None).await;
        slowest = slowest.max(started.elapsed());
        history.record(bytes, None, outcome);
    }
    let took = big.await.unwrap();
    let (acked, failed) = history.counts();
    println!(
        "store at 256 KiB/s: 1 MiB registered in {took:?}; 20 small registrations meanwhile, the slowest {slowest:?}; {acked} acknowledged, {failed} not"
    );
    assert_eq!((acked, failed), (21, 0));
    assert!(
        took > Duration::from_secs(2),
        "the throttle did not hold: {took:?}"
    );
    assert!(
        slowest < Duration::from_secs(1),
        "a small registration waited {slowest:?}"
    );
    proxy.throttle(0);
    checked(&server, &history, &db, &cluster, "slow").await;
}
