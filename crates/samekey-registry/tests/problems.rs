//! In process (`Router::oneshot`): every bad input answers an RFC 9457 problem with a code
//! and stores nothing; what can be refused is refused before the body is read; tokens and
//! their scopes; strict parameters; /metrics.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use common::{app, call, fresh_db, problem, request, token_file, Backend};

const JSON: (&str, &str) = ("content-type", "application/json");

type Headers<'a> = Vec<(&'a str, &'a str)>;
/// (method, uri, headers, body, status, code)
type Case<'a> = (&'a str, String, Headers<'a>, Vec<u8>, u16, &'a str);

async fn every_bad_input_is_a_problem_and_nothing_is_stored(backend: Backend) {
    let db = fresh_db(backend).await;
    let app = app(&db, &["--body-limit", "1024"]).await;
    let zeros = format!("rev:v1:{}", "0".repeat(64));
    let octets = ("content-type", "application/octet-stream");
    let big = "x".repeat(20 * 1024);
    let many: Vec<(String, String)> = (0..101).map(|i| (format!("x-h{i}"), "v".into())).collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON],
            vec![b' '; 2048],
            413,
            "payload_too_large",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![octets],
            vec![0; 1025],
            413,
            "payload_too_large",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON, ("content-length", "1073741824")],
            b"{}".to_vec(),
            413,
            "payload_too_large",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON],
            b"{\"a\":".to_vec(),
            400,
            "invalid_json",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON],
            b"{\"a\":1,\"a\":2}".to_vec(),
            400,
            "duplicate_key",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON],
            b"12345678901234567890".to_vec(),
            400,
            "number_out_of_range",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![JSON],
            b"\"\xff\"".to_vec(),
            400,
            "invalid_string",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![("content-type", "text/plain")],
            b"{}".to_vec(),
            415,
            "unsupported_media_type",
        ),
        (
            "POST",
            "/v1/revisions".into(),
            vec![],
            b"{}".to_vec(),
            415,
            "unsupported_media_type",
        ),
        (
            "POST",
            "/v1/revisions?parent=rev:v1:xyz".into(),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "invalid_key",
        ),
        (
            "POST",
            "/v1/revisions?parent=sha256:00".into(),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "invalid_key",
        ),
        (
            "POST",
            "/v1/revisions?parent=".into(),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "invalid_key",
        ),
        (
            "POST",
            format!("/v1/revisions?parent={zeros}"),
            vec![JSON],
            b"{}".to_vec(),
            422,
            "unknown_parent",
        ),
        (
            "POST",
            format!("/v1/revisions?parent=rev:v2:{}", "0".repeat(64)),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "scheme_not_accepted",
        ),
        // A typo must not silently mean "no parent".
        (
            "POST",
            format!("/v1/revisions?parnet={zeros}"),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "invalid_query",
        ),
        (
            "POST",
            format!("/v1/revisions?parent={zeros}&parent={zeros}"),
            vec![JSON],
            b"{}".to_vec(),
            400,
            "invalid_query",
        ),
        (
            "GET",
            "/v1/revisions/rev:v1:nothex".into(),
            vec![],
            vec![],
            400,
            "invalid_key",
        ),
        (
            "GET",
            "/v1/revisions/%FF%FE".into(),
            vec![],
            vec![],
            400,
            "invalid_path",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}"),
            vec![],
            vec![],
            404,
            "not_found",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/data"),
            vec![],
            vec![],
            404,
            "not_found",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/history"),
            vec![],
            vec![],
            404,
            "not_found",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}?verbose=1"),
            vec![],
            vec![],
            400,
            "invalid_query",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/history?limit=abc"),
            vec![],
            vec![],
            400,
            "invalid_query",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/history?limit=0"),
            vec![],
            vec![],
            400,
            "invalid_query",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/history?limit=1001"),
            vec![],
            vec![],
            400,
            "invalid_query",
        ),
        (
            "GET",
            format!("/v1/revisions/{zeros}/history?limt=5"),
            vec![],
            vec![],
            400,
            "invalid_query",
        ),
        (
            "GET",
            "/v2/revisions".into(),
            vec![],
            vec![],
            404,
            "not_found",
        ),
        ("GET", "/".into(), vec![], vec![], 404, "not_found"),
        (
            "GET",
            "/v1/revisions".into(),
            vec![],
            vec![],
            405,
            "method_not_allowed",
        ),
        (
            "DELETE",
            format!("/v1/revisions/{zeros}"),
            vec![],
            vec![],
            405,
            "method_not_allowed",
        ),
        (
            "GET",
            "/healthz".into(),
            vec![("x-big", big.as_str())],
            vec![],
            431,
            "headers_too_large",
        ),
        (
            "GET",
            "/healthz".into(),
            many.clone(),
            vec![],
            431,
            "headers_too_large",
        ),
    ];
    for (method, uri, headers, body, status, code) in cases {
        let (got_status, got_headers, got_body) =
            call(&app, request(method, &uri, &headers, body)).await;
        assert_eq!(
            problem(got_status, &got_headers, &got_body),
            (status, code.to_string()),
            "{method} {uri}: {}",
            String::from_utf8_lossy(&got_body)
        );
        if status == 405 {
            assert!(
                got_headers.contains_key("allow"),
                "405 names the methods allowed"
            );
        }
    }
    let (_, _, body) = call(
        &app,
        request(
            "POST",
            &format!("/v1/revisions?parnet={zeros}"),
            &[JSON],
            "{}",
        ),
    )
    .await;
    assert!(
        String::from_utf8_lossy(&body).contains("parnet"),
        "the unknown parameter is named: {}",
        String::from_utf8_lossy(&body)
    );
    assert_eq!(db.counts().await, (0, 0), "nothing was stored");
}

/// A body that records whether anyone read it.
fn watched_body(read: Arc<AtomicBool>) -> Body {
    struct Watched(Arc<AtomicBool>, bool);
    impl http_body::Body for Watched {
        type Data = Bytes;
        type Error = std::io::Error;
        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, std::io::Error>>> {
            self.0.store(true, Ordering::SeqCst);
            let done = std::mem::replace(&mut self.1, true);
            std::task::Poll::Ready(
                (!done).then(|| Ok(http_body::Frame::data(Bytes::from_static(b"{}")))),
            )
        }
    }
    Body::new(Watched(read, false))
}

/// 401, 403, 413 (declared), 415 and 400 for the query are all answered without reading
/// a byte of the body; a good request reads it.
#[tokio::test]
async fn refusals_come_before_the_body_is_read() {
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let writes = token_file(&dir, "w", "w-token\n");
    let reads = token_file(&dir, "r", "r-token\n");
    let app = app(
        &db,
        &[
            "--token-file",
            &writes,
            "--read-token-file",
            &reads,
            "--body-limit",
            "100",
        ],
    )
    .await;
    let cases: Vec<(Headers, &str, u16)> = vec![
        (vec![JSON], "/v1/revisions", 401),
        (
            vec![JSON, ("authorization", "Bearer nope")],
            "/v1/revisions",
            401,
        ),
        (
            vec![JSON, ("authorization", "Bearer r-token")],
            "/v1/revisions",
            403,
        ),
        (
            vec![
                JSON,
                ("authorization", "Bearer w-token"),
                ("content-length", "101"),
            ],
            "/v1/revisions",
            413,
        ),
        (
            vec![
                ("authorization", "Bearer w-token"),
                ("content-type", "text/csv"),
            ],
            "/v1/revisions",
            415,
        ),
        (
            vec![JSON, ("authorization", "Bearer w-token")],
            "/v1/revisions?parnet=x",
            400,
        ),
    ];
    for (headers, uri, status) in cases {
        let read = Arc::new(AtomicBool::new(false));
        let (got, h, body) = call(
            &app,
            request("POST", uri, &headers, watched_body(read.clone())),
        )
        .await;
        problem(got, &h, &body);
        assert_eq!(got, status, "{headers:?} {uri}");
        assert!(
            !read.load(Ordering::SeqCst),
            "{status}: the body was not read"
        );
    }
    let read = Arc::new(AtomicBool::new(false));
    let ok = request(
        "POST",
        "/v1/revisions",
        &[JSON, ("authorization", "Bearer w-token")],
        watched_body(read.clone()),
    );
    assert_eq!(call(&app, ok).await.0, 201);
    assert!(read.load(Ordering::SeqCst));
}

/// RFC 9112 §3.2: a request with no Host field, or two, is a 400 `invalid_host`.
#[tokio::test]
async fn a_request_needs_exactly_one_host() {
    let db = fresh_db(Backend::Sqlite).await;
    let app = app(&db, &[]).await;
    let none = axum::http::Request::builder()
        .uri("/healthz")
        .body(Body::empty())
        .unwrap();
    let two = request(
        "GET",
        "/healthz",
        &[("host", "a.test"), ("host", "b.test")],
        Body::empty(),
    );
    for (what, r) in [("no Host", none), ("two Hosts", two)] {
        let (status, headers, body) = call(&app, r).await;
        assert_eq!(
            problem(status, &headers, &body),
            (400, "invalid_host".to_string()),
            "{what}"
        );
    }
    let (status, _, _) = call(&app, request("GET", "/healthz", &[], Body::empty())).await;
    assert_eq!(status, 200, "one Host");
}

#[tokio::test]
async fn tokens_scopes_and_challenges() {
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    // Two write tokens (rotation), trailing spaces and CRLF trimmed; one read token.
    let writes = token_file(&dir, "w", "old-token  \r\nnew-token\n");
    let reads = token_file(&dir, "r", "reader\n");
    let app = app(&db, &["--token-file", &writes, "--read-token-file", &reads]).await;
    let post = |auth: &str, body: &'static str| {
        let mut h = vec![JSON];
        if !auth.is_empty() {
            h.push(("authorization", auth));
        }
        request("POST", "/v1/revisions", &h, body)
    };
    let (status, _, body) = call(&app, post("Bearer old-token", r#"{"n":1}"#)).await;
    assert_eq!(status, 201);
    let key = serde_json::from_slice::<serde_json::Value>(&body).unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    for auth in ["bearer new-token", "BEARER old-token", "Bearer  new-token"] {
        assert_eq!(call(&app, post(auth, r#"{"n":1}"#)).await.0, 200, "{auth}");
    }
    for (auth, status, code, challenge) in [
        (
            "",
            401,
            "unauthorized",
            r#"Bearer realm="samekey-registry""#,
        ),
        (
            "Bearer old-toke",
            401,
            "unauthorized",
            r#"Bearer realm="samekey-registry", error="invalid_token""#,
        ),
        (
            "Basic b2xkLXRva2Vu",
            401,
            "unauthorized",
            r#"Bearer realm="samekey-registry""#,
        ),
        (
            "Bearer reader",
            403,
            "forbidden",
            r#"Bearer realm="samekey-registry", error="insufficient_scope""#,
        ),
    ] {
        let (s, h, b) = call(&app, post(auth, r#"{"n":2}"#)).await;
        assert_eq!(problem(s, &h, &b), (status, code.to_string()), "{auth:?}");
        assert_eq!(h["www-authenticate"], challenge, "{auth:?}");
    }
    let get = |path: String, auth: &'static str| {
        let h: Vec<(&str, &str)> = if auth.is_empty() {
            vec![]
        } else {
            vec![("authorization", auth)]
        };
        request("GET", &path, &h, Body::empty())
    };
    for path in [
        format!("/v1/revisions/{key}"),
        format!("/v1/revisions/{key}/data"),
        format!("/v1/revisions/{key}/history"),
        "/metrics".into(),
    ] {
        let (s, h, b) = call(&app, get(path.clone(), "")).await;
        assert_eq!(
            problem(s, &h, &b),
            (401, "unauthorized".into()),
            "{path} needs a token"
        );
        for auth in ["Bearer reader", "Bearer new-token"] {
            assert_eq!(
                call(&app, get(path.clone(), auth)).await.0,
                200,
                "{path} {auth}"
            );
        }
    }
    for open in ["/healthz", "/openapi.json"] {
        assert_eq!(
            call(&app, get(open.into(), "")).await.0,
            200,
            "{open} is open"
        );
    }
    assert_eq!(db.counts().await, (1, 1));

    let public = common::app(&db, &["--token-file", &writes, "--public-reads"]).await;
    assert_eq!(
        call(&public, get(format!("/v1/revisions/{key}/data"), ""))
            .await
            .0,
        200
    );
    let (s, h, b) = call(&public, post("", "{}")).await;
    assert_eq!(
        problem(s, &h, &b),
        (401, "unauthorized".into()),
        "writes still need a token"
    );
}

/// Registrations created and found, errors by code, latency by route, in-flight
/// requests and the database pools, in the Prometheus text format.
#[tokio::test]
async fn metrics_count_outcomes_errors_and_latency() {
    let db = fresh_db(Backend::Sqlite).await;
    let app = app(&db, &[]).await;
    for body in [r#"{"m":1}"#, r#"{"m":1}"#, r#"{"m":"#] {
        call(&app, request("POST", "/v1/revisions", &[JSON], body)).await;
    }
    call(&app, request("GET", "/nowhere", &[], Body::empty())).await;
    let (status, headers, body) = call(&app, request("GET", "/metrics", &[], Body::empty())).await;
    assert_eq!(status, 200);
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = String::from_utf8(body.to_vec()).unwrap();
    let samples = parse_exposition(&text);
    let value = |series: &str| {
        samples
            .iter()
            .find(|(s, _)| s == series)
            .unwrap_or_else(|| panic!("no {series} in\n{text}"))
            .1
    };
    for (series, expected) in [
        (
            r#"samekey_registry_registrations_total{outcome="created"}"#,
            1.0,
        ),
        (
            r#"samekey_registry_registrations_total{outcome="found"}"#,
            1.0,
        ),
        (r#"samekey_registry_errors_total{code="invalid_json"}"#, 1.0),
        (r#"samekey_registry_errors_total{code="not_found"}"#, 1.0),
        (
            r#"samekey_registry_request_duration_seconds_count{route="/v1/revisions"}"#,
            3.0,
        ),
        (
            r#"samekey_registry_request_duration_seconds_bucket{route="/v1/revisions",le="+Inf"}"#,
            3.0,
        ),
        (
            r#"samekey_registry_request_duration_seconds_count{route="unmatched"}"#,
            1.0,
        ),
        // The scrape itself.
        ("samekey_registry_requests_in_flight", 1.0),
        (r#"samekey_registry_db_connections_max{pool="writes"}"#, 1.0),
    ] {
        assert_eq!(value(series), expected, "{series}");
    }
    assert!(value(r#"samekey_registry_db_connections{pool="reads",state="idle"}"#) >= 0.0);
}

/// Every sample line as (series, value); checks the text format on the way: each
/// family's HELP and TYPE come before its samples, names and labels are well formed,
/// histogram buckets are cumulative.
fn parse_exposition(text: &str) -> Vec<(String, f64)> {
    let mut typed: Vec<(String, String)> = Vec::new();
    let mut samples = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
            typed.push((name.to_string(), kind.to_string()));
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line:?}"));
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("value of {line:?}"));
        let name = series.split('{').next().unwrap();
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "{line}"
        );
        if let Some(labels) = series.strip_prefix(name) {
            if !labels.is_empty() {
                let inner = labels
                    .strip_prefix('{')
                    .and_then(|l| l.strip_suffix('}'))
                    .unwrap();
                for pair in inner.split("\",") {
                    let (k, v) = pair.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
                    assert!(
                        k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                        "{line}"
                    );
                    assert!(!v.contains('\n'), "{line}");
                }
            }
        }
        let (family, kind) = typed
            .last()
            .unwrap_or_else(|| panic!("{line} before any TYPE"));
        let base = if kind == "histogram" {
            ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|s| name.strip_suffix(s))
                .unwrap_or(name)
        } else {
            name
        };
        assert_eq!(base, family, "{line} is under its own family");
        samples.push((series.to_string(), value));
    }
    // Buckets of one route never decrease.
    let mut last: Option<(String, f64)> = None;
    for (series, v) in &samples {
        if let Some(route) =
            series.strip_prefix("samekey_registry_request_duration_seconds_bucket{")
        {
            let route = route.split(",le=").next().unwrap().to_string();
            if let Some((r, prev)) = &last {
                if *r == route {
                    assert!(v >= prev, "{series}");
                }
            }
            last = Some((route, *v));
        }
    }
    samples
}

on_both_backends!(every_bad_input_is_a_problem_and_nothing_is_stored);
