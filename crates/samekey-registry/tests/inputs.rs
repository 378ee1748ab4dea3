//! Reads over HTTP, the OpenAPI document, and a graceful shutdown that finishes the
//! request in flight. (Bad inputs and tokens: `problems.rs`, in process.)

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::{client, fresh_db, get_json, get_text, post, post_json, Backend, Server};

async fn reads_return_metadata_data_and_history(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &[]);
    let client = client();
    let (_, root) = post_json(&client, &server, None, r#"{"z": 1.50, "a": "x"}"#).await;
    let root_key = root["key"].as_str().unwrap();
    let url = server.url(&format!("/v1/revisions?parent={root_key}"));
    let child = post(
        &client,
        &url,
        "application/octet-stream",
        vec![0u8, 159, 146, 150],
    )
    .await;
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
    sigterm_finishes_the_request_in_flight,
);

/// The served document is the checked-in one, and it lists exactly the router's routes.
#[tokio::test]
async fn openapi_document_matches_the_routes() {
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &[]);
    let served = get_text(&client(), &server, "/openapi.json").await;
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
    // Every documented failure is a problem document.
    let problem = &doc["components"]["responses"]["Error"]["content"];
    assert!(
        problem.get("application/problem+json").is_some(),
        "{problem}"
    );
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            for (status, response) in op["responses"].as_object().unwrap() {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        response["$ref"], "#/components/responses/Error",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}
