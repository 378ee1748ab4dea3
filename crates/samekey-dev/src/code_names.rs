//! The core's error codes (`invalid_json`) as names in the languages whose generated
//! sources name them: the words of a code, each capitalised, and the initialisms both
//! languages spell in capitals.

/// The words of `code`, the first lowercase when `lower_first`, every other capitalised
/// (`ulid`, `json` and `io` in capitals): invalid_json -> InvalidJSON or invalidJSON.
pub fn camel(code: &str, lower_first: bool) -> String {
    let mut name = String::new();
    for (i, word) in code.split('_').enumerate() {
        if i == 0 && lower_first {
            name.push_str(word);
        } else if matches!(word, "ulid" | "json" | "io") {
            name.push_str(&word.to_uppercase());
        } else {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                name.extend(first.to_uppercase());
                name.push_str(chars.as_str());
            }
        }
    }
    name
}
