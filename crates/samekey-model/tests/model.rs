//! The registry's protocol across key rings, checked exhaustively within small bounds
//! (stated in each test and in the registry README): samekey 0.2's design has a twin, the
//! recorded-keys design has none, through every rollout order the operator can take.

use samekey_model::{Action, Design, Registry, PHASES};
use stateright::{Checker, Model};

const ONE: &str = "one (parent, data), one revision";
const TOLD: &str = "every client told the key the creator was told";
const READABLE: &str = "every acknowledged revision readable";

/// The rings of the table, side by side: (old, one-step v2+v1), (expand, switch).
const PAIRS: [[usize; 2]; 3] = [[0, 2], [1, 2], [0, 1]];

#[test]
fn the_lookup_design_makes_a_twin_of_processes_with_different_rings() {
    for pair in [[0, 2], [1, 2]] {
        let checker = Registry::new(Design::Lookup, &pair, 2, false)
            .checker()
            .spawn_bfs()
            .join();
        let twin = checker
            .discovery(ONE)
            .unwrap_or_else(|| panic!("no twin found for rings {pair:?}"));
        let actions = twin.clone().into_actions();
        println!(
            "Lookup design, rings {:?}: twin after {actions:?}",
            pair.map(|p| PHASES[p])
        );
        assert_eq!(twin.last_state().rows.len(), 2, "{twin}");
        assert!(
            checker.discovery(TOLD).is_some(),
            "two keys told for one (parent, data)"
        );
        // The shortest one: both requests look up (find nothing), then both insert.
        assert_eq!(actions.len(), 4, "{actions:?}");
        assert!(
            actions
                .iter()
                .filter(|a| matches!(a, Action::Insert(_)))
                .count()
                == 2
        );
    }
    // Sequential too, newer ring first: the older ring's process never looks v2 keys up.
    let model = Registry::new(Design::Lookup, &[2, 0], 2, false);
    let mut state = model.init_states().remove(0);
    for action in [
        Action::Send(0),
        Action::Insert(0),
        Action::Send(1),
        Action::Insert(0),
    ] {
        state = model
            .next_state(&state, action)
            .expect("the action is enabled");
    }
    assert_eq!(state.rows.len(), 2, "{state:?}");
    assert_eq!(state.told, [2, 1], "201 rev:v2:..., then 201 rev:v1:...");
}

#[test]
fn the_recorded_design_keeps_one_revision_for_every_pair_of_rings() {
    for pair in PAIRS {
        let checker = Registry::new(Design::Recorded, &pair, 3, false)
            .checker()
            .spawn_bfs()
            .join();
        for property in [ONE, TOLD, READABLE] {
            checker.assert_no_discovery(property);
        }
        assert!(checker.discovery("a revision is acknowledged").is_some());
        println!(
            "Recorded design, rings {:?}: {} states, no counterexample",
            pair.map(|p| PHASES[p]),
            checker.unique_state_count()
        );
    }
}

#[test]
fn the_recorded_design_keeps_one_revision_through_every_rollout_order() {
    // Three processes from the first phase, five requests, every redeploy (steps skipped
    // too), require and retire at any time.
    let checker = Registry::new(Design::Recorded, &[0, 0, 0], 5, true)
        .checker()
        .spawn_bfs()
        .join();
    checker.assert_properties();
    println!(
        "Recorded design, full rollout: {} states, no counterexample",
        checker.unique_state_count()
    );
    // The same bounds find the twin in the lookup design.
    let checker = Registry::new(Design::Lookup, &[0, 0], 3, true)
        .checker()
        .spawn_bfs()
        .join();
    assert!(
        checker.discovery(ONE).is_some(),
        "the lookup design's rollout has a twin"
    );
}

#[test]
fn without_the_databases_scheme_guards_a_rollout_makes_a_twin() {
    // Recorded keys alone are not enough: a v2-only process deployed while a v1-only one
    // still serves (the contract step taken before the expand step) shares no scheme with it.
    let checker = Registry {
        design: Design::Recorded,
        processes: vec![0, 0],
        requests: 3,
        rollout: true,
        guards: false,
    }
    .checker()
    .spawn_bfs()
    .join();
    let twin = checker.discovery(ONE).expect("a twin without the guards");
    println!(
        "Recorded design without guards: twin after {:?}",
        twin.into_actions()
    );
}

#[test]
fn every_reachable_state_has_a_path_to_replay() {
    let model = Registry::new(Design::Recorded, &[0, 0], 3, true);
    let paths = samekey_model::paths(&model);
    let states = model
        .clone()
        .checker()
        .spawn_bfs()
        .join()
        .unique_state_count();
    assert_eq!(paths.len(), states);
    println!(
        "{} paths, the longest {} actions",
        paths.len(),
        paths.iter().map(Vec::len).max().unwrap()
    );
}
