//! `samekey batch`: the ingestion step of an idempotent pipeline. Each JSONL record gets
//! its deterministic id and the content hash of its canonical JSON, so a later upsert by
//! id is safe to retry and can skip unchanged content.
//!
//! Records are read once (`samekey::record`: strict parse and canonical text in one
//! pass) and written back as they came in, byte for byte, with the two members appended.
//! Input is cut into chunks of whole lines that worker threads key in parallel; the
//! output keeps the input's order.

mod pipeline;

use std::ops::Range;

use samekey::record::{Record, RecordReader, TopValue};
use samekey::{content_hash, parse_rfc3339, Error, Scheme, Ulid, UlidDeriver};

pub use pipeline::{run, Progress, RunOptions};

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
#[derive(Debug, Clone)]
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

type Failure = (&'static str, String);

fn usage(message: String) -> Failure {
    ("invalid_record", message)
}

fn core(e: Error) -> Failure {
    (e.code(), e.to_string())
}

/// What keying a line needs besides the line, kept between lines: the canonical text's
/// buffer, and the record reader that remembers the last record's key order.
#[derive(Debug, Default)]
pub struct Scratch {
    canonical: String,
    records: RecordReader,
}

/// Keys records under one configuration: the deriver is prepared once.
pub struct Keyer {
    config: BatchConfig,
    deriver: UlidDeriver,
    /// `"<id member>":"` and `","<hash member>":"`, JSON-escaped once.
    id_prefix: String,
    hash_prefix: String,
    /// Whether a time that looks like seconds was reported: once a run, not per record.
    warned_seconds: std::sync::atomic::AtomicBool,
}

impl Keyer {
    fn warn_if_seconds(&self, ms: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        if let Some(warning) = samekey::host::seconds_warning(ms) {
            if !self.warned_seconds.swap(true, Relaxed) {
                eprintln!(
                    "samekey: warning: member {:?}: {warning} (said once a run)",
                    self.config.time_field
                );
            }
        }
    }

    pub fn new(config: BatchConfig) -> Result<Self, Error> {
        let deriver = UlidDeriver::new(config.scheme, &config.namespace, config.secret.as_deref())?;
        let quoted = |name: &str| serde_json::to_string(name).expect("a str serializes");
        let id_prefix = format!("{}:\"", quoted(&config.id_output));
        let hash_prefix = format!("\",{}:\"", quoted(&config.hash_output));
        Ok(Keyer {
            config,
            deriver,
            id_prefix,
            hash_prefix,
            warned_seconds: Default::default(),
        })
    }

    /// Appends the keyed record of `line` (without a newline) to `out`.
    pub fn key_line(
        &self,
        line: &str,
        scratch: &mut Scratch,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        let c = &self.config;
        let omit = [c.id_output.as_str(), c.hash_output.as_str()];
        let canonical = &mut scratch.canonical;
        canonical.clear();
        let Some(record) = scratch.records.read(line, &omit, canonical).map_err(core)? else {
            return Err(usage("the record is not a JSON object".into()));
        };
        let time = match record.get(&c.time_field) {
            Some(TopValue::String(text)) => parse_rfc3339(text).map_err(core)?,
            Some(TopValue::Number(ms)) => {
                let ms = samekey::timestamp::from_millis_f64(*ms).map_err(core)?;
                self.warn_if_seconds(ms);
                ms
            }
            Some(TopValue::Other) => {
                return Err(usage(format!(
                    "{:?} must be RFC 3339 text or integer milliseconds",
                    c.time_field
                )))
            }
            None => {
                return Err(usage(format!(
                    "the record has no {:?} member",
                    c.time_field
                )))
            }
        };
        let mut fields: Vec<&[u8]> = Vec::with_capacity(c.id_fields.len());
        for name in &c.id_fields {
            match record.get(name) {
                Some(TopValue::String(s)) => fields.push(s.as_bytes()),
                Some(_) => return Err(usage(format!("identity field {name:?} must be a string"))),
                None => return Err(usage(format!("the record has no identity field {name:?}"))),
            }
        }
        let id = self.deriver.derive(time, &fields).map_err(core)?;
        if let Some(stored) = record.get(&c.id_output) {
            let matches =
                matches!(stored, TopValue::String(s) if s.parse::<Ulid>().ok() == Some(id));
            if !matches {
                let e = Error::IdentityMismatch;
                return Err((
                    e.code(),
                    format!("{e}: the record's {:?} is not {id}", c.id_output),
                ));
            }
        }
        let hash = content_hash(c.content_scheme, canonical.as_bytes()).map_err(core)?;
        let kept = write_without(line, &record, &omit, out);
        if kept {
            out.push(b',');
        }
        out.extend_from_slice(self.id_prefix.as_bytes());
        out.extend_from_slice(&id.to_text_bytes());
        out.extend_from_slice(self.hash_prefix.as_bytes());
        out.extend_from_slice(&hash.to_text_bytes());
        out.extend_from_slice(b"\"}");
        Ok(())
    }
}

/// Writes the record's text up to its closing brace without the members named in
/// `omit`, each removed with the separator before it (after it, for the first member),
/// so that every other byte stays as it was. Returns whether any member is left.
fn write_without(line: &str, record: &Record<'_>, omit: &[&str], out: &mut Vec<u8>) -> bool {
    let members = &record.members;
    let removed = |i: usize| omit.contains(&&*members[i].key);
    let mut cuts: Vec<Range<usize>> = Vec::new();
    for i in (0..members.len()).filter(|&i| removed(i)) {
        let cut = match i {
            0 if members.len() > 1 => members[0].span.start..members[1].span.start,
            0 => members[0].span.clone(),
            _ => members[i - 1].span.end..members[i].span.end,
        };
        match cuts.last_mut() {
            Some(last) if last.end >= cut.start => last.end = last.end.max(cut.end),
            _ => cuts.push(cut),
        }
    }
    let mut at = 0;
    for cut in &cuts {
        out.extend_from_slice(&line.as_bytes()[at..cut.start]);
        at = cut.end;
    }
    out.extend_from_slice(&line.as_bytes()[at..record.close]);
    (0..members.len()).any(|i| !removed(i))
}
