//! A database written by samekey 0.2 (schema 1: tables made with IF NOT EXISTS, no version
//! table, revisions under their created key only), upgraded by a server that starts on it:
//! every revision keeps its key, twins that 0.2's mixed-ring rollouts made are marked, two
//! servers starting at once both start, and a database newer than the build is refused.

mod common;

use common::{client, fresh_db, post_json, Backend, Server, TestDb};
use samekey::{content_hash, derive_revision, Scheme};
use sqlx::Row;

/// What samekey 0.2 created at start and inserted per registration, as its db.rs wrote it.
async fn write_schema_1(db: &TestDb, payloads: &[(&str, Scheme)]) -> Vec<String> {
    let bytes = if db.url.starts_with("sqlite:") {
        "BLOB"
    } else {
        "BYTEA"
    };
    let statements = [
        "CREATE TABLE IF NOT EXISTS registry_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)".to_string(),
        format!("CREATE TABLE IF NOT EXISTS contents (hash TEXT PRIMARY KEY, media_type TEXT NOT NULL, data {bytes} NOT NULL)"),
        "CREATE TABLE IF NOT EXISTS revisions (key TEXT PRIMARY KEY, parent TEXT REFERENCES revisions(key), \
         scheme TEXT NOT NULL, content_hash TEXT NOT NULL REFERENCES contents(hash), media_type TEXT NOT NULL, \
         size BIGINT NOT NULL, created_at_ms BIGINT NOT NULL)".to_string(),
        "CREATE INDEX IF NOT EXISTS revisions_parent ON revisions(parent)".to_string(),
    ];
    let mut keys = Vec::new();
    macro_rules! write {
        ($pool:expr) => {{
            let pool = $pool;
            for s in &statements {
                sqlx::query(s).execute(&pool).await.unwrap();
            }
            for (i, (json, scheme)) in payloads.iter().enumerate() {
                let data = json.as_bytes();
                let hash = content_hash(*scheme, data).unwrap();
                let key = derive_revision(*scheme, None, &hash, None).unwrap().to_string();
                sqlx::query("INSERT INTO contents (hash, media_type, data) VALUES ($1, 'application/json', $2) ON CONFLICT (hash) DO NOTHING")
                    .bind(hash.to_string()).bind(data.to_vec()).execute(&pool).await.unwrap();
                sqlx::query("INSERT INTO revisions (key, parent, scheme, content_hash, media_type, size, created_at_ms) \
                             VALUES ($1, NULL, $2, $3, 'application/json', $4, $5)")
                    .bind(&key).bind(scheme.as_str()).bind(hash.to_string()).bind(data.len() as i64).bind(i as i64)
                    .execute(&pool).await.unwrap();
                keys.push(key);
            }
            pool.close().await;
        }};
    }
    if db.url.starts_with("sqlite:") {
        let options: sqlx::sqlite::SqliteConnectOptions = db.url.parse().unwrap();
        write!(
            sqlx::SqlitePool::connect_with(options.create_if_missing(true))
                .await
                .unwrap()
        );
    } else {
        write!(sqlx::PgPool::connect(&db.url).await.unwrap());
    }
    keys
}

async fn upgrade(backend: Backend) {
    let db = fresh_db(backend).await;
    // Two v1 revisions, one v2 revision, and a twin: payload c under both schemes, as a
    // mixed-ring rollout of 0.2 made it.
    let old = write_schema_1(
        &db,
        &[
            (r#"{"a":1}"#, Scheme::V1),
            (r#"{"b":2}"#, Scheme::V1),
            (r#"{"c":3}"#, Scheme::V1),
            (r#"{"c":3}"#, Scheme::V2),
            (r#"{"d":4}"#, Scheme::V2),
        ],
    )
    .await;
    // Two servers start at once: one migrates, the other waits for it and finds nothing to do.
    let (a, b) = tokio::join!(
        tokio::task::spawn_blocking({
            let url = db.url.clone();
            move || Server::start(&TestDb::at(url), &["--scheme", "v2", "--accept", "v1"])
        }),
        tokio::task::spawn_blocking({
            let url = db.url.clone();
            move || Server::start(&TestDb::at(url), &["--scheme", "v2", "--accept", "v1"])
        })
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    let client = client();
    for (json, key) in [
        r#"{"a":1}"#,
        r#"{"b":2}"#,
        r#"{"c":3}"#,
        r#"{"c":3}"#,
        r#"{"d":4}"#,
    ]
    .iter()
    .zip(&old)
    {
        for server in [&a, &b] {
            let (status, body) = post_json(&client, server, None, json).await;
            assert_eq!(status, 200, "{json}: {body}");
            if *json != r#"{"c":3}"# {
                assert_eq!(
                    body["key"].as_str(),
                    Some(key.as_str()),
                    "{json} keeps its key"
                );
            } else {
                // The older of the twins answers for both.
                assert_eq!(body["key"].as_str(), Some(old[2].as_str()));
            }
        }
    }
    let handle = db.open().await;
    let versions: Vec<i64> = common_rows(
        &handle,
        "SELECT version FROM registry_schema ORDER BY version",
    )
    .await;
    assert_eq!(
        versions,
        (1..=samekey_registry::store::schema::VERSION).collect::<Vec<_>>(),
        "each migration recorded once"
    );
    let twins: Vec<i64> = common_rows(
        &handle,
        "SELECT COUNT(*) FROM revisions WHERE twin_of IS NOT NULL",
    )
    .await;
    assert_eq!(twins, [1], "the younger twin is marked");
    assert_eq!(db.counts().await.0, 5, "nothing merged, nothing lost");
    drop((a, b));

    // A database a newer samekey upgraded: refused, naming both versions.
    on(&handle, "INSERT INTO registry_schema (version, description, applied_at_ms) VALUES (99, 'future', 0)").await;
    let why = Server::refused(&db, &[]);
    assert!(
        why.contains("schema is version 99, newer than this samekey"),
        "{why}"
    );
}

async fn common_rows(db: &samekey_registry::Db, sql: &str) -> Vec<i64> {
    samekey_registry::on_pool!(db, pool => {
        let rows = sqlx::query(sql).fetch_all(pool).await.unwrap();
        rows.iter().map(|r| r.try_get::<i64, _>(0).unwrap()).collect()
    })
}

async fn on(db: &samekey_registry::Db, sql: &str) {
    samekey_registry::on_pool!(db, pool => {
        sqlx::query(sql).execute(pool).await.unwrap();
    });
}

#[tokio::test]
async fn a_schema_1_database_is_upgraded_on_sqlite() {
    upgrade(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_schema_1_database_is_upgraded_on_postgres() {
    upgrade(Backend::Postgres).await;
}
