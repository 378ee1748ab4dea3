//! Revision data in an object store, checked exhaustively within small bounds: gc that
//! only asks whether a row names an object deletes one a registration is about to commit;
//! announced uploads and deletions under the content's lock never let a committed row
//! name a deleted object.

use samekey_model::objects::{GcDesign, ObjAction, Objects};
use stateright::{Checker, Model};

const NAMED: &str = "every committed row names an object";

fn model(design: GcDesign, orphan: bool) -> Objects {
    Objects {
        design,
        registrations: 2,
        passes: 2,
        ticks: 2,
        orphan,
        shared_deletions: false,
    }
}

#[test]
fn gc_that_asks_only_for_rows_deletes_an_object_a_registration_commits() {
    for orphan in [true, false] {
        let checker = model(GcDesign::RowsOnly, orphan)
            .checker()
            .spawn_bfs()
            .join();
        let lost = checker
            .discovery(NAMED)
            .unwrap_or_else(|| panic!("no lost object found (orphan: {orphan})"));
        let actions = lost.clone().into_actions();
        println!("rows-only gc, orphan {orphan}: a row names a deleted object after {actions:?}");
        assert!(actions.contains(&ObjAction::Gc), "{actions:?}");
        assert!(lost.last_state().row && !lost.last_state().object);
    }
}

#[test]
fn two_gc_passes_sharing_one_announcement_lose_an_object() {
    // The first version of the registry's gc: a second pass re-announced the deletion,
    // and the first pass's end removed it while the second had yet to delete.
    let checker = Objects {
        shared_deletions: true,
        ..model(GcDesign::Announced, true)
    }
    .checker()
    .spawn_bfs()
    .join();
    let lost = checker
        .discovery(NAMED)
        .expect("the shared announcement loses an object");
    let actions = lost.clone().into_actions();
    println!("shared deletions: a row names a deleted object after {actions:?}");
    assert_eq!(
        actions.iter().filter(|a| **a == ObjAction::Gc).count(),
        2,
        "{actions:?}"
    );
}

#[test]
fn announced_uploads_and_deletions_never_lose_a_committed_object() {
    for orphan in [true, false] {
        let checker = model(GcDesign::Announced, orphan)
            .checker()
            .spawn_bfs()
            .join();
        checker.assert_no_discovery(NAMED);
        // Not vacuous: registrations commit, and gc deletes orphans.
        checker.assert_any_discovery("a registration is acknowledged");
        if orphan {
            checker.assert_any_discovery("gc deletes an orphan");
        }
        println!(
            "announced design, orphan {orphan}: {} states, no committed row without its object",
            checker.unique_state_count()
        );
        assert!(checker.unique_state_count() > 1000);
    }
}

#[test]
fn without_the_lease_a_slow_gc_deletes_what_a_taken_over_upload_committed() {
    // What the one timing assumption guards: a gc whose deletion went stale and was taken
    // over, deleting afterwards, would lose the object. Replayed by hand on the model.
    let m = model(GcDesign::Announced, true);
    let mut s = m.init_states().remove(0);
    for a in [ObjAction::Gc, ObjAction::GcStep(0)] {
        s = m.next_state(&s, a).unwrap();
    }
    assert_eq!(s.deletion, Some((0, false)));
    assert!(
        m.next_state(&s, ObjAction::Tick).is_none(),
        "time does not pass while a live gc holds an unexecuted deletion"
    );
}
