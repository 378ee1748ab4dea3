//! A database written by the previous release's own binary, upgraded by this build: the
//! old `samekey serve` (SAMEKEY_PREVIOUS_RELEASE names it; `just registry::test` builds it
//! from the release's commit) registers revisions under v1 and v2 rings as a rolling
//! deploy of that release did, twins included; then two servers of this build start on the
//! database at once. Every key a client was told must still name its revision, with its
//! bytes, and registering the same data again must answer a key a client was told.
//!
//! Ignored unless asked for: `cargo test -p samekey-registry --test upgrade_release --
//! --include-ignored` with SAMEKEY_PREVIOUS_RELEASE set (what `just registry::test` runs).

mod common;

use std::process::Command;

use common::{client, fresh_db, get_json, get_text, post, post_json, Backend, Server, TestDb};

fn previous_release(db: &TestDb, ring: &[&str]) -> Server {
    let path = std::env::var("SAMEKEY_PREVIOUS_RELEASE").unwrap_or_else(|_| {
        panic!("SAMEKEY_PREVIOUS_RELEASE must name the previous release's samekey binary (just registry::test builds it)")
    });
    let mut program = Command::new(path);
    program.arg("serve");
    Server::start_program(program, db, ring, &[])
}

/// One registration and what its client was told.
struct Told {
    json: &'static str,
    parent: Option<String>,
    status: u16,
    key: String,
}

async fn register(server: &Server, json: &'static str, parent: Option<&str>) -> Told {
    let (status, body) = post_json(&client(), server, parent, json).await;
    assert!(status == 200 || status == 201, "{json}: {status} {body}");
    let key = body["key"].as_str().unwrap().to_string();
    Told {
        json,
        parent: parent.map(str::to_string),
        status,
        key,
    }
}

async fn upgrade(backend: Backend) {
    let db = fresh_db(backend).await;
    let mut told = Vec::new();
    // The release's rollout, one process at a time (SQLite has one writer): v1 first...
    let v1 = previous_release(&db, &["--scheme", "v1"]);
    told.push(register(&v1, r#"{"a":1}"#, None).await);
    told.push(register(&v1, r#"{"c":3}"#, None).await);
    let parent = told[0].key.clone();
    told.push(register(&v1, r#"{"a":2}"#, Some(&parent)).await);
    drop(v1);
    // ...then the switched ring, which finds c under v1 and creates t under v2...
    let v2 = previous_release(&db, &["--scheme", "v2", "--accept", "v1"]);
    told.push(register(&v2, r#"{"c":3}"#, None).await);
    told.push(register(&v2, r#"{"t":1}"#, None).await);
    told.push(register(&v2, r#"{"b":2}"#, Some(&parent)).await);
    drop(v2);
    // ...and an old process still serving: the release made a v1 twin of t.
    let late = previous_release(&db, &["--scheme", "v1"]);
    told.push(register(&late, r#"{"t":1}"#, None).await);
    drop(late);
    assert_eq!(told[3].key, told[1].key, "the release found c under v1");
    assert_ne!(
        told[6].key, told[4].key,
        "the release's twin of t, as the issue found it"
    );
    assert_eq!((told[4].status, told[6].status), (201, 201));

    // This build, two servers at once: one migrates, the other waits for it.
    let url = db.url.clone();
    let start = move || {
        Server::start(
            &TestDb::at(url.clone()),
            &["--scheme", "v2", "--accept", "v1"],
        )
    };
    let (a, b) = tokio::join!(
        tokio::task::spawn_blocking(start.clone()),
        tokio::task::spawn_blocking(start)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    let handle = db.open().await;
    let versions: Vec<i64> = samekey_registry::on_pool!(&handle, pool => {
        sqlx::query_scalar("SELECT version FROM registry_schema ORDER BY version")
            .fetch_all(pool).await.unwrap()
    });
    assert_eq!(
        versions,
        (1..=samekey_registry::store::schema::VERSION).collect::<Vec<_>>(),
        "this build migrated the release's database, once"
    );
    let client = client();
    for t in &told {
        for server in [&a, &b] {
            // Every key a client was told still names its revision, with its bytes.
            let revision = get_json(&client, server, &format!("/v1/revisions/{}", t.key)).await;
            assert_eq!(
                revision["key"].as_str(),
                Some(t.key.as_str()),
                "{}: {revision}",
                t.json
            );
            let data = get_text(&client, server, &format!("/v1/revisions/{}/data", t.key)).await;
            assert_eq!(data, t.json);
            // The same data again creates nothing and answers a key a client was told for it.
            let (status, body) = post_json(&client, server, t.parent.as_deref(), t.json).await;
            assert_eq!(status, 200, "{}: {body}", t.json);
            let answered = body["key"].as_str().unwrap();
            assert!(
                told.iter()
                    .any(|o| o.json == t.json && o.parent == t.parent && o.key == answered),
                "{}: answered {answered}, which no client was told",
                t.json
            );
        }
    }
    // The twin's both keys answer with one revision: the elder, t's v2 creation.
    let (_, again) = post_json(&client, &a, None, r#"{"t":1}"#).await;
    assert_eq!(again["key"].as_str(), Some(told[4].key.as_str()));
    // New data still works, under this build's ring.
    let response = post(
        &client,
        &a.url("/v1/revisions"),
        "application/json",
        r#"{"new":1}"#,
    )
    .await;
    assert_eq!(response.status().as_u16(), 201);
    assert_eq!(
        db.counts().await.0,
        7,
        "nothing merged, nothing lost: 6 revisions of the release and the new one"
    );
}

#[tokio::test]
#[ignore = "needs SAMEKEY_PREVIOUS_RELEASE (just registry::test builds it)"]
async fn a_database_the_previous_release_wrote_is_upgraded_on_sqlite() {
    upgrade(Backend::Sqlite).await;
}

#[tokio::test]
#[ignore = "needs SAMEKEY_PREVIOUS_RELEASE (just registry::test builds it)"]
async fn a_database_the_previous_release_wrote_is_upgraded_on_postgres() {
    upgrade(Backend::Postgres).await;
}
