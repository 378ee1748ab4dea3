#![doc = include_str!("../README.md")]

use samekey::timestamp::Millis;
use samekey::{
    content_hash, content_hash_json, content_hash_json_text, derive_revision, parse_rfc3339,
    revision_message, ulid_message, ContentHash, Error, Key, KeyRing, Scheme, Ulid, UlidDeriver,
    Value,
};
use serde_json::{json, Map, Value as Json};

/// The result of one vector.
#[derive(Debug)]
pub struct Outcome {
    pub id: String,
    pub passed: bool,
    /// What was expected and what came out, when they differ.
    pub detail: String,
}

/// Runs every vector of a vector document. Fails only when the document itself is
/// malformed (no schema, no vector list, a repeated id); a vector that gives the wrong
/// answer or cannot be read is a failed [`Outcome`], and the run goes on (spec §10.1).
pub fn run_document(doc: &Json) -> Result<Vec<Outcome>, String> {
    let schema = doc.get("schema").and_then(Json::as_str);
    if schema != Some("samekey-test-vectors/1") {
        return Err(format!("unsupported vector schema {schema:?}"));
    }
    let vectors = doc
        .get("vectors")
        .and_then(Json::as_array)
        .ok_or("the document has no \"vectors\" array")?;
    let outcomes: Vec<Outcome> = vectors.iter().enumerate().map(run_one).collect();
    let mut ids: Vec<&str> = outcomes.iter().map(|o| o.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("vector id {:?} appears more than once", w[0]));
    }
    Ok(outcomes)
}

fn run_one((index, v): (usize, &Json)) -> Outcome {
    let Some(id) = v.get("id").and_then(Json::as_str) else {
        return Outcome {
            id: format!("#{index}"),
            passed: false,
            detail: "the vector has no id".into(),
        };
    };
    let id = id.to_owned();
    let Some(expect) = v.get("expect") else {
        return Outcome {
            id,
            passed: false,
            detail: "the vector has no expect".into(),
        };
    };
    let actual = match run_op(v) {
        Ok(Ok(outputs)) => outputs,
        Ok(Err(e)) => json!({ "error": e.code() }),
        Err(malformed) => {
            return Outcome {
                id,
                passed: false,
                detail: format!("the vector cannot be run: {malformed}"),
            }
        }
    };
    let passed = &actual == expect;
    let detail = if passed {
        String::new()
    } else {
        format!("expected {expect}, got {actual}")
    };
    Outcome { id, passed, detail }
}

type OpResult = Result<Result<Json, Error>, String>;

fn run_op(v: &Json) -> OpResult {
    let op = str_field(v, "op")?;
    Ok(match op {
        "ulid" => op_ulid(v)?,
        "content" => op_content(v)?,
        "content_json" => op_content_json(v)?,
        "revision" => op_revision(v)?,
        "timestamp" => text_field(v, "rfc3339")?
            .and_then(|t| parse_rfc3339(&t))
            .map(|t| json!({ "timestamp_ms": t })),
        "ulid_parse" => text_field(v, "text")?
            .and_then(|t| t.parse::<Ulid>())
            .map(|id| {
                json!({ "ulid": id.to_string(), "uuid": id.to_uuid_string(), "timestamp_ms": id.timestamp_ms() })
            }),
        "key_parse" => op_key_parse(v)?,
        "verify" => op_verify(v)?,
        "candidates" => op_candidates(v)?,
        "ring_revision" => op_ring_revision(v)?,
        "needs_write" => op_needs_write(v)?,
        other => return Err(format!("unknown op {other:?}")),
    })
}

fn str_field<'a>(v: &'a Json, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Json::as_str)
        .ok_or_else(|| format!("missing string {key:?}"))
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    if text.len() % 2 != 0 {
        return Err(format!("odd-length hex {text:?}"));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| format!("bad hex: {e}")))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn secret(v: &Json) -> Result<Option<Vec<u8>>, String> {
    v.get("secret_hex")
        .and_then(Json::as_str)
        .map(hex_bytes)
        .transpose()
}

/// The outer error: the vector is malformed. The inner one: the host conversion failed.
type Converted<T> = Result<Result<T, Error>, String>;

/// A text input (spec §10.1): a JSON string, or `{"utf16": ...}` code units, which a Rust
/// string holds only if they are valid Unicode: the checked conversion is the host's.
fn text(t: &Json) -> Converted<String> {
    match t {
        Json::String(s) => Ok(Ok(s.clone())),
        Json::Object(o) => {
            let units = hex_bytes(
                o.get("utf16")
                    .and_then(Json::as_str)
                    .ok_or("text object without utf16")?,
            )?;
            if units.len() % 2 != 0 {
                return Err("utf16 holds whole code units".into());
            }
            let units: Vec<u16> = units
                .chunks_exact(2)
                .map(|u| u16::from_be_bytes([u[0], u[1]]))
                .collect();
            Ok(samekey::text::from_utf16(&units))
        }
        _ => Err("text is a string or {\"utf16\": ...}".into()),
    }
}

fn text_field(v: &Json, key: &str) -> Converted<String> {
    text(v.get(key).ok_or_else(|| format!("missing {key:?}"))?)
}

fn fields(v: &Json) -> Converted<Vec<Vec<u8>>> {
    let list = v
        .get("fields")
        .and_then(Json::as_array)
        .ok_or("missing \"fields\"")?;
    let mut out = Vec::with_capacity(list.len());
    for f in list {
        match f.get("hex").and_then(Json::as_str) {
            Some(h) => out.push(hex_bytes(h)?),
            None => match text(f)? {
                Ok(t) => out.push(t.into_bytes()),
                Err(e) => return Ok(Err(e)),
            },
        }
    }
    Ok(Ok(out))
}

/// A vector's time (spec §10.1), converted: a fraction fails here, a host conversion that
/// comes before every other check; the range is checked in its place (§4.4). Vector
/// timestamps may be negative or past 2^48 on purpose.
fn timestamp_ms(v: &Json) -> Converted<Millis> {
    let t = v.get("timestamp_ms").ok_or("missing timestamp_ms")?;
    let whole = match (t.as_i64(), t.as_u64(), t.as_f64()) {
        (Some(i), _, _) => i128::from(i),
        (None, Some(u), _) => i128::from(u),
        // An integer value however written (`2.0`); a fraction is not a time.
        (None, None, Some(f)) if f.is_finite() && f == f.trunc() && f.abs() < 1e30 => f as i128,
        (None, None, Some(f)) => {
            return Ok(Millis::from_f64(f));
        }
        _ => return Err("timestamp_ms is a number".into()),
    };
    Ok(Ok(Millis::new(whole)))
}

fn scheme(v: &Json) -> Result<Result<Scheme, Error>, String> {
    Ok(text_field(v, "scheme")?.and_then(|s| s.parse()))
}

fn op_ulid(v: &Json) -> OpResult {
    let (ns, fields, secret) = (text_field(v, "namespace")?, fields(v)?, secret(v)?);
    let (name, t) = (text_field(v, "scheme")?, timestamp_ms(v)?);
    Ok((|| {
        // Host conversions first (the strings, then the time: spec §2.2), then the checks
        // of spec §4.4 in order.
        let (name, ns, fields) = (name?, ns?, fields?);
        let t = t?;
        let scheme: Scheme = name.parse()?;
        let deriver = UlidDeriver::new(scheme, &ns, secret.as_deref())?;
        let id = deriver.derive(t.check()?, &fields)?;
        let message = ulid_message(scheme, &ns, &fields)?;
        Ok(
            json!({ "ulid": id.to_string(), "uuid": id.to_uuid_string(), "message_hex": hex(&message) }),
        )
    })())
}

fn op_content(v: &Json) -> OpResult {
    let data = hex_bytes(str_field(v, "data_hex")?)?;
    let scheme = scheme(v)?;
    Ok(scheme
        .and_then(|s| content_hash(s, &data))
        .map(|h| json!({ "hash": h.to_string() })))
}

fn op_content_json(v: &Json) -> OpResult {
    let (name, text) = (text_field(v, "scheme")?, text_field(v, "json")?);
    Ok((|| {
        let (name, text) = (name?, text?);
        let text = text.as_str();
        let scheme: Scheme = name.parse()?;
        let (canonical, hash) = content_hash_json_text(scheme, text)?;
        // The tree path (parse, then canonicalize the value) must agree with the stream.
        debug_assert_eq!(
            content_hash_json(scheme, &Value::parse(text)?)?.0,
            canonical
        );
        Ok(json!({ "canonical": canonical, "hash": hash.to_string() }))
    })())
}

fn parent(v: &Json) -> Converted<Option<String>> {
    match v.get("parent") {
        Some(Json::Null) | None => Ok(Ok(None)),
        Some(p) => Ok(text(p)?.map(Some)),
    }
}

fn op_revision(v: &Json) -> OpResult {
    let parent = parent(v)?;
    let (content, secret, name) = (
        text_field(v, "content_hash")?,
        secret(v)?,
        text_field(v, "scheme")?,
    );
    Ok((|| {
        let (name, parent, content) = (name?, parent?, content?);
        let parent = parent.as_deref();
        let scheme: Scheme = name.parse()?;
        let content: ContentHash = content.parse()?;
        let key = derive_revision(scheme, parent, &content, secret.as_deref())?;
        let message = revision_message(scheme, parent, &content)?;
        Ok(json!({ "key": key.to_string(), "message_hex": hex(&message) }))
    })())
}

fn accepted_ring(v: &Json) -> Result<Option<Result<KeyRing, Error>>, String> {
    let Some(list) = v.get("accepted") else {
        return Ok(None);
    };
    let names: Vec<Result<String, Error>> = list
        .as_array()
        .ok_or("accepted is a list")?
        .iter()
        .map(text)
        .collect::<Result<_, _>>()?;
    // Every name converted, then the ring made (spec §9.1).
    Ok(Some((|| {
        let names: Vec<String> = names.into_iter().collect::<Result<_, _>>()?;
        samekey::host::ring(&names)
    })()))
}

fn op_key_parse(v: &Json) -> OpResult {
    let ring = accepted_ring(v)?;
    let text = text_field(v, "text")?;
    Ok((|| {
        // The ring first (spec §9.1), then the text's conversion, parse and scheme.
        let ring = ring.transpose()?;
        let text = text?;
        let key: Key = match ring {
            Some(ring) => ring.parse_key(&text)?,
            None => text.parse()?,
        };
        let mut out = Map::new();
        out.insert("kind".into(), key.kind().into());
        out.insert("canonical".into(), key.to_string().into());
        out.insert("scheme".into(), key.scheme().as_str().into());
        Ok(Json::Object(out))
    })())
}

fn op_verify(v: &Json) -> OpResult {
    let ring = accepted_ring(v)?.ok_or("verify needs \"accepted\"")?;
    let (id, ns, fields, secret) = (
        text_field(v, "ulid")?,
        text_field(v, "namespace")?,
        fields(v)?,
        secret(v)?,
    );
    let t = timestamp_ms(v)?;
    Ok((|| {
        // A ring is checked when it is made, before it is used (spec §9.1); then the
        // host's conversions, then the id is parsed (§9.2), then §4.4's checks.
        let ring = ring?;
        let (id, ns, fields) = (id?, ns?, fields?);
        let t = t?;
        let id: Ulid = id.parse()?;
        let t = t.check_for(ring.primary(), &ns, secret.as_deref())?;
        let scheme = ring.verify_ulid(&id, t, &ns, &fields, secret.as_deref())?;
        Ok(json!({ "scheme": scheme.as_str() }))
    })())
}

fn op_candidates(v: &Json) -> OpResult {
    let ring = accepted_ring(v)?.ok_or("candidates needs \"accepted\"")?;
    let (ns, fields, secret) = (text_field(v, "namespace")?, fields(v)?, secret(v)?);
    let t = timestamp_ms(v)?;
    Ok((|| {
        let ring = ring?;
        let (ns, fields) = (ns?, fields?);
        let t = t?;
        let t = t.check_for(ring.primary(), &ns, secret.as_deref())?;
        let found = ring.candidate_ulids(t, &ns, &fields, secret.as_deref())?;
        let list: Vec<Json> = found
            .iter()
            .map(|(s, id)| json!({ "scheme": s.as_str(), "ulid": id.to_string() }))
            .collect();
        Ok(json!({ "candidates": list }))
    })())
}

fn op_ring_revision(v: &Json) -> OpResult {
    let ring = accepted_ring(v)?.ok_or("ring_revision needs \"accepted\"")?;
    let (parent, content, secret) = (parent(v)?, text_field(v, "content_hash")?, secret(v)?);
    Ok((|| {
        let ring = ring?;
        let (parent, content) = (parent?, content?);
        let content: ContentHash = content.parse()?;
        let key = ring.derive_revision(parent.as_deref(), &content, secret.as_deref())?;
        Ok(json!({ "key": key.to_string() }))
    })())
}

fn op_needs_write(v: &Json) -> OpResult {
    let stored = match v.get("stored") {
        Some(Json::Null) | None => Ok(None),
        Some(s) => text(s)?.map(Some),
    };
    let incoming = text_field(v, "incoming")?;
    Ok((|| {
        let (stored, incoming) = (stored?, incoming?);
        let write = samekey::host::needs_write(stored.as_deref(), &incoming)?;
        Ok(json!({ "needs_write": write }))
    })())
}
