//! A model of revision data in an object store, checked with stateright: registrations
//! that write one content's object and commit the row naming it, racing gc passes that
//! delete objects no row names, with processes killed between any two steps and time
//! passing (objects leave the grace period, uploads expire, a killed gc's deletion goes
//! stale). All registrations carry the same content, so there is one object and one row.
//!
//! Two designs are modelled:
//! - [`GcDesign::RowsOnly`]: gc deletes an old object when no row names it, and an upload
//!   writes its object (or sees it there) and commits, with nothing announced;
//! - [`GcDesign::Announced`], the registry's (`store/uploads.rs`): an upload is announced
//!   before its object is looked at, gc announces a deletion before deleting, both under
//!   the content's lock; a deletion blocks uploads until it ends or goes stale, an upload
//!   blocks deletions until it commits or expires, and a commit whose upload expired
//!   fails.
//!
//! The checker finds a committed row naming a deleted object in the first and none in the
//! second (`tests/objects.rs`). The one timing assumption: a gc deletes within its lease
//! (the registry bounds the DELETE request by half of it), modelled as time not passing
//! while a gc holds an announced deletion it has not yet carried out.

use stateright::{Model, Property};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GcDesign {
    RowsOnly,
    Announced,
}

/// The bounds of a check.
#[derive(Clone, Debug)]
pub struct Objects {
    pub design: GcDesign,
    /// Registrations started in all (a retry is another one).
    pub registrations: u8,
    /// gc passes started in all.
    pub passes: u8,
    /// Times time may pass.
    pub ticks: u8,
    /// Whether an orphan of the content is in the store at the start (a registration
    /// killed between its object and its commit left it).
    pub orphan: bool,
    /// Announced design only: gc passes share one announcement per content (a second
    /// pass re-announces it, and any pass's end removes it), as the first version of the
    /// registry's gc did. The checker finds two passes losing an object that way.
    pub shared_deletions: bool,
}

/// Where a registration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Upload {
    /// Started, nothing done.
    Start,
    /// Announced (Announced design), the store not yet asked.
    Announced,
    /// The store asked: the object was there (the write is skipped) or not.
    Looked { found: bool },
    /// The object written (or found): the commit is next.
    Written,
}

/// Where a gc pass is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// Listed the object, old enough.
    Listed,
    /// Its deletion decided (and announced, in the Announced design).
    Deleting,
    /// The object deleted; the announcement is next to end.
    Deleted,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjState {
    pub object: bool,
    /// The object was written within the grace period.
    pub young: bool,
    pub row: bool,
    /// Live announced uploads (a registration's index); expired ones are gone.
    pub uploads: Vec<u8>,
    /// An announced deletion: the gc pass that owns it, and whether it is stale (its gc
    /// was killed).
    pub deletion: Option<(u8, bool)>,
    pub registrations: Vec<(u8, Upload)>,
    pub passes: Vec<(u8, Pass)>,
    pub started: u8,
    pub passes_started: u8,
    pub ticks: u8,
    /// Registrations acknowledged.
    pub told: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjAction {
    Register,
    /// Registration `i` takes its next step.
    Step(usize),
    KillRegistration(usize),
    Gc,
    /// gc pass `i` takes its next step.
    GcStep(usize),
    KillGc(usize),
    /// The grace period passes: the object is old, uploads expire, deletions of killed
    /// passes go stale.
    Tick,
}

impl Model for Objects {
    type State = ObjState;
    type Action = ObjAction;

    fn init_states(&self) -> Vec<ObjState> {
        vec![ObjState {
            object: self.orphan,
            young: false,
            row: false,
            uploads: Vec::new(),
            deletion: None,
            registrations: Vec::new(),
            passes: Vec::new(),
            started: 0,
            passes_started: 0,
            ticks: 0,
            told: 0,
        }]
    }

    fn actions(&self, s: &ObjState, actions: &mut Vec<ObjAction>) {
        if s.started < self.registrations {
            actions.push(ObjAction::Register);
        }
        if s.passes_started < self.passes {
            actions.push(ObjAction::Gc);
        }
        for i in 0..s.registrations.len() {
            actions.push(ObjAction::Step(i));
            actions.push(ObjAction::KillRegistration(i));
        }
        for i in 0..s.passes.len() {
            actions.push(ObjAction::GcStep(i));
            actions.push(ObjAction::KillGc(i));
        }
        if s.ticks < self.ticks {
            actions.push(ObjAction::Tick);
        }
    }

    fn next_state(&self, last: &ObjState, action: ObjAction) -> Option<ObjState> {
        let announced = self.design == GcDesign::Announced;
        let mut s = last.clone();
        match action {
            ObjAction::Register => {
                let id = s.started;
                s.started += 1;
                s.registrations.push((id, Upload::Start));
            }
            ObjAction::Step(i) => {
                let (id, at) = s.registrations[i];
                match at {
                    Upload::Start if announced => {
                        // begin_upload, under the content's lock.
                        match s.deletion {
                            Some((_, false)) => return None, // waits for the deletion to end
                            Some((_, true)) => s.deletion = None, // a stale one is taken over
                            None => {}
                        }
                        s.uploads.push(id);
                        s.registrations[i].1 = Upload::Announced;
                    }
                    Upload::Start | Upload::Announced => {
                        s.registrations[i].1 = Upload::Looked { found: s.object };
                    }
                    Upload::Looked { found } => {
                        if !found {
                            s.object = true;
                            s.young = true;
                        }
                        s.registrations[i].1 = Upload::Written;
                    }
                    Upload::Written => {
                        s.registrations.remove(i);
                        if announced {
                            // The commit ends the upload; an expired one commits nothing.
                            let Some(at) = s.uploads.iter().position(|u| *u == id) else {
                                return Some(s);
                            };
                            s.uploads.remove(at);
                        }
                        s.row = true;
                        s.told += 1;
                    }
                }
            }
            ObjAction::KillRegistration(i) => {
                s.registrations.remove(i);
            }
            ObjAction::Gc => {
                let id = s.passes_started;
                s.passes_started += 1;
                if !s.object || s.young {
                    return Some(s); // nothing old to look at
                }
                s.passes.push((id, Pass::Listed));
            }
            ObjAction::GcStep(i) => match s.passes[i] {
                (id, Pass::Listed) => {
                    // begin_deletion, under the content's lock (Announced): not while a row
                    // names it, an upload is live, or another pass's deletion is live.
                    let live_deletion = s.deletion.is_some_and(|(_, stale)| !stale);
                    let blocked = announced
                        && (!s.uploads.is_empty() || (live_deletion && !self.shared_deletions));
                    if s.row || blocked {
                        s.passes.remove(i);
                    } else {
                        if announced {
                            s.deletion = Some((id, false));
                        }
                        s.passes[i].1 = Pass::Deleting;
                    }
                }
                (_, Pass::Deleting) => {
                    s.object = false;
                    s.passes[i].1 = Pass::Deleted;
                }
                (id, Pass::Deleted) => {
                    s.passes.remove(i);
                    // end_deletion: its own announcement only (any, with shared ones).
                    if announced
                        && (self.shared_deletions || s.deletion.is_some_and(|(o, _)| o == id))
                    {
                        s.deletion = None;
                    }
                }
            },
            ObjAction::KillGc(i) => {
                s.passes.remove(i);
            }
            ObjAction::Tick => {
                // A live gc carries out its deletion within its lease.
                if s.passes.iter().any(|(_, p)| *p == Pass::Deleting) {
                    return None;
                }
                s.ticks += 1;
                s.young = false;
                s.uploads.clear();
                if let Some((owner, _)) = s.deletion {
                    s.deletion = Some((owner, true));
                }
            }
        }
        Some(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::always("every committed row names an object", |_, s: &ObjState| {
                !s.row || s.object
            }),
            Property::sometimes("a registration is acknowledged", |_, s: &ObjState| {
                s.told > 0
            }),
            Property::sometimes("gc deletes an orphan", |_, s: &ObjState| {
                s.passes.iter().any(|(_, p)| *p == Pass::Deleted)
            }),
        ]
    }
}
