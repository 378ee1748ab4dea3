//! A history of what clients sent and what they were told, and the check of what the
//! registry holds afterwards against it. The registry's promise is that 201/200 means
//! stored: every acknowledged revision is readable with the bytes and parent it was sent
//! with, also after faults and restarts, and one (parent, data) is one revision.
//!
//! The checker is pure (a history and an observed store in, violations out), so its own
//! tests plant each kind of violation and see it reported (tests/history.rs).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// What a client was told about one registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// 201 or 200 with this key: the registry promised it is stored.
    Acked { status: u16, key: String },
    /// Any other answer, or none (connection refused or cut): nothing was promised; the
    /// revision may or may not be stored.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Op {
    pub data: Vec<u8>,
    pub parent: Option<String>,
    pub outcome: Outcome,
}

/// Every registration of a run, in the order their answers arrived; shared by the workers.
#[derive(Debug, Default)]
pub struct History {
    ops: Mutex<Vec<Op>>,
}

impl History {
    pub fn record(&self, data: Vec<u8>, parent: Option<String>, outcome: Outcome) {
        self.ops.lock().unwrap().push(Op {
            data,
            parent,
            outcome,
        });
    }

    pub fn ops(&self) -> Vec<Op> {
        self.ops.lock().unwrap().clone()
    }

    /// (acknowledged, failed)
    pub fn counts(&self) -> (usize, usize) {
        let ops = self.ops.lock().unwrap();
        let acked = ops
            .iter()
            .filter(|o| matches!(o.outcome, Outcome::Acked { .. }))
            .count();
        (acked, ops.len() - acked)
    }

    /// The distinct keys the registry acknowledged.
    pub fn acked_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .ops
            .lock()
            .unwrap()
            .iter()
            .filter_map(|o| match &o.outcome {
                Outcome::Acked { key, .. } => Some(key.clone()),
                Outcome::Failed(_) => None,
            })
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

/// One stored revision as the registry shows it (GET .../KEY and .../KEY/data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub parent: Option<String>,
    pub content_hash: String,
    pub data: Vec<u8>,
}

/// Every revision of a database as (key, parent, the SHA-256 content hash of its data
/// whatever its scheme: `Db::revision_index`), so that twins under two schemes group.
pub type Index = Vec<(String, Option<String>, String)>;

/// Checks `ops` against what the registry holds: `stored` has every acknowledged key that
/// is readable (a key missing from it was not found), and `all` is every revision's
/// (key, parent, content hash) in the database. Returns the violations, empty when none.
pub fn check(ops: &[Op], stored: &HashMap<String, Stored>, all: &Index) -> Vec<String> {
    let mut problems = Vec::new();
    // One (parent, data) must be one key, however often and however it was acknowledged.
    let mut key_of: HashMap<(Option<&str>, &[u8]), &str> = HashMap::new();
    for (i, op) in ops.iter().enumerate() {
        let Outcome::Acked { status, key } = &op.outcome else {
            continue;
        };
        if *status != 201 && *status != 200 {
            problems.push(format!("op {i}: acknowledged with status {status}"));
        }
        match key_of.insert((op.parent.as_deref(), &op.data), key) {
            Some(other) if other != key => problems.push(format!(
                "op {i}: the same data on the same parent was acknowledged as {other} and as {key}"
            )),
            _ => {}
        }
        match stored.get(key) {
            None => problems.push(format!(
                "op {i}: {key} was acknowledged ({status}) and is lost"
            )),
            Some(s) if s.data != op.data => problems.push(format!(
                "op {i}: {key} holds {} bytes that are not the {} sent",
                s.data.len(),
                op.data.len()
            )),
            Some(s) if s.parent != op.parent => problems.push(format!(
                "op {i}: {key} has parent {:?}, sent with {:?}",
                s.parent, op.parent
            )),
            Some(_) => {}
        }
    }
    // In the database: no two revisions of one (parent, data), across schemes too.
    let mut revisions: BTreeMap<(Option<&str>, &str), Vec<&str>> = BTreeMap::new();
    for (key, parent, hash) in all {
        revisions
            .entry((parent.as_deref(), hash.as_str()))
            .or_default()
            .push(key);
    }
    for ((parent, hash), keys) in revisions {
        if keys.len() > 1 {
            problems.push(format!(
                "{} revisions of {hash} on parent {parent:?}: {keys:?}",
                keys.len()
            ));
        }
    }
    problems
}
