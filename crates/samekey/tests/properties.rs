//! Properties over random inputs: framing is injective, every text form round-trips,
//! and the ULID text agrees with the `ulid` crate.

use proptest::prelude::*;
use samekey::{
    canonical_json, content_hash, derive_revision, format_rfc3339, parse_rfc3339, ulid_message,
    ContentHash, RevisionKey, Scheme, Ulid, Value,
};

fn scheme() -> impl Strategy<Value = Scheme> {
    prop_oneof![Just(Scheme::V1), Just(Scheme::V2)]
}

fn inputs() -> impl Strategy<Value = (String, Vec<Vec<u8>>)> {
    let field = prop::collection::vec(prop_oneof![Just(b':'), Just(0u8), any::<u8>()], 0..6);
    ("[a:]{0,3}", prop::collection::vec(field, 1..5))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn distinct_inputs_frame_to_distinct_messages(s in scheme(), a in inputs(), b in inputs()) {
        prop_assume!(a != b);
        prop_assert_ne!(ulid_message(s, &a.0, &a.1).unwrap(), ulid_message(s, &b.0, &b.1).unwrap());
    }

    #[test]
    fn ulid_text_round_trips_and_matches_the_ulid_crate(bytes in any::<[u8; 16]>()) {
        let id = Ulid::from_bytes(bytes);
        let text = id.to_string();
        prop_assert_eq!(&text, &ulid::Ulid::from_bytes(bytes).to_string());
        prop_assert_eq!(text.parse::<Ulid>().unwrap(), id);
        prop_assert_eq!(text.to_lowercase().parse::<Ulid>().unwrap(), id);
        prop_assert_eq!(id.to_uuid_string(), uuid_text(&bytes));
    }

    #[test]
    fn content_hash_and_revision_key_text_round_trip(s in scheme(), data in any::<Vec<u8>>(), parent in proptest::option::of("[^\u{0}]{1,8}")) {
        let h = content_hash(s, &data).unwrap();
        prop_assert_eq!(h.to_string().parse::<ContentHash>().unwrap(), h);
        let k = derive_revision(s, parent.as_deref(), &h, None).unwrap();
        prop_assert_eq!(k.to_string().parse::<RevisionKey>().unwrap(), k);
    }

    #[test]
    fn timestamps_round_trip_through_rfc3339(ms in 0u64..=samekey::timestamp::MAX_MS) {
        let text = format_rfc3339(ms).unwrap();
        // Five-digit years (past 9999) are beyond RFC 3339's grammar.
        prop_assume!(ms <= 253_402_300_799_999);
        prop_assert_eq!(parse_rfc3339(&text).unwrap(), ms);
    }

    /// Holds for every value whose numbers do not print as integer literals beyond
    /// 2^53-1; see `canonical_text_of_a_large_float_is_not_accepted_as_input`.
    #[test]
    fn canonical_json_is_a_fixed_point(v in json_value()) {
        let once = canonical_json(&v).unwrap();
        let twice = canonical_json(&Value::parse(&once).unwrap()).unwrap();
        prop_assert_eq!(once, twice);
    }
}

fn uuid_text(b: &[u8; 16]) -> String {
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>()
            .prop_filter("finite, not printed as a long integer", |f| f.is_finite()
                && !prints_as_unsafe_integer(*f))
            .prop_map(Value::Number),
        (-(1i64 << 53) + 1..(1i64 << 53)).prop_map(|n| Value::Number(n as f64)),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// ECMAScript prints 2^53 <= |x| < 1e21 without fraction or exponent.
fn prints_as_unsafe_integer(f: f64) -> bool {
    (9_007_199_254_740_992.0..1e21).contains(&f.abs())
}

/// Spec §6.4: the input rule rejects integer literals beyond 2^53-1, and ECMAScript
/// formatting writes floats in [2^53, 1e21) as exactly such literals. So canonical text
/// is not always valid input again; the hash of the original input is still well defined.
#[test]
fn canonical_text_of_a_large_float_is_not_accepted_as_input() {
    let canonical = samekey::canonicalize_json_text("1e20").unwrap();
    assert_eq!(canonical, "100000000000000000000");
    assert_eq!(
        Value::parse(&canonical).unwrap_err().code(),
        "number_out_of_range"
    );
}
