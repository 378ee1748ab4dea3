//! Tests derived from the model (crates/samekey-model): every state the model of the
//! recorded-keys design reaches (two processes from the first phase, three requests,
//! every redeploy, `require` and `retire`), reached by its shortest path of actions, is
//! replayed against real `samekey-registry` processes on a fresh database, and every step
//! must answer what the model says: 201 or 200 with the key of the scheme the model's
//! creator was told, or 503 scheme_required; at the end the database holds the model's
//! revisions and scheme states. A redeploy the model refuses must refuse to start.

mod common;

use common::{client, fresh_db, post_json, Backend, Server};
use samekey::Scheme;
use samekey_model::{fits, Action, Design, Registry, State, PHASES, V1, V2};
use samekey_registry::store::schemes;

const PAYLOAD: &str = r#"{"model":"one (parent, data)"}"#;

fn ring(phase: usize) -> &'static [&'static str] {
    [
        &["--scheme", "v1"][..],
        &["--scheme", "v1", "--accept", "v2"],
        &["--scheme", "v2", "--accept", "v1"],
        &["--scheme", "v2"],
    ][phase]
}

fn scheme(bit: u8) -> Scheme {
    if bit == V2 {
        Scheme::V2
    } else {
        Scheme::V1
    }
}

fn bits(mask: u8, states: &[(Scheme, schemes::State)], want: schemes::State) -> bool {
    [V1, V2]
        .iter()
        .all(|b| (mask & b != 0) == states.iter().any(|(s, st)| *s == scheme(*b) && *st == want))
}

async fn replay(model: &Registry, path: &[Action], backend: Backend) -> Result<(), String> {
    let db = fresh_db(backend).await;
    let client = client();
    let mut state: State = samekey_model::Model::init_states(model).remove(0);
    // Started in order: the first process's primary becomes the database's required scheme.
    let mut servers: Vec<Server> = model
        .processes
        .iter()
        .map(|p| Server::start(&db, ring(*p)))
        .collect();
    let handle = db.open().await;
    for (step, action) in path.iter().enumerate() {
        let next = samekey_model::Model::next_state(model, &state, *action)
            .ok_or_else(|| format!("step {step}: {action:?} is not enabled in the model"))?;
        let at = || format!("step {step} ({action:?}) of {path:?}");
        match *action {
            Action::Send(p) => {
                let (status, body) = post_json(&client, &servers[p as usize], None, PAYLOAD).await;
                if next.told.len() > state.told.len() {
                    let created = next.rows.len() > state.rows.len();
                    let want = format!("rev:v{}:", *next.told.last().unwrap());
                    let key = body["key"].as_str().unwrap_or_default();
                    if status != if created { 201 } else { 200 } || !key.starts_with(&want) {
                        return Err(format!(
                            "{}: the model says {} {want}..., the registry {status} {body}",
                            at(),
                            if created { 201 } else { 200 }
                        ));
                    }
                } else if (status, body["code"].as_str()) != (503, Some("scheme_required")) {
                    return Err(format!(
                        "{}: the model says 503 scheme_required, the registry {status} {body}",
                        at()
                    ));
                }
            }
            Action::Deploy(p, phase) => {
                drop(std::mem::replace(
                    &mut servers[p as usize],
                    Server::start(&db, ring(phase)),
                ));
            }
            Action::Require(s) => schemes::require(&handle, scheme(s), None)
                .await
                .map(drop)
                .map_err(|e| format!("{}: {e}", at()))?,
            Action::Retire(s) => schemes::retire(&handle, scheme(s))
                .await
                .map_err(|e| format!("{}: {e}", at()))?,
            Action::Insert(_) | Action::Kill(_) => {
                return Err(format!("{}: not an action of this design", at()))
            }
        }
        state = next;
    }
    let (revisions, _) = db.counts().await;
    let states = schemes::states(&handle).await.unwrap();
    if revisions as usize != state.rows.len()
        || !bits(state.required, &states, schemes::State::Required)
        || !bits(state.retired, &states, schemes::State::Retired)
    {
        return Err(format!("after {path:?}: the model has {state:?}, the database {revisions} revisions and {states:?}"));
    }
    // Every ring the model would refuse refuses to start here.
    for (phase, (_, accepted)) in PHASES.iter().enumerate() {
        if !fits(*accepted, state.required, state.retired) {
            let _ = Server::refused(&db, ring(phase));
        }
    }
    handle.close().await;
    Ok(())
}

async fn every_model_state_replayed(backend: Backend) {
    let model = Registry::new(Design::Recorded, &[0, 0], 3, true);
    let paths = samekey_model::paths(&model);
    let mut failures = Vec::new();
    // Four paths at a time, each on its own database and processes.
    for chunk in paths.chunks(4) {
        let runs: Vec<_> = chunk
            .iter()
            .map(|path| {
                let (model, path) = (model.clone(), path.clone());
                tokio::spawn(async move { replay(&model, &path, backend).await })
            })
            .collect();
        for run in runs {
            if let Err(e) = run.await.unwrap() {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} paths differ from the model:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
    println!("{backend:?}: {} model states replayed against real processes, every answer as the model says", paths.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_model_state_replayed_on_sqlite() {
    every_model_state_replayed(Backend::Sqlite).await;
}

/// Heavy (about 3 minutes beside the SQLite replay): `just registry::test-heavy` runs it,
/// from `just test-dist`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "heavy: just registry::test-heavy runs it"]
async fn every_model_state_replayed_on_postgres() {
    every_model_state_replayed(Backend::Postgres).await;
}
