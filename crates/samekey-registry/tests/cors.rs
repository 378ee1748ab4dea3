//! CORS (`--cors-origin`): preflights of allowed origins answered before authentication,
//! every answer to them marked (problem documents too), other origins left out. The same
//! from a real page in Chromium: `tests/cors/browser.mjs`, run by `just registry::test`.

mod common;

use axum::http::HeaderMap;
use common::{app, call, fresh_db, problem, request, token_file, Backend};

const APP: &str = "http://app.test:5173";
const TOKEN: &str = "cors-test-token";

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap())
}

fn preflight(origin: &str, method: &str) -> axum::http::Request<axum::body::Body> {
    request(
        "OPTIONS",
        "/v1/revisions",
        &[
            ("origin", origin),
            ("access-control-request-method", method),
            (
                "access-control-request-headers",
                "authorization, content-type",
            ),
        ],
        "",
    )
}

#[tokio::test]
async fn without_the_flag_nothing_names_an_origin() {
    let db = fresh_db(Backend::Sqlite).await;
    let app = app(&db, &[]).await;
    let (status, headers, body) = call(&app, preflight(APP, "POST")).await;
    assert_eq!(
        problem(status, &headers, &body),
        (405, "method_not_allowed".into())
    );
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
    let (status, headers, _) = call(&app, request("GET", "/healthz", &[("origin", APP)], "")).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "access-control-allow-origin"), None);
}

#[tokio::test]
async fn an_allowed_origin_is_answered_before_authentication_and_marked_everywhere() {
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", TOKEN);
    let app = app(
        &db,
        &[
            "--token-file",
            &tokens,
            "--cors-origin",
            APP,
            "--cors-origin",
            "https://other.test",
        ],
    )
    .await;

    // The preflight carries no token and is answered anyway.
    let (status, headers, body) = call(&app, preflight(APP, "POST")).await;
    assert_eq!(status, 204, "{}", String::from_utf8_lossy(&body));
    assert_eq!(header(&headers, "access-control-allow-origin"), Some(APP));
    assert_eq!(
        header(&headers, "access-control-allow-methods"),
        Some("GET, HEAD, POST")
    );
    let allowed = header(&headers, "access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    assert!(
        allowed.contains("authorization") && allowed.contains("content-type"),
        "{allowed}"
    );
    assert!(header(&headers, "access-control-max-age").is_some());
    assert!(header(&headers, "vary").unwrap().contains("Origin"));
    assert_eq!(header(&headers, "access-control-allow-credentials"), None);

    // A method the API does not have is not preflighted: the 405 allows no method, and
    // a browser refuses any preflight that is not a 2xx.
    let (status, headers, _) = call(&app, preflight(APP, "DELETE")).await;
    assert_eq!(status, 405);
    assert_eq!(header(&headers, "access-control-allow-methods"), None);

    // The write with its token: created, readable by the page, its Location exposed.
    let post = |auth: Option<&str>| {
        let mut h = vec![("origin", APP), ("content-type", "application/json")];
        if let Some(a) = auth {
            h.push(("authorization", a));
        }
        request("POST", "/v1/revisions", &h, r#"{"rows":3}"#)
    };
    let bearer = format!("Bearer {TOKEN}");
    let (status, headers, _) = call(&app, post(Some(&bearer))).await;
    assert_eq!(status, 201);
    assert_eq!(header(&headers, "access-control-allow-origin"), Some(APP));
    assert!(header(&headers, "access-control-expose-headers")
        .unwrap()
        .contains("Location"));

    // A refusal is a problem document the page can read, with its challenge.
    let (status, headers, body) = call(&app, post(None)).await;
    assert_eq!(
        problem(status, &headers, &body),
        (401, "unauthorized".into())
    );
    assert_eq!(header(&headers, "access-control-allow-origin"), Some(APP));
    assert!(header(&headers, "access-control-expose-headers")
        .unwrap()
        .contains("WWW-Authenticate"));

    // The second origin too; each answer names only the origin that asked.
    let (status, headers, _) = call(&app, preflight("https://other.test", "GET")).await;
    assert_eq!(status, 204);
    assert_eq!(
        header(&headers, "access-control-allow-origin"),
        Some("https://other.test")
    );
}

#[tokio::test]
async fn other_origins_are_left_out() {
    let db = fresh_db(Backend::Sqlite).await;
    let app = app(&db, &["--cors-origin", APP]).await;
    for origin in [
        "http://evil.test",
        "http://app.test",
        "http://app.test:5174",
        "https://app.test:5173",
        "null",
    ] {
        let (status, headers, _) = call(&app, preflight(origin, "POST")).await;
        assert_eq!(status, 405, "{origin}");
        assert_eq!(
            header(&headers, "access-control-allow-origin"),
            None,
            "{origin}"
        );
        let (status, headers, _) =
            call(&app, request("GET", "/healthz", &[("origin", origin)], "")).await;
        assert_eq!(status, 200);
        assert_eq!(
            header(&headers, "access-control-allow-origin"),
            None,
            "{origin}"
        );
        // Caches keep the answers to different origins apart.
        assert!(
            header(&headers, "vary").unwrap().contains("Origin"),
            "{origin}"
        );
    }
}

#[test]
fn a_wildcard_or_a_malformed_origin_is_a_usage_error() {
    for bad in [
        "*",
        "https://*.example.com",
        "app.test",
        "https://app.test/",
        "ftp://app.test",
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_samekey-registry"))
            .args(["--database", "sqlite::memory:", "--cors-origin", bad])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(
            stderr.contains("--cors-origin") || stderr.contains("origin"),
            "{bad}: {stderr}"
        );
    }
}
