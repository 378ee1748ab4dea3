//! The examples published in RFC 8785 itself (§3.2.2, §3.2.3, Appendix B), independent of
//! both samekey implementations.

use samekey::{canonicalize_json_text, Value};

#[test]
fn section_3_2_2_example() {
    let input = r#"{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}"#;
    assert_eq!(
        canonicalize_json_text(input).unwrap(),
        r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
    );
}

#[test]
fn section_3_2_3_sorting() {
    let input = r#"{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}"#;
    let Value::Object(members) = Value::parse(&canonicalize_json_text(input).unwrap()).unwrap()
    else {
        panic!("not an object")
    };
    let values: Vec<String> = members
        .into_iter()
        .map(|(_, v)| match v {
            Value::String(s) => s,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        values,
        [
            "Carriage Return",
            "One",
            "Control",
            "Latin Small Letter O With Diaeresis",
            "Euro Sign",
            "Emoji: Grinning Face",
            "Hebrew Letter Dalet With Dagesh"
        ]
    );
}

#[test]
fn appendix_b_numbers() {
    let cases: [(u64, &str); 24] = [
        (0x0000000000000000, "0"),
        (0x8000000000000000, "0"),
        (0x0000000000000001, "5e-324"),
        (0x8000000000000001, "-5e-324"),
        (0x7fefffffffffffff, "1.7976931348623157e+308"),
        (0xffefffffffffffff, "-1.7976931348623157e+308"),
        (0x4340000000000000, "9007199254740992"),
        (0xc340000000000000, "-9007199254740992"),
        (0x4430000000000000, "295147905179352830000"),
        (0x44b52d02c7e14af5, "9.999999999999997e+22"),
        (0x44b52d02c7e14af6, "1e+23"),
        (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
        (0x444b1ae4d6e2ef4e, "999999999999999700000"),
        (0x444b1ae4d6e2ef4f, "999999999999999900000"),
        (0x444b1ae4d6e2ef50, "1e+21"),
        (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
        (0x3eb0c6f7a0b5ed8d, "0.000001"),
        (0x41b3de4355555553, "333333333.3333332"),
        (0x41b3de4355555554, "333333333.33333325"),
        (0x41b3de4355555555, "333333333.3333333"),
        (0x41b3de4355555556, "333333333.3333334"),
        (0x41b3de4355555557, "333333333.33333343"),
        (0xbecbf647612f3696, "-0.0000033333333333333333"),
        (0x43143ff3c1cb0959, "1424953923781206.2"),
    ];
    for (bits, want) in cases {
        let v = Value::number(f64::from_bits(bits)).unwrap();
        assert_eq!(samekey::canonical_json(&v).unwrap(), want, "{bits:016x}");
    }
    for bits in [0x7fffffffffffffff_u64, 0x7ff0000000000000] {
        assert_eq!(
            Value::number(f64::from_bits(bits)).unwrap_err().code(),
            "number_out_of_range"
        );
    }
}

#[test]
fn host_doubles_skip_only_the_integer_rule() {
    use samekey::canonical_json;
    let v = Value::parse_from_doubles("[9007199254740992, 1e20]").unwrap();
    assert_eq!(
        canonical_json(&v).unwrap(),
        "[9007199254740992,100000000000000000000]"
    );
    assert_eq!(
        Value::parse("9007199254740992").unwrap_err().code(),
        "number_out_of_range"
    );
    for (text, code) in [
        ("1e400", "number_out_of_range"),
        ("{\"a\":1,\"a\":2}", "duplicate_key"),
        ("NaN", "invalid_json"),
    ] {
        assert_eq!(
            Value::parse_from_doubles(text).unwrap_err().code(),
            code,
            "{text}"
        );
    }
}
