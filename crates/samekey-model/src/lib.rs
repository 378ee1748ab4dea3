//! A model of the revision registry's write protocol while the key algorithm changes,
//! checked with [stateright]: registry processes with key rings on one database, clients
//! whose answers get lost and who retry, processes killed between statements, the
//! rollout's phases (taken in order or skipped) and the operator's `samekey schemes`
//! steps, in every interleaving up to the bounds of [`Registry`].
//!
//! All requests carry the same (parent, data), so every revision in the database is a
//! twin of every other: the property "one (parent, data), one revision" is "at most one
//! row". A key is named by its scheme (the one identity has one key per scheme).
//!
//! Two designs are modelled:
//! - [`Design::Lookup`], samekey 0.2's: a request looks up its older schemes' keys by the
//!   primary-key column, then inserts under its primary key `ON CONFLICT (key) DO NOTHING`
//!   (two statements; the database's uniqueness is the created key's alone);
//! - [`Design::Recorded`], today's: one atomic insert that records the key of every scheme
//!   of the ring, unique per scheme, refused by the database when the ring lacks a
//!   required scheme or holds a retired one (then the process only answers what it finds).
//!
//! The checker finds the twin of the first (kept as a test that expects it) and none in
//! the second (`tests/model.rs`).

pub mod objects;

pub use stateright::Model;
use stateright::Property;

/// Schemes as bits: v1 = 1, v2 = 2.
pub const V1: u8 = 1;
pub const V2: u8 = 2;

/// The rollout's rings, in order: (primary, accepted schemes).
pub const PHASES: [(u8, u8); 4] = [(V1, V1), (V1, V1 | V2), (V2, V2 | V1), (V2, V2)];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Design {
    Lookup,
    Recorded,
}

/// The bounds of a check.
#[derive(Clone, Debug)]
pub struct Registry {
    pub design: Design,
    /// Each process's first phase (an index of [`PHASES`]).
    pub processes: Vec<usize>,
    /// Requests the clients send in all (a retry after a lost answer is another one).
    pub requests: u8,
    /// Whether processes may be redeployed to a later phase (skipping phases too), and the
    /// operator may run `require` and `retire` at any time.
    pub rollout: bool,
    /// Recorded only: whether the database enforces the required and retired schemes (at
    /// start and on every insert). Without them the checker finds a twin: they are needed.
    pub guards: bool,
}

impl Registry {
    /// A check of `design` with these processes' first phases and requests, the
    /// database's scheme guards on.
    pub fn new(design: Design, processes: &[usize], requests: u8, rollout: bool) -> Registry {
        Registry {
            design,
            processes: processes.to_vec(),
            requests,
            rollout,
            guards: true,
        }
    }
}

/// A revision row: the scheme it was created under, the schemes it is recorded under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    pub created: u8,
    pub recorded: u8,
}

/// A request a process is handling, between its statements (Lookup's second step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InFlight {
    pub process: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each process's phase (an index of [`PHASES`]); a redeploy whose ring the database
    /// refuses leaves the old process running.
    pub phases: Vec<usize>,
    pub rows: Vec<Row>,
    pub required: u8,
    pub retired: u8,
    pub in_flight: Vec<InFlight>,
    pub sent: u8,
    /// The key (scheme) each acknowledged answer carried, in order.
    pub told: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A client sends the request to a process.
    Send(u8),
    /// Lookup's second statement (the insert) for in-flight request `i`.
    Insert(usize),
    /// The process handling in-flight request `i` is killed before its next statement.
    Kill(usize),
    /// A process is redeployed with a later phase's ring (if the database lets it start).
    Deploy(u8, usize),
    Require(u8),
    Retire(u8),
}

impl State {
    /// The row holding `scheme`'s key, under Lookup (the created key's column) or Recorded.
    fn holder(&self, design: Design, schemes: u8) -> Option<Row> {
        self.rows.iter().copied().find(|r| match design {
            Design::Lookup => r.created & schemes != 0,
            Design::Recorded => r.recorded & schemes != 0,
        })
    }

    fn acknowledge(&mut self, row: Row) {
        self.told.push(row.created);
    }
}

/// Whether a process with this ring may write to a database with these schemes.
pub fn fits(accepted: u8, required: u8, retired: u8) -> bool {
    required & !accepted == 0 && accepted & retired == 0
}

impl Model for Registry {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        // A new database requires its first process's primary.
        let required = match self.design {
            Design::Lookup => 0,
            Design::Recorded => PHASES[self.processes[0]].0,
        };
        vec![State {
            phases: self.processes.clone(),
            rows: Vec::new(),
            required,
            retired: 0,
            in_flight: Vec::new(),
            sent: 0,
            told: Vec::new(),
        }]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Action>) {
        for p in 0..state.phases.len() as u8 {
            if state.sent < self.requests {
                actions.push(Action::Send(p));
            }
            if self.rollout {
                for next in state.phases[p as usize] + 1..PHASES.len() {
                    actions.push(Action::Deploy(p, next));
                }
            }
        }
        for i in 0..state.in_flight.len() {
            actions.push(Action::Insert(i));
            actions.push(Action::Kill(i));
        }
        if self.rollout && self.design == Design::Recorded {
            for s in [V1, V2] {
                actions.push(Action::Require(s));
                actions.push(Action::Retire(s));
            }
        }
    }

    fn next_state(&self, last: &State, action: Action) -> Option<State> {
        let mut s = last.clone();
        match (self.design, action) {
            (_, Action::Send(p)) => {
                s.sent += 1;
                let (primary, accepted) = PHASES[s.phases[p as usize]];
                match self.design {
                    Design::Lookup => {
                        // First statement: look each older scheme's key up.
                        match s.holder(Design::Lookup, accepted & !primary) {
                            Some(row) => s.acknowledge(row),
                            None => s.in_flight.push(InFlight { process: p }),
                        }
                    }
                    Design::Recorded => {
                        // One statement: insert recorded under the ring, unless a key exists.
                        match s.holder(Design::Recorded, accepted) {
                            Some(row) => s.acknowledge(row),
                            None if !self.guards || fits(accepted, s.required, s.retired) => {
                                let row = Row {
                                    created: primary,
                                    recorded: accepted,
                                };
                                s.rows.push(row);
                                s.acknowledge(row);
                            }
                            // Refused by the database, nothing found: 503, no answer to keep.
                            None => {}
                        }
                    }
                }
            }
            (Design::Lookup, Action::Insert(i)) => {
                let f = s.in_flight.remove(i);
                let primary = PHASES[s.phases[f.process as usize]].0;
                match s.holder(Design::Lookup, primary) {
                    Some(row) => s.acknowledge(row),
                    None => {
                        let row = Row {
                            created: primary,
                            recorded: primary,
                        };
                        s.rows.push(row);
                        s.acknowledge(row);
                    }
                }
            }
            (_, Action::Insert(_)) => return None,
            (_, Action::Kill(i)) => {
                s.in_flight.remove(i);
            }
            (_, Action::Deploy(p, next)) => {
                let accepted = PHASES[next].1;
                if self.design == Design::Recorded
                    && self.guards
                    && !fits(accepted, s.required, s.retired)
                {
                    return None; // refuses to start; the running process stays
                }
                // The old process is stopped: what it had in flight is lost.
                s.in_flight.retain(|f| f.process != p);
                s.phases[p as usize] = next;
            }
            (_, Action::Require(scheme)) => {
                if s.retired & scheme != 0 || s.required & scheme != 0 {
                    return None;
                }
                // Backfill: every row gets the scheme's key (no twin exists to mark here).
                for row in &mut s.rows {
                    row.recorded |= scheme;
                }
                s.required |= scheme;
            }
            (_, Action::Retire(scheme)) => {
                if s.retired & scheme != 0 || s.required & !scheme == 0 {
                    return None;
                }
                s.required &= !scheme;
                s.retired |= scheme;
            }
        }
        Some(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::always("one (parent, data), one revision", |_, s: &State| {
                s.rows.len() <= 1
            }),
            Property::always(
                "every client told the key the creator was told",
                |_, s: &State| {
                    s.told
                        .iter()
                        .all(|k| Some(*k) == s.rows.first().map(|r| r.created))
                },
            ),
            Property::always("every acknowledged revision readable", |_, s: &State| {
                s.told
                    .iter()
                    .all(|k| s.rows.iter().any(|r| r.recorded & k != 0))
            }),
            Property::sometimes("a revision is acknowledged", |_, s: &State| {
                !s.told.is_empty()
            }),
            Property::sometimes(
                "the rollout ends with v2 alone answering",
                |_, s: &State| s.phases.iter().all(|p| *p == PHASES.len() - 1) && s.told.len() >= 2,
            ),
        ]
    }
}

/// A shortest path of actions to each state the model can reach, for replaying against
/// real processes (the model is then the oracle of what each step must answer).
pub fn paths(model: &Registry) -> Vec<Vec<Action>> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    let mut out = Vec::new();
    for state in model.init_states() {
        seen.insert(state.clone());
        queue.push_back((state, Vec::new()));
    }
    while let Some((state, path)) = queue.pop_front() {
        let mut actions = Vec::new();
        model.actions(&state, &mut actions);
        for action in actions {
            if let Some(next) = model.next_state(&state, action) {
                if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(action);
                    queue.push_back((next, longer));
                }
            }
        }
        out.push(path);
    }
    out
}
