//! The documentation's error table (docs/src/reference/errors.md): every code of the
//! core's one list, in its order, with its meaning from the spec's table (§11) and what a
//! user does about it (docs/errors.toml). A code missing from either source, or an entry
//! for a code the core does not have, fails the generator.

use crate::generated::{File, Mode, Output};
use std::collections::BTreeMap;
use std::path::Path;

const PAGE: &str = "docs/src/reference/errors.md";
const SPEC: &str = "spec/samekey.md";
const ADVICE: &str = "docs/errors.toml";
const SECTION: &str = "## 11. Error codes";

pub fn run(root: &Path, _: Mode) -> Result<Output, String> {
    let read =
        |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"));
    let meanings = spec_meanings(&read(SPEC)?)?;
    let advice: BTreeMap<String, String> =
        toml::from_str(&read(ADVICE)?).map_err(|e| format!("{ADVICE}: {e}"))?;
    let mut contents = page(samekey::Error::CODES, &meanings, &advice)?;
    contents.push_str(&crate::docs_errors_registry::sections(
        root,
        samekey::Error::CODES,
    )?);
    Ok(Output::Files(vec![File {
        path: PAGE.into(),
        contents,
    }]))
}

/// The `| `code` | meaning |` rows of the spec's error table, in order.
fn spec_meanings(spec: &str) -> Result<Vec<(String, String)>, String> {
    let start = spec
        .find(SECTION)
        .ok_or_else(|| format!("{SPEC} has no `{SECTION}`"))?;
    let section = &spec[start + SECTION.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    Ok(section
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| `")?;
            let (code, rest) = rest.split_once("` | ")?;
            Some((code.to_owned(), rest.strip_suffix(" |")?.to_owned()))
        })
        .collect())
}

fn page(
    codes: &[&str],
    meanings: &[(String, String)],
    advice: &BTreeMap<String, String>,
) -> Result<String, String> {
    let mut problems = Vec::new();
    for (code, _) in meanings {
        if !codes.contains(&code.as_str()) {
            problems.push(format!("{SPEC} §11 has `{code}`, which the core does not"));
        }
    }
    for code in advice.keys() {
        if !codes.contains(&code.as_str()) {
            problems.push(format!("{ADVICE} has `{code}`, which the core does not"));
        }
    }
    let mut out = String::from(
        "<!-- Written by `cargo xtask generate docs-errors` from the core's codes, the spec's \
         table (§11), docs/errors.toml, the registry README's error table and \
         docs/client-errors.toml: edit those, not this page. -->\n\n\
         # Error codes\n\n\
         Every samekey error carries one of these codes, the same in every language: \
         `SamekeyError.code` in Python and JavaScript, `errors.Is(err, samekey.ErrNoFields)` \
         in Go, `SamekeyException.code` on the JVM (`getCode()` from Java), `Error::code()` in Rust, a SQLSTATE and \
         the code in the message in PostgreSQL, the `code` of the registry's RFC 9457 \
         problem details. The codes never change once released; messages are for people \
         and may. Each meaning is the [specification's (§11)](spec.md#11-error-codes). \
         Each code has a section of its own (`errors.html#CODE` links to it, and the \
         site's search finds it first).\n\n\
         ## The core's codes\n\n",
    );
    let index: Vec<String> = codes.iter().map(|c| format!("[`{c}`](#{c})")).collect();
    out.push_str(&format!("{}\n", index.join(" · ")));
    for code in codes {
        let meaning = meanings.iter().find(|(c, _)| c == code).map(|(_, m)| m);
        let Some(meaning) = meaning else {
            problems.push(format!("the core's `{code}` has no row in {SPEC} §11"));
            continue;
        };
        let Some(what) = advice.get(*code) else {
            problems.push(format!("the core's `{code}` has no entry in {ADVICE}"));
            continue;
        };
        out.push_str(&format!(
            "\n### `{code}` {{#{code}}}\n\n**When:** {}.\n\n{what}\n",
            meaning.replace("\\|", "|")
        ));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    const SPEC: &str = "# x\n\n## 11. Error codes\n\n| code | meaning |\n|---|---|\n| `a` | the a |\n| `b` | the b |\n\n## 12. Next\n\n| `c` | not here |\n";

    #[test]
    fn reads_the_spec_table_only() {
        let rows = super::spec_meanings(SPEC).unwrap();
        assert_eq!(
            rows,
            [("a".into(), "the a".into()), ("b".into(), "the b".into())]
        );
    }

    #[test]
    fn every_code_needs_a_meaning_and_advice_and_nothing_else() {
        let meanings = super::spec_meanings(SPEC).unwrap();
        let advice = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let page = super::page(
            &["a", "b"],
            &meanings,
            &advice(&[("a", "do a"), ("b", "x|y")]),
        )
        .unwrap();
        assert!(page.contains("\n### `a` {#a}\n\n**When:** the a.\n\ndo a\n"));
        assert!(page.contains("[`a`](#a) · [`b`](#b)\n"));
        let missing = super::page(&["a", "b"], &meanings, &advice(&[("a", "do a")])).unwrap_err();
        assert!(missing.contains("`b` has no entry"), "{missing}");
        let extra =
            super::page(&["a"], &meanings, &advice(&[("a", "do a"), ("z", "?")])).unwrap_err();
        assert!(
            extra.contains("`z`") && extra.contains("`b`, which the core does not"),
            "{extra}"
        );
    }
}
