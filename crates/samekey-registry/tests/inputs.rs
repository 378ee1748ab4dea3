//! Reads, every bad input (with nothing stored), tokens, the OpenAPI document, and a
//! graceful shutdown that finishes the request in flight.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::{client, fresh_db, get_json, post_json, Backend, Server};

async fn reads_return_metadata_data_and_history(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &[]);
    let client = client();
    let (_, root) = post_json(&client, &server, None, r#"{"z": 1.50, "a": "x"}"#).await;
    let root_key = root["key"].as_str().unwrap();
    let child = client
        .post(server.url(&format!("/v1/revisions?parent={root_key}")))
        .header("content-type", "application/octet-stream")
        .body(vec![0u8, 159, 146, 150])
        .send()
        .await
        .unwrap();
    assert_eq!(child.status(), 201);
    let child: serde_json::Value = child.json().await.unwrap();
    let child_key = child["key"].as_str().unwrap();
    assert_eq!(child["parent"], root["key"]);
    assert_eq!(child["size"], 4);

    let get = |path: String| client.get(server.url(&path)).send();
    let meta = get_json(&client, &server, &format!("/v1/revisions/{child_key}")).await;
    assert_eq!(meta, child);
    let data = get(format!("/v1/revisions/{root_key}/data")).await.unwrap();
    assert_eq!(data.headers()["content-type"], "application/json");
    assert_eq!(
        data.text().await.unwrap(),
        r#"{"a":"x","z":1.5}"#,
        "JSON is stored in canonical form"
    );
    let data = get(format!("/v1/revisions/{child_key}/data"))
        .await
        .unwrap();
    assert_eq!(data.headers()["content-type"], "application/octet-stream");
    assert_eq!(data.bytes().await.unwrap().as_ref(), [0u8, 159, 146, 150]);
    let history = get_json(
        &client,
        &server,
        &format!("/v1/revisions/{child_key}/history"),
    )
    .await;
    assert_eq!(history["revisions"], serde_json::json!([child, root]));
    let one = get_json(
        &client,
        &server,
        &format!("/v1/revisions/{child_key}/history?limit=1"),
    )
    .await;
    assert_eq!(one["revisions"].as_array().unwrap().len(), 1);
}

async fn error(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    (status, body["error"]["code"].as_str().unwrap().to_string())
}

async fn every_bad_input_is_refused_and_nothing_is_stored(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &["--body-limit", "1024"]);
    let client = client();
    let post = |query: &str, content_type: Option<&str>, body: Vec<u8>| {
        let mut r = client
            .post(server.url(&format!("/v1/revisions{query}")))
            .body(body);
        if let Some(t) = content_type {
            r = r.header("content-type", t);
        }
        r.send()
    };
    let json = Some("application/json");
    let zeros = format!("rev:v1:{}", "0".repeat(64));
    // (query, content type, body, status, code)
    type Case = (String, Option<&'static str>, Vec<u8>, u16, &'static str);
    let q = |s: &str| s.to_string();
    let cases: Vec<Case> = vec![
        (q(""), json, vec![b' '; 2048], 413, "payload_too_large"),
        (
            q(""),
            Some("application/octet-stream"),
            vec![0; 1025],
            413,
            "payload_too_large",
        ),
        (q(""), json, b"{\"a\":".to_vec(), 400, "invalid_json"),
        (
            q(""),
            json,
            b"{\"a\":1,\"a\":2}".to_vec(),
            400,
            "duplicate_key",
        ),
        (
            q(""),
            json,
            b"12345678901234567890".to_vec(),
            400,
            "number_out_of_range",
        ),
        (q(""), json, b"\"\xff\"".to_vec(), 400, "invalid_string"),
        (
            q(""),
            Some("text/plain"),
            b"{}".to_vec(),
            415,
            "unsupported_media_type",
        ),
        (q(""), None, b"{}".to_vec(), 415, "unsupported_media_type"),
        (
            q("?parent=rev:v1:xyz"),
            json,
            b"{}".to_vec(),
            400,
            "invalid_key",
        ),
        (
            q("?parent=sha256:00"),
            json,
            b"{}".to_vec(),
            400,
            "invalid_key",
        ),
        (q("?parent="), json, b"{}".to_vec(), 400, "invalid_key"),
        (
            format!("?parent={zeros}"),
            json,
            b"{}".to_vec(),
            422,
            "unknown_parent",
        ),
        (
            format!("?parent=rev:v2:{}", "0".repeat(64)),
            json,
            b"{}".to_vec(),
            400,
            "scheme_not_accepted",
        ),
    ];
    for (query, content_type, body, status, code) in cases {
        let got = error(post(&query, content_type, body).await.unwrap()).await;
        assert_eq!(
            got,
            (status, code.to_string()),
            "POST {query} {content_type:?}"
        );
    }
    for (path, status, code) in [
        ("/v1/revisions/rev:v1:nothex", 400, "invalid_key"),
        (&format!("/v1/revisions/{zeros}") as &str, 404, "not_found"),
        (&format!("/v1/revisions/{zeros}/data"), 404, "not_found"),
        (&format!("/v1/revisions/{zeros}/history"), 404, "not_found"),
    ] {
        assert_eq!(
            error(client.get(server.url(path)).send().await.unwrap()).await,
            (status, code.to_string()),
            "GET {path}"
        );
    }
    assert_eq!(db.counts().await, (0, 0), "nothing was stored");
}

async fn writes_need_the_token_when_one_is_set(backend: Backend) {
    let db = fresh_db(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    let server = Server::start(&db, &["--token-file", token_file.to_str().unwrap()]);
    let client = client();
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("Bearer s3cret-toke"),
        Some("s3cret-token"),
    ] {
        let mut r = client
            .post(server.url("/v1/revisions"))
            .header("content-type", "application/json")
            .body("{}");
        if let Some(a) = auth {
            r = r.header("authorization", a);
        }
        assert_eq!(
            error(r.send().await.unwrap()).await,
            (401, "unauthorized".into()),
            "{auth:?}"
        );
    }
    assert_eq!(db.counts().await, (0, 0));
    let r = client
        .post(server.url("/v1/revisions"))
        .header("content-type", "application/json")
        .header("authorization", "Bearer s3cret-token")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let key = r.json::<serde_json::Value>().await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    // Reads stay open.
    assert_eq!(
        client
            .get(server.url(&format!("/v1/revisions/{key}")))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

async fn sigterm_finishes_the_request_in_flight(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &[]);
    let body = r#"{"in":"flight"}"#;
    let mut socket = TcpStream::connect(server.addr()).unwrap();
    write!(socket, "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()).unwrap();
    socket.write_all(&body.as_bytes()[..5]).unwrap();
    socket.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    server.sigterm();
    std::thread::sleep(std::time::Duration::from_millis(200));
    socket.write_all(&body.as_bytes()[5..]).unwrap();
    let mut answer = String::new();
    socket.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(server.wait().success(), "exits 0 after the request");
    assert_eq!(db.counts().await, (1, 1));
}

on_both_backends!(
    reads_return_metadata_data_and_history,
    every_bad_input_is_refused_and_nothing_is_stored,
    writes_need_the_token_when_one_is_set,
    sigterm_finishes_the_request_in_flight,
);

/// The served document is the checked-in one, and it lists exactly the router's routes.
#[tokio::test]
async fn openapi_document_matches_the_routes() {
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &[]);
    let served = client()
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(served, samekey_registry::api::OPENAPI);
    let doc: serde_json::Value = serde_json::from_str(&served).unwrap();
    let mut documented: Vec<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.clone(), path.clone()))
        })
        .collect();
    let mut routes: Vec<(String, String)> = samekey_registry::api::ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    documented.sort();
    routes.sort();
    assert_eq!(documented, routes);
    assert_eq!(doc["info"]["version"], samekey::VERSION);
}
