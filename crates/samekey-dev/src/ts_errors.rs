//! The `ErrorCode` union of bindings/node/index.d.ts (which samekey-wasm ships too): the
//! core's codes, in order. The rest of the file is written by hand.

use crate::generated::{File, Mode, Output};
use std::path::Path;

const PATH: &str = "bindings/node/index.d.ts";
const START: &str = "export type ErrorCode =";

pub fn run(root: &Path, _: Mode) -> Result<Output, String> {
    let text = std::fs::read_to_string(root.join(PATH)).map_err(|e| format!("{PATH}: {e}"))?;
    let start = text
        .find(START)
        .ok_or_else(|| format!("{PATH} has no `{START}`"))?;
    let end = start
        + text[start..]
            .find(';')
            .ok_or_else(|| format!("{PATH}: `{START}` has no closing `;`"))?;
    let contents = format!(
        "{}{}{}",
        &text[..start],
        union(samekey::Error::CODES),
        &text[end..]
    );
    Ok(Output::Files(vec![File {
        path: PATH.into(),
        contents,
    }]))
}

/// `export type ErrorCode =` then the codes as `  | 'a' | 'b'` lines of at most 100 columns.
fn union(codes: &[&str]) -> String {
    let mut out = String::from(START);
    let mut line = String::new();
    for code in codes {
        let item = format!(" | '{code}'");
        if !line.is_empty() && line.len() + item.len() > 100 {
            out.push('\n');
            out.push_str(&line);
            line.clear();
        }
        line.push_str(if line.is_empty() {
            item.trim_start()
        } else {
            &item
        });
        if line.starts_with('|') && !line.starts_with("  ") {
            line.insert_str(0, "  ");
        }
    }
    out.push('\n');
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn wraps_at_100_columns() {
        let codes = ["a_code"; 30];
        let text = super::union(&codes);
        assert!(
            text.lines()
                .skip(1)
                .all(|l| l.len() <= 100 && l.starts_with("  | '")),
            "{text}"
        );
        assert_eq!(text.matches("'a_code'").count(), 30);
    }
}
