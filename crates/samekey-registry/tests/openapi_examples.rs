//! Every example of openapi.json (which the documentation's HTTP API page shows as a curl
//! call and its answer) sent to a registry, in the document's order, and the answer
//! compared with the example: the same status class, the same JSON but for `created_at`,
//! which must be an RFC 3339 time. A route with examples but no success example fails.
//! And the document's key patterns: a request they allow is never refused as malformed,
//! one they refuse always is, and every revision the registry answers matches its schema's
//! patterns (an OpenAPI fuzzer sent `?parent=`, which the document allowed, and got 400).

mod common;

use common::{app, call, fresh_db, request, Backend};
use serde_json::Value;

fn without_times(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            if let Some(t) = map.get_mut("created_at") {
                let text = t.as_str().unwrap_or_default();
                assert!(
                    chrono_like(text),
                    "created_at {text:?} is not an RFC 3339 UTC time"
                );
                *t = Value::Null;
            }
            for (_, field) in map.iter_mut() {
                *field = without_times(field.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_times(item.take());
            }
        }
        _ => {}
    }
    v
}

/// `YYYY-MM-DDTHH:MM:SS(.fff)Z`.
fn chrono_like(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() >= 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && t.ends_with('Z')
        && t[..19].bytes().filter(u8::is_ascii_digit).count() == 14
}

#[tokio::test]
async fn every_example_of_openapi_json_is_what_the_registry_answers() {
    let doc: Value = serde_json::from_str(include_str!("../openapi.json")).unwrap();
    let db = fresh_db(Backend::Sqlite).await;
    let app = app(&db, &[]).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some((status, want)) =
                op["responses"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .find_map(|(s, r)| {
                        Some((s.clone(), r.pointer("/content/application~1json/example")?))
                    })
            else {
                continue;
            };
            let mut uri = path.clone();
            for p in op["parameters"].as_array().into_iter().flatten() {
                if let Some(example) = p["example"].as_str() {
                    uri = uri.replace(&format!("{{{}}}", p["name"].as_str().unwrap()), example);
                }
            }
            let body = op
                .pointer("/requestBody/content/application~1json/example")
                .map(|b| b.to_string().into_bytes())
                .unwrap_or_default();
            let headers: &[(&str, &str)] = if body.is_empty() {
                &[]
            } else {
                &[("content-type", "application/json")]
            };
            let (got, _, answer) =
                call(&app, request(&method.to_uppercase(), &uri, headers, body)).await;
            assert_eq!(
                got.to_string(),
                status,
                "{method} {uri}: {}",
                String::from_utf8_lossy(&answer)
            );
            let answer: Value = serde_json::from_slice(&answer).unwrap();
            assert_eq!(
                without_times(answer),
                without_times(want.clone()),
                "{method} {uri}"
            );
            checked += 1;
        }
    }
    // POST /v1/revisions, the revision, its data, its history, /healthz.
    assert!(checked >= 5, "{checked} examples");
}

/// The pattern of every parameter named `key` or `parent`: one, the same everywhere.
fn key_pattern(doc: &Value) -> regex::Regex {
    let mut patterns = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if matches!(p["name"].as_str(), Some("key" | "parent")) {
                    let pattern = p.pointer("/schema/pattern").and_then(Value::as_str);
                    assert!(
                        pattern.is_some(),
                        "{method} {path}: {} has no pattern",
                        p["name"]
                    );
                    patterns.push(pattern.unwrap().to_string());
                }
            }
        }
    }
    let revision = &doc["components"]["schemas"]["Revision"]["properties"];
    for name in ["key", "parent"] {
        let pattern = revision[name]["pattern"].as_str();
        assert!(pattern.is_some(), "Revision.{name} has no pattern");
        patterns.push(pattern.unwrap().to_string());
    }
    patterns.dedup();
    assert_eq!(patterns.len(), 1, "key patterns differ: {patterns:?}");
    regex::Regex::new(&patterns[0]).unwrap()
}

/// Every pattern of the Revision schema holds for this revision's values.
fn matches_revision_schema(doc: &Value, revision: &Value) {
    let properties = doc["components"]["schemas"]["Revision"]["properties"]
        .as_object()
        .unwrap();
    for (name, schema) in properties {
        if let (Some(pattern), Some(value)) = (schema["pattern"].as_str(), revision[name].as_str())
        {
            let re = regex::Regex::new(pattern).unwrap();
            assert!(
                re.is_match(value),
                "Revision.{name} {value:?} does not match {pattern}"
            );
        }
    }
}

/// Percent-encoding of everything but letters, digits and `:`, for a query or a path.
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b':' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn key_patterns_are_what_the_registry_accepts() {
    let doc: Value = serde_json::from_str(include_str!("../openapi.json")).unwrap();
    let pattern = key_pattern(&doc);
    let db = fresh_db(Backend::Sqlite).await;
    // A ring that finds both schemes: every key the pattern allows names one it knows.
    let app = app(&db, &["--scheme", "v2", "--accept", "v1"]).await;
    let json = [("content-type", "application/json")];
    let (status, _, body) = call(&app, request("POST", "/v1/revisions", &json, "{}")).await;
    assert_eq!(status, 201);
    let v2: Value = serde_json::from_slice(&body).unwrap();
    matches_revision_schema(&doc, &v2);
    let v2 = v2["key"].as_str().unwrap().to_string();
    let digest = v2.rsplit(':').next().unwrap().to_string();
    let child_uri = format!("/v1/revisions?parent={}", escape(&v2));
    let (status, _, body) = call(&app, request("POST", &child_uri, &json, "[]")).await;
    assert_eq!(status, 201);
    matches_revision_schema(&doc, &serde_json::from_slice(&body).unwrap());

    let samples = [
        v2.clone(),
        format!("rev:v1:{digest}"),
        format!("rev:v1:{}", digest.to_uppercase()),
        format!("rev:V2:{digest}"),
        format!("rev:v0:{digest}"),
        format!("rev:v3:{digest}"),
        format!("rev:v2:{}", &digest[1..]),
        format!("rev:v2:{digest}0"),
        format!("rev:v2:{}g", &digest[1..]),
        format!("sha256:{digest}"),
        format!(" {v2}"),
        format!("{v2}\n"),
        "rev:v2:".to_string(),
        String::new(),
    ];
    let mut allowed = 0;
    for sample in &samples {
        let allows = pattern.is_match(sample);
        allowed += usize::from(allows);
        let mut uris = vec![format!("POST /v1/revisions?parent={}", escape(sample))];
        if !sample.is_empty() {
            // An empty path segment is another route, not a key.
            uris.push(format!("GET /v1/revisions/{}", escape(sample)));
        }
        for line in uris {
            let (method, uri) = line.split_once(' ').unwrap();
            let (status, _, body) = call(&app, request(method, uri, &json, "{\"n\": 1}")).await;
            let answer = String::from_utf8_lossy(&body);
            if allows {
                assert_ne!(
                    status, 400,
                    "{line}: the document allows {sample:?}: {answer}"
                );
            } else {
                assert_eq!(
                    status, 400,
                    "{line}: the document refuses {sample:?}: {answer}"
                );
            }
        }
    }
    assert!(
        allowed >= 2 && allowed < samples.len(),
        "{allowed} of {} allowed",
        samples.len()
    );
}
