//! `samekey schemes`, the registry's rollout steps as an operator runs them.

use std::process::{Command, Output};

fn samekey(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_samekey"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn require_then_retire_and_status_say_where_a_rollout_stands() {
    let dir = tempfile_dir();
    let db = format!("sqlite:{}", dir.join("registry.db").display());
    let (code, out, err) = text(&samekey(&["schemes", "--database", &db, "require", "v1"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("v1 is required: 0 revisions got their v1 key\n"),
        "{out}"
    );
    let (code, out, err) = text(&samekey(&["schemes", "--database", &db, "require", "v2"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("v1      required"), "{out}");
    assert!(out.contains("v2      required"), "{out}");
    let (code, out, err) = text(&samekey(&["schemes", "--database", &db, "retire", "v1"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("v1 is retired: no new revision is recorded under it\n"),
        "{out}"
    );
    let (code, out, _) = text(&samekey(&["schemes", "--database", &db, "status"]));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "scheme  state     created  recorded\nv1      retired         0         0\nv2      required        0         0\n"
    );
    // The last required scheme cannot be retired, a retired one never required again.
    let (code, _, err) = text(&samekey(&["schemes", "--database", &db, "retire", "v2"]));
    assert_eq!(code, 1);
    assert!(
        err.contains("error[schemes_failed]") && err.contains("no other scheme is required"),
        "{err}"
    );
    let (code, _, err) = text(&samekey(&["schemes", "--database", &db, "require", "v1"]));
    assert_eq!(code, 1);
    assert!(err.contains("v1 is retired"), "{err}");
    // Not a scheme: a usage error naming it.
    let (code, _, err) = text(&samekey(&["schemes", "--database", &db, "require", "v9"]));
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("samekey-schemes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
