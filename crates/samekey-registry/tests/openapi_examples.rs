//! Every example of openapi.json (which the documentation's HTTP API page shows as a curl
//! call and its answer) sent to a registry, in the document's order, and the answer
//! compared with the example: the same status class, the same JSON but for `created_at`,
//! which must be an RFC 3339 time. A route with examples but no success example fails.

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
