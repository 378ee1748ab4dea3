//! A body the database cannot store as one value (SQLite's longest blob is 1,000,000,000
//! bytes, PostgreSQL's `bytea` 1 GiB) is a 413 that states the limit, at once and on both
//! databases, even when `--body-limit` allows more: before, a 1.1 GB body with a 2 GB
//! limit reached the insert and came back as a retryable `503 database_unavailable`.

mod common;

use common::{app, call, fresh_db, problem, request, Backend};

async fn a_body_past_the_database_is_413_with_its_limit(backend: Backend) {
    let db = fresh_db(backend).await;
    let app = app(&db, &["--body-limit", "2000000000"]).await;
    for media_type in ["application/octet-stream", "application/json"] {
        let headers = [
            ("content-type", media_type),
            ("content-length", "1100000000"),
        ];
        let (status, h, body) = call(&app, request("POST", "/v1/revisions", &headers, "")).await;
        let (got, code) = problem(status, &h, &body);
        assert_eq!(
            (got, code.as_str()),
            (413, "payload_too_large"),
            "{media_type}"
        );
        let detail: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(
            detail["detail"]
                .as_str()
                .unwrap()
                .contains(&samekey_registry::DATABASE_MAX_BODY.to_string()),
            "{detail}"
        );
    }
}

#[tokio::test]
async fn a_body_past_what_sqlite_stores_is_413_with_its_limit() {
    a_body_past_the_database_is_413_with_its_limit(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_body_past_what_postgres_stores_is_413_with_its_limit() {
    a_body_past_the_database_is_413_with_its_limit(Backend::Postgres).await;
}
