//! The history checker's own tests: each kind of violation, planted, is reported, and a
//! clean history passes.

mod common;

use std::collections::HashMap;

use common::history::{check, Index, Op, Outcome, Stored};

fn acked(data: &[u8], parent: Option<&str>, key: &str) -> Op {
    Op {
        data: data.to_vec(),
        parent: parent.map(str::to_string),
        outcome: Outcome::Acked {
            status: 201,
            key: key.to_string(),
        },
    }
}

fn stored(data: &[u8], parent: Option<&str>, hash: &str) -> Stored {
    Stored {
        parent: parent.map(str::to_string),
        content_hash: hash.to_string(),
        data: data.to_vec(),
    }
}

/// A clean run: two revisions, one a child of the other, one registered twice (201 then
/// 200), one failed registration that was never stored.
fn clean() -> (Vec<Op>, HashMap<String, Stored>, Index) {
    let mut retry = acked(b"a", None, "rev:a");
    retry.outcome = Outcome::Acked {
        status: 200,
        key: "rev:a".into(),
    };
    let ops = vec![
        acked(b"a", None, "rev:a"),
        acked(b"b", Some("rev:a"), "rev:b"),
        retry,
        Op {
            data: b"c".to_vec(),
            parent: None,
            outcome: Outcome::Failed("503 database_unavailable".into()),
        },
    ];
    let stored = HashMap::from([
        ("rev:a".to_string(), stored(b"a", None, "h:a")),
        ("rev:b".to_string(), stored(b"b", Some("rev:a"), "h:b")),
    ]);
    let all = vec![
        ("rev:a".to_string(), None, "h:a".to_string()),
        (
            "rev:b".to_string(),
            Some("rev:a".to_string()),
            "h:b".to_string(),
        ),
    ];
    (ops, stored, all)
}

#[test]
fn a_clean_history_passes() {
    let (ops, stored, all) = clean();
    assert_eq!(check(&ops, &stored, &all), Vec::<String>::new());
}

#[test]
fn a_failed_registration_that_was_stored_after_all_is_no_violation() {
    let (ops, mut stored, mut all) = clean();
    stored.insert("rev:c".into(), self::stored(b"c", None, "h:c"));
    all.push(("rev:c".into(), None, "h:c".into()));
    assert_eq!(check(&ops, &stored, &all), Vec::<String>::new());
}

#[test]
fn a_lost_acknowledged_write_is_caught() {
    let (ops, mut stored, mut all) = clean();
    stored.remove("rev:b");
    all.retain(|(k, _, _)| k != "rev:b");
    let problems = check(&ops, &stored, &all);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("rev:b was acknowledged (201) and is lost"),
        "{problems:?}"
    );
}

#[test]
fn a_duplicate_revision_in_the_database_is_caught() {
    let (ops, stored, mut all) = clean();
    all.push(("rev:a2".into(), None, "h:a".into()));
    let problems = check(&ops, &stored, &all);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("2 revisions of h:a on parent None"),
        "{problems:?}"
    );
}

#[test]
fn the_same_data_acknowledged_under_two_keys_is_caught() {
    let (mut ops, mut stored, _) = clean();
    ops.push(acked(b"a", None, "rev:a2"));
    stored.insert("rev:a2".into(), self::stored(b"a", None, "h:a2"));
    let problems = check(&ops, &stored, &Index::new());
    assert!(
        problems
            .iter()
            .any(|p| p.contains("acknowledged as rev:a and as rev:a2")),
        "{problems:?}"
    );
}

#[test]
fn changed_bytes_or_parent_are_caught() {
    let (ops, mut stored, all) = clean();
    stored.get_mut("rev:a").unwrap().data = b"A".to_vec();
    stored.get_mut("rev:b").unwrap().parent = None;
    let problems = check(&ops, &stored, &all);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("rev:a holds 1 bytes that are not the 1 sent")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("rev:b has parent None, sent with Some(\"rev:a\")")),
        "{problems:?}"
    );
}

#[test]
fn an_acknowledgement_with_another_status_is_caught() {
    let (mut ops, stored, all) = clean();
    ops[0].outcome = Outcome::Acked {
        status: 202,
        key: "rev:a".into(),
    };
    let problems = check(&ops, &stored, &all);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("acknowledged with status 202")),
        "{problems:?}"
    );
}

/// A twin made under another scheme (what samekey 0.2's mixed-ring rollouts wrote) is
/// caught in a real database: its content hash differs (`blake3:`), its data does not.
#[tokio::test]
async fn a_twin_under_another_scheme_in_a_database_is_caught() {
    let db = common::fresh_db(common::Backend::Sqlite).await;
    let server = common::Server::start(&db, &[]);
    let client = common::client();
    let body = r#"{"twin":true}"#;
    let (_, first) = common::post_json(&client, &server, None, body).await;
    let first = first["key"].as_str().unwrap().to_string();
    let handle = db.open().await;
    let data = samekey::canonicalize_json_text(body).unwrap().into_bytes();
    let hash = samekey::content_hash(samekey::Scheme::V2, &data).unwrap();
    let key = samekey::derive_revision(samekey::Scheme::V2, None, &hash, None).unwrap();
    samekey_registry::on_pool!(&handle, pool => {
        sqlx::query("INSERT INTO contents (hash, media_type, data) VALUES ($1, 'application/json', $2)")
            .bind(hash.to_string()).bind(&data).execute(pool).await.unwrap();
        // Marked as a twin, as the upgrade marks 0.2's: the database lets it stand.
        sqlx::query("INSERT INTO revisions (key, parent, scheme, content_hash, media_type, size, created_at_ms, twin_of) \
                     VALUES ($1, NULL, 'v2', $2, 'application/json', $3, 0, $4)")
            .bind(key.to_string()).bind(hash.to_string()).bind(data.len() as i64).bind(&first)
            .execute(pool).await.unwrap();
    });
    let all = handle.revision_index(None).await.unwrap();
    let problems = check(&[], &HashMap::new(), &all);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("2 revisions of sha256:"),
        "{problems:?}"
    );
    assert!(
        problems[0].contains(&first) && problems[0].contains(&key.to_string()),
        "{problems:?}"
    );
}
