//! `samekey batch`: the ingestion step of an idempotent pipeline. Each JSONL record gets
//! its deterministic id and the content hash of its canonical JSON, so a later upsert by
//! id is safe to retry and can skip unchanged content.

use std::io::{BufRead, Write};

use samekey::{
    canonical_json, content_hash, parse_rfc3339, Error, Scheme, Ulid, UlidDeriver, Value,
};

/// How records map to ids.
#[derive(Debug, Clone)]
pub struct BatchConfig {
    pub scheme: Scheme,
    pub namespace: String,
    pub secret: Option<Vec<u8>>,
    /// Members whose string values are the identity fields, in order.
    pub id_fields: Vec<String>,
    /// Member holding the time: RFC 3339 text or integer milliseconds.
    pub time_field: String,
    /// Member the id is written to. When a record already has it, it must match.
    pub id_output: String,
    /// Member the content hash is written to.
    pub hash_output: String,
    /// Scheme of the content hash (v1 or v2).
    pub content_scheme: Scheme,
}

/// A record that could not be processed, naming its 1-based line.
#[derive(Debug)]
pub struct LineError {
    pub line: u64,
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: error[{}]: {}",
            self.line, self.code, self.message
        )
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BatchSummary {
    pub written: u64,
    pub failed: u64,
}

fn member<'a>(members: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    members.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

fn usage(message: String) -> (&'static str, String) {
    ("invalid_record", message)
}

/// Processes one record line into its output line (without the newline).
pub fn process_line(
    config: &BatchConfig,
    deriver: &UlidDeriver,
    line: &str,
) -> Result<String, (&'static str, String)> {
    let core = |e: Error| (e.code(), e.to_string());
    let Value::Object(mut members) = Value::parse(line).map_err(core)? else {
        return Err(usage("the record is not a JSON object".into()));
    };
    let time = match member(&members, &config.time_field) {
        Some(Value::String(text)) => parse_rfc3339(text).map_err(core)?,
        Some(Value::Number(ms)) => samekey::timestamp::from_millis_f64(*ms).map_err(core)?,
        Some(_) => {
            return Err(usage(format!(
                "{:?} must be RFC 3339 text or integer milliseconds",
                config.time_field
            )))
        }
        None => {
            return Err(usage(format!(
                "the record has no {:?} member",
                config.time_field
            )))
        }
    };
    let mut fields = Vec::with_capacity(config.id_fields.len());
    for name in &config.id_fields {
        match member(&members, name) {
            Some(Value::String(s)) => fields.push(s.as_bytes()),
            Some(_) => return Err(usage(format!("identity field {name:?} must be a string"))),
            None => return Err(usage(format!("the record has no identity field {name:?}"))),
        }
    }
    let id = deriver.derive(time, &fields).map_err(core)?;
    let existing = members.iter().position(|(k, _)| *k == config.id_output);
    if let Some(at) = existing {
        let (_, stored) = members.remove(at);
        let matches = matches!(&stored, Value::String(s) if s.parse::<Ulid>().ok() == Some(id));
        if !matches {
            let e = Error::IdentityMismatch;
            return Err((
                e.code(),
                format!("{e}: the record's {:?} is not {id}", config.id_output),
            ));
        }
    }
    members.retain(|(k, _)| *k != config.hash_output);
    let body = canonical_json(&Value::Object(members)).map_err(core)?;
    let hash = content_hash(config.content_scheme, body.as_bytes()).map_err(core)?;
    // The record goes out as it came in (member order, number text), plus the two
    // members: re-formatting it would change data the user did not ask to change.
    let mut record: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(line).map_err(|e| usage(format!("unreadable record: {e}")))?;
    record.shift_remove(&config.id_output);
    record.shift_remove(&config.hash_output);
    record.insert(config.id_output.clone(), id.to_string().into());
    record.insert(config.hash_output.clone(), hash.to_string().into());
    serde_json::to_string(&record).map_err(|e| usage(format!("unwritable record: {e}")))
}

/// Streams records from `input` to `output`, one line each. Stops at the first bad
/// record unless `keep_going`, in which case every bad record is reported to `on_error`;
/// stops quietly when the output's reader has gone.
pub fn run(
    config: &BatchConfig,
    input: impl BufRead,
    mut output: impl Write,
    keep_going: bool,
    mut on_error: impl FnMut(&LineError),
) -> Result<BatchSummary, Error> {
    let deriver = UlidDeriver::new(config.scheme, &config.namespace, config.secret.as_deref())?;
    let mut summary = BatchSummary::default();
    for (index, line) in input.lines().enumerate() {
        let line_no = index as u64 + 1;
        let line = match line {
            Ok(line) => line,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                report(
                    &mut summary,
                    &mut on_error,
                    line_no,
                    ("invalid_string", "the line is not valid UTF-8".into()),
                );
                if keep_going {
                    continue;
                } else {
                    break;
                }
            }
            Err(e) => return Err(e.into()),
        };
        if line.trim().is_empty() {
            continue;
        }
        match process_line(config, &deriver, &line) {
            Ok(out) => match writeln!(output, "{out}") {
                Ok(()) => summary.written += 1,
                Err(e) if reader_gone(&e) => return Ok(summary),
                Err(e) => return Err(e.into()),
            },
            Err(e) => {
                report(&mut summary, &mut on_error, line_no, e);
                if !keep_going {
                    break;
                }
            }
        }
    }
    match output.flush() {
        Err(e) if !reader_gone(&e) => Err(e.into()),
        _ => Ok(summary),
    }
}

/// The reader of the output went away (`samekey batch ... | head -1`): a filter stops
/// there quietly, with what it wrote, rather than failing with a broken pipe.
fn reader_gone(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}

fn report(
    summary: &mut BatchSummary,
    on_error: &mut impl FnMut(&LineError),
    line: u64,
    (code, message): (&'static str, String),
) {
    summary.failed += 1;
    on_error(&LineError {
        line,
        code,
        message,
    });
}
