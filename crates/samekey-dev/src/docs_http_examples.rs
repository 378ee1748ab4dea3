//! An operation's example on the HTTP API page: the request as a curl command and the
//! answer, both from the OpenAPI document's `example`s (a parameter's, the request body's,
//! the first success response's). crates/samekey-registry/tests/openapi_examples.rs sends
//! each to a registry and compares its answer, so the page shows what a registry answers.

use serde_json::Value;

/// The Markdown of `op`'s example, or None when its success response has none.
pub fn example(method: &str, path: &str, op: &Value) -> Result<Option<String>, String> {
    let Some((status, answer)) = success_example(op) else {
        return Ok(None);
    };
    let mut target = path.to_string();
    for p in op
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(name), Some(value)) = (p.get("name").and_then(Value::as_str), p.get("example"))
        else {
            continue;
        };
        let value = value
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| value.to_string());
        match p.get("in").and_then(Value::as_str) {
            Some("path") => target = target.replace(&format!("{{{name}}}"), &value),
            Some("query") => {
                let sep = if target.contains('?') { '&' } else { '?' };
                target = format!("{target}{sep}{name}={value}");
            }
            _ => {}
        }
    }
    if target.contains('{') {
        return Err(format!(
            "{} {path}: a path parameter without an example",
            method.to_uppercase()
        ));
    }
    let mut curl = String::from("curl");
    if method != "get" {
        curl.push_str(&format!(" -X {}", method.to_uppercase()));
    }
    curl.push_str(&format!(" \"$SAMEKEY_URL{target}\""));
    if op.get("security").is_some() {
        curl.push_str(" -H \"authorization: Bearer $SAMEKEY_TOKEN\"");
    }
    if let Some(body) = op.pointer("/requestBody/content/application~1json/example") {
        curl.push_str(&format!(
            " \\\n  -H 'content-type: application/json' -d '{body}'"
        ));
    }
    let answer = serde_json::to_string_pretty(answer).map_err(|e| e.to_string())?;
    Ok(Some(format!(
        "Example:\n\n```sh\n{curl}\n```\n\nanswers `{status}`:\n\n```json\n{answer}\n```\n\n"
    )))
}

/// The first 2xx response that has a JSON example.
fn success_example(op: &Value) -> Option<(&str, &Value)> {
    op.get("responses")?
        .as_object()?
        .iter()
        .find_map(|(status, r)| {
            let example = r.pointer("/content/application~1json/example")?;
            status
                .starts_with('2')
                .then_some((status.as_str(), example))
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_request_and_the_answer_come_from_the_examples() {
        let op = json!({
            "parameters": [{"name": "key", "in": "path", "example": "rev:v1:ab"}, {"name": "limit", "in": "query", "example": 2}],
            "security": [{}, {"bearer": []}],
            "responses": {"200": {"content": {"application/json": {"example": {"a": 1}}}}}
        });
        let page = super::example("get", "/v1/revisions/{key}/history", &op)
            .unwrap()
            .unwrap();
        assert!(page.contains("curl \"$SAMEKEY_URL/v1/revisions/rev:v1:ab/history?limit=2\" -H \"authorization: Bearer $SAMEKEY_TOKEN\"\n"), "{page}");
        assert!(
            page.contains("answers `200`:\n\n```json\n{\n  \"a\": 1\n}\n```"),
            "{page}"
        );
        let post = json!({
            "requestBody": {"content": {"application/json": {"example": {"rows": 3}}}},
            "responses": {"400": {}, "201": {"content": {"application/json": {"example": {"k": "x"}}}}}
        });
        let page = super::example("post", "/v1/revisions", &post)
            .unwrap()
            .unwrap();
        assert!(page.contains("curl -X POST \"$SAMEKEY_URL/v1/revisions\" \\\n  -H 'content-type: application/json' -d '{\"rows\":3}'"), "{page}");
        assert!(
            super::example("get", "/x", &json!({"responses": {"200": {}}}))
                .unwrap()
                .is_none()
        );
        let missing = json!({"parameters": [{"name": "key", "in": "path"}], "responses": {"200": {"content": {"application/json": {"example": 1}}}}});
        assert!(super::example("get", "/v1/{key}", &missing).is_err());
    }
}
