//! The documentation's page of the registry's HTTP API (docs/src/reference/http-api.md),
//! written from the OpenAPI document the server serves (crates/samekey-registry/openapi.json,
//! itself checked against the server's routes by the registry's tests), so the page cannot
//! describe an API the server does not have.

use crate::generated::{File, Mode, Output};
use serde_json::Value;
use std::path::Path;

const PAGE: &str = "docs/src/reference/http-api.md";
const OPENAPI: &str = "crates/samekey-registry/openapi.json";
const METHODS: [&str; 5] = ["get", "put", "post", "patch", "delete"];

pub fn run(root: &Path, _: Mode) -> Result<Output, String> {
    let text =
        std::fs::read_to_string(root.join(OPENAPI)).map_err(|e| format!("{OPENAPI}: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{OPENAPI}: {e}"))?;
    Ok(Output::Files(vec![File {
        path: PAGE.into(),
        contents: page(&doc)?,
    }]))
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> Result<&'a str, String> {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{OPENAPI}: no string at {pointer}"))
}

/// Markdown table cells hold one line and no bare `|`.
fn cell(text: &str) -> String {
    literal_angles(text).replace('|', "\\|").replace('\n', " ")
}

/// OpenAPI's descriptions are plain text that Markdown would misread outside code spans:
/// `rev:<scheme>:<hex>` means the words (Markdown would take `<scheme>` for an HTML tag,
/// so `<` is written as `&lt;`), and a flag such as `--scheme` is a code span (the site's
/// typography would make its `--` an en dash, and a copied flag would fail).
fn literal_angles(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 0 {
                flags_as_code(&part.replace('<', "&lt;"))
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// Each `--name` that starts a word, as a code span.
fn flags_as_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let starts_word = rest[..at]
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == '(');
        let name_len = rest[at + 2..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(rest.len() - at - 2);
        out.push_str(&rest[..at]);
        let flag = &rest[at..at + 2 + name_len];
        if starts_word && rest[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push('`');
            out.push_str(flag);
            out.push('`');
        } else {
            out.push_str(flag);
        }
        rest = &rest[at + 2 + name_len..];
    }
    out.push_str(rest);
    out
}

/// `#/components/schemas/Revision` → a link to the schema's section on this page.
fn schema_name(schema: &Value) -> String {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap_or(r);
            format!("[{name}](#schema-{})", name.to_lowercase())
        }
        None => match schema.get("type") {
            Some(Value::String(t)) => match schema.get("format").and_then(Value::as_str) {
                Some(f) => format!("{t} ({f})"),
                None => t.clone(),
            },
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" or "),
            _ => "any JSON".into(),
        },
    }
}

/// A schema's pattern as a sentence for the meaning column (a table cell: `|` escaped even
/// in the code span, as GitHub's tables and mdBook's read it).
fn pattern_note(schema: Option<&Value>) -> String {
    schema
        .and_then(|s| s.get("pattern"))
        .and_then(Value::as_str)
        .map(|p| format!(" Matches `{}`.", p.replace('|', "\\|")))
        .unwrap_or_default()
}

/// A response, following one `$ref` into `components/responses`.
fn resolve<'a>(doc: &'a Value, v: &'a Value) -> Result<&'a Value, String> {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => doc
            .pointer(r.trim_start_matches('#'))
            .ok_or_else(|| format!("{OPENAPI}: {r} does not resolve")),
        None => Ok(v),
    }
}

fn operation(
    doc: &Value,
    method: &str,
    path: &str,
    op: &Value,
    out: &mut String,
) -> Result<(), String> {
    let id = op
        .get("operationId")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{OPENAPI}: {method} {path} has no operationId"))?;
    let summary = op.get("summary").and_then(Value::as_str).unwrap_or("");
    out.push_str(&format!(
        "## `{} {path}` {{#{id}}}\n\n{summary}.",
        method.to_uppercase()
    ));
    let open = op
        .get("security")
        .and_then(Value::as_array)
        .is_none_or(|s| {
            s.iter()
                .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
        });
    let bearer = op.get("security").is_some();
    out.push_str(match (bearer, open) {
        (false, _) => " No token needed.\n\n",
        (true, true) => " A [bearer token](#authentication) when the server has tokens.\n\n",
        (true, false) => " A [bearer token](#authentication).\n\n",
    });
    if let Some(params) = op.get("parameters").and_then(Value::as_array) {
        out.push_str("| parameter | in | required | type | meaning |\n|---|---|---|---|---|\n");
        for p in params {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                str_at(p, "/name")?,
                str_at(p, "/in")?,
                if p.get("required").and_then(Value::as_bool).unwrap_or(false) {
                    "yes"
                } else {
                    "no"
                },
                p.get("schema").map(schema_name).unwrap_or_default(),
                cell(p.get("description").and_then(Value::as_str).unwrap_or(""))
                    + &pattern_note(p.get("schema")),
            ));
        }
        out.push('\n');
    }
    if let Some(body) = op.get("requestBody") {
        out.push_str("| request body | type | meaning |\n|---|---|---|\n");
        for (media, content) in body
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            out.push_str(&format!(
                "| `{media}` | {} | {} |\n",
                content.get("schema").map(schema_name).unwrap_or_default(),
                cell(
                    content
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                ),
            ));
        }
        out.push('\n');
    }
    out.push_str("| status | meaning | body |\n|---|---|---|\n");
    let responses = op
        .get("responses")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("{OPENAPI}: {method} {path} has no responses"))?;
    // Statuses that share one response (the problem details of every error) share a row.
    let mut rows: Vec<(Vec<&str>, String, String)> = Vec::new();
    for (status, response) in responses {
        let response = resolve(doc, response)?;
        let body = response
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(media, c)| match c.get("schema") {
                Some(s) if !s.as_object().is_some_and(|o| o.is_empty()) => {
                    format!("`{media}`: {}", schema_name(s))
                }
                _ => format!("`{media}`"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let meaning = cell(
            response
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or(""),
        );
        match rows.last_mut() {
            Some((statuses, m, b)) if *m == meaning && *b == body => statuses.push(status),
            _ => rows.push((vec![status.as_str()], meaning, body)),
        }
    }
    for (statuses, meaning, body) in rows {
        out.push_str(&format!(
            "| {} | {meaning} | {body} |\n",
            statuses.join(", ")
        ));
    }
    out.push('\n');
    if let Some(example) = crate::docs_http_examples::example(method, path, op)? {
        out.push_str(&example);
    }
    Ok(())
}

fn page(doc: &Value) -> Result<String, String> {
    let mut out = format!(
        "<!-- Written by `cargo xtask generate docs-http-api` from {OPENAPI}: edit that, not \
         this page. -->\n\n# The registry's HTTP API\n\n{}\n\nThe machine-readable document: \
         [openapi.json](openapi.json) (OpenAPI {}, version {}), also served by every \
         registry at `/openapi.json`. Error codes are explained on the \
         [error-code page](errors.md); the registry's own (authentication, limits, storage) \
         in [its README](https://github.com/samekey/samekey/blob/main/crates/samekey-registry/README.md).\n\n",
        literal_angles(str_at(doc, "/info/description")?),
        str_at(doc, "/openapi")?,
        str_at(doc, "/info/version")?,
    );
    out.push_str("## Authentication {#authentication}\n\n");
    for (name, scheme) in doc
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.push_str(&format!(
            "`{name}` ({} {}): {}\n\n",
            str_at(scheme, "/type")?,
            scheme.get("scheme").and_then(Value::as_str).unwrap_or(""),
            literal_angles(
                scheme
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("")
            )
        ));
    }
    let paths = doc
        .get("paths")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("{OPENAPI}: no paths"))?;
    // The revision routes first (what users come for), then the operational ones.
    let mut ordered: Vec<_> = paths.iter().collect();
    ordered.sort_by_key(|(p, _)| (!p.starts_with("/v1/"), p.as_str()));
    for (path, item) in ordered {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                operation(doc, method, path, op, &mut out)?;
            }
        }
    }
    for (name, schema) in doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.push_str(&format!(
            "## {name} {{#schema-{}}}\n\n",
            name.to_lowercase()
        ));
        if let Some(d) = schema.get("description").and_then(Value::as_str) {
            out.push_str(&format!("{}\n\n", literal_angles(d)));
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str("| field | type | required | meaning |\n|---|---|---|---|\n");
        for (field, p) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let mut meaning = p
                .get("description")
                .and_then(Value::as_str)
                .map(cell)
                .unwrap_or_default();
            if let Some(values) = p.get("enum").and_then(Value::as_array) {
                let values: Vec<String> = values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|v| format!("`{v}`"))
                    .collect();
                let sep = if meaning.is_empty() { "" } else { "; " };
                meaning = format!("{meaning}{sep}one of {}", values.join(", "));
            }
            meaning.push_str(&pattern_note(Some(p)));
            out.push_str(&format!(
                "| `{field}` | {} | {} | {meaning} |\n",
                schema_name(p),
                if required.contains(&field.as_str()) {
                    "yes"
                } else {
                    "no"
                }
            ));
        }
        out.push('\n');
    }
    Ok(out.trim_end().to_owned() + "\n")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn every_operation_response_and_field_is_on_the_page() {
        let doc = json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "9", "description": "The API."},
            "paths": {
                "/healthz": {"get": {"operationId": "health", "summary": "Liveness",
                    "responses": {"200": {"description": "Up."}}}},
                "/v1/things": {"post": {"operationId": "make", "summary": "Make one",
                    "security": [{"bearer": []}],
                    "parameters": [{"name": "p", "in": "query", "schema": {"type": "string"},
                        "description": "a|b"}, {"name": "q", "in": "query",
                        "schema": {"type": "string", "pattern": "^(x|y)$"}, "description": "Q."}],
                    "responses": {"201": {"description": "Made.", "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                        "400": {"$ref": "#/components/responses/Error"},
                        "401": {"$ref": "#/components/responses/Error"}}}}
            },
            "components": {
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "Tokens."}},
                "responses": {"Error": {"description": "Failed.",
                    "content": {"application/problem+json": {"schema": {}}}}},
                "schemas": {"Thing": {"type": "object", "required": ["id"], "properties": {
                    "id": {"type": "string", "description": "Its id. ", "pattern": "^i$"},
                    "kind": {"type": ["string", "null"], "enum": ["x"]}}}}
            }
        });
        let page = super::page(&doc).unwrap();
        let make = page.find("`POST /v1/things`").unwrap();
        assert!(
            make < page.find("`GET /healthz`").unwrap(),
            "the /v1 routes come first"
        );
        assert!(page.contains("Make one. A [bearer token](#authentication).\n"));
        assert!(page.contains("Liveness. No token needed."));
        assert!(page.contains("| `p` | query | no | string | a\\|b |"));
        assert!(page.contains("| `q` | query | no | string | Q. Matches `^(x\\|y)$`. |"));
        assert!(page.contains("| 201 | Made. | `application/json`: [Thing](#schema-thing) |"));
        assert!(page.contains("| 400, 401 | Failed. | `application/problem+json` |"));
        assert!(page.contains("| `id` | string | yes | Its id.  Matches `^i$`. |"));
        assert!(page.contains("| `kind` | string or null | no | one of `x` |"));
        assert!(page.contains("`bearer` (http bearer): Tokens."));
    }

    #[test]
    fn flags_are_code_spans() {
        assert_eq!(
            super::literal_angles("a ring (--scheme v2 --accept v1) and `--x` and a--b, --"),
            "a ring (`--scheme` v2 `--accept` v1) and `--x` and a--b, --"
        );
    }

    #[test]
    fn angle_brackets_are_words_outside_code_spans() {
        assert_eq!(
            super::cell("rev:<scheme>:<hex> | `a<b>`"),
            "rev:&lt;scheme>:&lt;hex> \\| `a<b>`"
        );
    }

    #[test]
    fn an_operation_without_an_id_is_refused() {
        let doc = json!({"openapi": "3.1.0", "info": {"version": "1", "description": ""},
            "paths": {"/x": {"get": {"responses": {}}}}});
        assert!(super::page(&doc)
            .unwrap_err()
            .contains("get /x has no operationId"));
    }
}
