//! `canonicalize_json_text` writes canonical text without building a tree: it must give
//! exactly what the tree path gives, `canonical_json(&Value::parse(text))`, for every text,
//! and the same error code for every bad one.

use proptest::prelude::*;
use samekey::{canonical_json, canonicalize_json_text, canonicalize_json_text_from_doubles, Value};

/// Keys that collide, need escapes, or order differently in UTF-8 and UTF-16.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("\\n".to_string()),
        Just("\\u0001".to_string()),
        Just("\\\"".to_string()),
        Just("\u{1F600}".to_string()),
        Just("\u{FB33}".to_string()),
        Just("\\ud83d\\ude00".to_string()),
        "[a-c]{0,3}",
    ]
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => valid_scalar(),
        1 => Just("\"\\ud800\"".to_string()),
        1 => Just("[1,]".to_string()),
    ]
}

fn valid_scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("-0".to_string()),
        Just("1e21".to_string()),
        Just("9007199254740993".to_string()),
        Just("1.0".to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        any::<i32>().prop_map(|i| i.to_string()),
        key().prop_map(|k| format!("\"{k}\"")),
    ]
}

/// JSON text, mostly valid, with random white space.
fn json() -> impl Strategy<Value = String> {
    scalar().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6)
                .prop_map(|items| format!("[ {} ]", items.join(" ,"))),
            prop::collection::vec((key(), inner), 0..6).prop_map(|members| {
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("\"{k}\" :\n{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

fn tree_path(text: &str) -> Result<String, &'static str> {
    Value::parse(text)
        .and_then(|v| canonical_json(&v))
        .map_err(|e| e.code())
}

fn text_path(text: &str) -> Result<String, &'static str> {
    canonicalize_json_text(text).map_err(|e| e.code())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn text_path_equals_tree_path(text in json()) {
        prop_assert_eq!(text_path(&text), tree_path(&text), "{}", text);
    }

    /// The same for host doubles (`Value::parse_from_doubles`): integers are not range-checked.
    #[test]
    fn doubles_text_path_equals_doubles_tree_path(text in json()) {
        let tree = Value::parse_from_doubles(&text).and_then(|v| canonical_json(&v)).map_err(|e| e.code());
        let streamed = canonicalize_json_text_from_doubles(&text).map_err(|e| e.code());
        prop_assert_eq!(streamed, tree, "{}", text);
    }
}

#[test]
fn duplicate_keys_name_the_same_key_either_way() {
    for text in [
        r#"{"b":1,"a":2,"b":3,"a":4}"#,
        r#"{"\n":1,"\u000a":2}"#,
        r#"{"x":{"y":1,"y":2}}"#,
    ] {
        let tree = Value::parse(text).unwrap_err().to_string();
        let streamed = canonicalize_json_text(text).unwrap_err().to_string();
        assert_eq!(streamed, tree, "{text}");
    }
}

#[test]
fn deep_nesting_is_refused_at_the_same_depth() {
    for depth in [127, 128, 129] {
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(text_path(&text), tree_path(&text), "{depth}");
        let text = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        assert_eq!(text_path(&text), tree_path(&text), "{depth}");
    }
}

/// The property compares real output only if most generated texts are valid JSON.
#[test]
fn the_generator_makes_mostly_valid_json_with_objects() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut valid, mut with_objects, n) = (0, 0, 2000);
    for _ in 0..n {
        let text = json().new_tree(&mut runner).unwrap().current();
        if tree_path(&text).is_ok() {
            valid += 1;
            with_objects += usize::from(text.contains('{'));
        }
    }
    assert!(
        valid * 2 > n && with_objects * 4 > n,
        "valid {valid}/{n}, with objects {with_objects}"
    );
}
