//! The whole rollout from v1 to v2 under load and faults, on PostgreSQL: two servers take
//! the same payloads at the same time (two loads of one seed) while each step restarts
//! them with the next ring by kill -9, the database's connections are cut mid-transaction,
//! and `require v2` and `retire v1` run. Every answer is recorded; afterwards every
//! acknowledged revision must be readable with its bytes and parent, one (parent, data)
//! must be one revision whatever its scheme, and every client of one (parent, data) must
//! have been told one key (common::history). The model's interleavings are replayed one
//! by one in model_replay.rs; this is the same protocol with real timing and real faults.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::history::{check, History, Outcome};
use common::load::{observe, register_during, Shape};
use common::proxy::Proxy;
use common::{fresh_db, Backend, Server, TestDb};
use samekey::Scheme;

const QUIET: (&str, &str) = ("RUST_LOG", "off");

fn port(addr: &str) -> u16 {
    addr.rsplit(':').next().unwrap().parse().unwrap()
}

/// A server behind a front proxy that keeps its address across restarts.
struct Front {
    proxy: Proxy,
    server: Option<Server>,
    via: TestDb,
}

impl Front {
    async fn start(via: &TestDb, ring: &[&str]) -> Front {
        let server = Server::start_with_env(via, ring, &[QUIET]);
        let proxy = Proxy::start(port(&server.addr())).await;
        Front {
            proxy,
            server: Some(server),
            via: TestDb::at(via.url.clone()),
        }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.proxy.port)
    }

    /// kill -9, then the same database with `ring`, at the same address.
    fn redeploy(&mut self, ring: &[&str]) {
        self.server.take().unwrap().kill9();
        self.proxy.cut();
        let server = Server::start_with_env(&self.via, ring, &[QUIET]);
        self.proxy.retarget(port(&server.addr()));
        self.server = Some(server);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_rollout_under_load_with_kill_9_and_cut_connections() {
    let db = fresh_db(Backend::Postgres).await;
    let pg_port = port(db.url.split('@').nth(1).unwrap().split('/').next().unwrap());
    let cuttable = Proxy::start(pg_port).await;
    let via = TestDb::at(db.url.replacen(
        &format!(":{pg_port}/"),
        &format!(":{}/", cuttable.port),
        1,
    ));
    let mut a = Front::start(&via, &["--scheme", "v1"]).await;
    let mut b = Front::start(&via, &["--scheme", "v1"]).await;
    let (a_base, b_base) = (a.base(), b.base());
    let history = Arc::new(History::default());
    let shape = Shape {
        workers: 4,
        body: 2048,
        repeat_every: 6,
        child_every: 5,
    };
    let (stop_b, stopped) = tokio::sync::oneshot::channel::<()>();
    let admin = db.open().await;
    let steps = async {
        let pause = || tokio::time::sleep(Duration::from_millis(400));
        let mut cut = 0;
        for (ring, then) in [
            (&["--scheme", "v1", "--accept", "v2"][..], Some("require")),
            (&["--scheme", "v2", "--accept", "v1"][..], Some("retire")),
            (&["--scheme", "v2"][..], None),
        ] {
            pause().await;
            b.redeploy(ring);
            cut += cuttable.cut();
            pause().await;
            a.redeploy(ring);
            pause().await;
            cut += cuttable.cut();
            match then {
                Some("require") => {
                    samekey_registry::store::schemes::require(&admin, Scheme::V2, None)
                        .await
                        .unwrap();
                }
                Some(_) => samekey_registry::store::schemes::retire(&admin, Scheme::V1)
                    .await
                    .unwrap(),
                None => {}
            }
        }
        pause().await;
        let _ = stop_b.send(());
        cut
    };
    let b_load = register_during(&b_base, &history, shape, 42, async {
        let _ = stopped.await;
    });
    let (cut, ()) = tokio::join!(register_during(&a_base, &history, shape, 42, steps), b_load);
    assert!(cut > 0, "no database connection was open to cut");

    let server = a.server.as_ref().unwrap();
    let (stored, all) = observe(&server.base, &history, &db).await;
    let problems = check(&history.ops(), &stored, &all);
    let (acked, failed) = history.counts();
    let created_twice = history
        .ops()
        .iter()
        .filter(|op| matches!(op.outcome, Outcome::Acked { status: 200, .. }))
        .count();
    eprintln!(
        "rollout under faults: {acked} acknowledged ({created_twice} found existing), {failed} failed, \
         {} revisions, {cut} connections cut, {} violations",
        all.len(),
        problems.len()
    );
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(
        acked >= 100,
        "too little load to mean anything: {acked} acknowledged"
    );
    assert!(
        created_twice > 0,
        "the two loads never sent the same data: no race was tried"
    );
    for op in history.ops() {
        if let Outcome::Failed(why) = &op.outcome {
            // A parent named by a key of a scheme the answering ring does not accept (a
            // v2 key to a v1 server, a v1 key after the contract) is the client's error.
            if why == "400 scheme_not_accepted" {
                assert!(
                    op.parent.is_some(),
                    "{why} for a registration without a parent"
                );
                continue;
            }
            assert!(
                why == "503 database_unavailable"
                    || why == "503 scheme_required"
                    || why.starts_with("no answer")
                    || why.contains("body cut short"),
                "a failed registration was answered {why:?}"
            );
        }
    }
    let integrity = admin.integrity_problems().await.unwrap();
    assert!(integrity.is_empty(), "integrity: {integrity:?}");
    drop(b);
}
