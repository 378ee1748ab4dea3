//! The error page's registry sections: the registry's own problem codes, read from its
//! README's error table (which the registry's tests hold to what the server sends), and
//! the clients' codes, whose advice is docs/client-errors.toml and which every client
//! must define exactly (Go, Python, TypeScript and Kotlin constants, read from source).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const README: &str = "crates/samekey-registry/README.md";
const CLIENT_ADVICE: &str = "docs/client-errors.toml";
const TABLE: &str = "## Errors";

/// Where each client defines its codes, and how a definition line starts and quotes.
const CLIENTS: &[(&str, &str, char)] = &[
    ("bindings/go/registry/types.go", "Code", '"'),
    ("bindings/python/python/samekey/registry/_types.py", "", '"'),
    ("bindings/node/lib/registry.mjs", "export const ", '\''),
    (
        "bindings/kotlin/src/main/kotlin/io/github/samekey/registry/Types.kt",
        "public const val ",
        '"',
    ),
];

/// The page's sections after the core's table.
pub fn sections(root: &Path, core: &[&str]) -> Result<String, String> {
    let read =
        |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"));
    let rows = registry_rows(&read(README)?, core)?;
    let advice: BTreeMap<String, String> =
        toml::from_str(&read(CLIENT_ADVICE)?).map_err(|e| format!("{CLIENT_ADVICE}: {e}"))?;
    let mut problems = Vec::new();
    let want: BTreeSet<&str> = advice.keys().map(String::as_str).collect();
    for (path, prefix, quote) in CLIENTS {
        let found = client_codes(&read(path)?, prefix, *quote);
        if found.iter().map(String::as_str).collect::<BTreeSet<_>>() != want {
            problems.push(format!(
                "{path} defines {found:?}, {CLIENT_ADVICE} has {want:?}"
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    Ok(page(&rows, &advice))
}

/// The registry's own codes in its README's error table: (status, code, when), in order,
/// leaving out the core's codes (the core's table has them).
fn registry_rows(readme: &str, core: &[&str]) -> Result<Vec<(String, String, String)>, String> {
    let start = readme
        .find(TABLE)
        .ok_or_else(|| format!("{README} has no `{TABLE}`"))?;
    let section = &readme[start + TABLE.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut rows = Vec::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let [status, codes, when] = cells[..] else {
            continue;
        };
        if !status.bytes().all(|b| b.is_ascii_digit()) || status.is_empty() {
            continue;
        }
        for code in codes.split('`').skip(1).step_by(2) {
            if !core.contains(&code) {
                rows.push((status.to_owned(), code.to_owned(), when.to_owned()));
            }
        }
    }
    if rows.is_empty() {
        return Err(format!(
            "{README}'s error table has no code of the registry's own"
        ));
    }
    Ok(rows)
}

/// The codes a client's source defines: `<prefix>NAME = "code"` lines.
fn client_codes(source: &str, prefix: &str, quote: char) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix(prefix)?;
            let (name, value) = rest.split_once('=')?;
            let name = name.split(':').next()?.trim();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return None;
            }
            let value = value.trim().trim_end_matches(';');
            let code = value.strip_prefix(quote)?.strip_suffix(quote)?;
            code.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_')
                .then(|| code.to_owned())
        })
        .collect()
}

fn page(rows: &[(String, String, String)], advice: &BTreeMap<String, String>) -> String {
    let mut out = String::from(
        "\n## The registry's problem codes\n\n\
         The registry (`samekey serve`) answers a failed request with an RFC 9457 problem \
         whose `code` is one of the core's above (data it cannot canonicalise, a key it \
         cannot read) or one of its own, from [its README](https://github.com/samekey/samekey/blob/main/crates/samekey-registry/README.md#errors). \
         A 503 and a 500 can be retried as they are: a registration is keyed by its \
         content, so a retry creates nothing twice.\n\n",
    );
    let index: Vec<String> = rows
        .iter()
        .map(|(_, c, _)| format!("[`{c}`](#{c})"))
        .collect();
    out.push_str(&format!("{}\n", index.join(" · ")));
    for (status, code, when) in rows {
        out.push_str(&format!(
            "\n### `{code}` ({status}) {{#{code}}}\n\n**When:** {}.\n",
            when.replace("\\|", "|")
        ));
    }
    out.push_str(
        "\n## The registry clients' codes\n\n\
         The registry clients (Python `samekey.registry`, TypeScript `samekey/registry`, \
         Go `registry`, the JVM's `RegistryException`) raise the registry's codes as the \
         registry sent them, and these of their own for what no answer of the registry names.\n\n",
    );
    let index: Vec<String> = advice.keys().map(|c| format!("[`{c}`](#{c})")).collect();
    out.push_str(&format!("{}\n", index.join(" · ")));
    for (code, what) in advice {
        out.push_str(&format!("\n### `{code}` {{#{code}}}\n\n{what}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    const README: &str = "# r\n\n## Errors\n\n| status | code | when |\n|---|---|---|\n\
        | 400 | <a id=\"error-invalid_json\"></a>`invalid_json`, `invalid_query` | bad |\n\
        | 503 | `database_unavailable` | the database \\| failed |\n\n## Metrics\n\n| 200 | `x` | not here |\n";

    #[test]
    fn reads_the_registry_codes_and_leaves_out_the_cores() {
        let rows = super::registry_rows(README, &["invalid_json"]).unwrap();
        let codes: Vec<_> = rows
            .iter()
            .map(|(s, c, _)| (s.as_str(), c.as_str()))
            .collect();
        assert_eq!(
            codes,
            [("400", "invalid_query"), ("503", "database_unavailable")]
        );
    }

    #[test]
    fn reads_each_clients_constants() {
        let go = "const (\n\tCodeConnectionFailed   = \"connection_failed\"\n\tCodeX = \"key_mismatch\"\n)\nvar y = \"no\"";
        assert_eq!(
            super::client_codes(go, "Code", '"'),
            ["connection_failed", "key_mismatch"]
        );
        let js = "export const NOT_REWINDABLE = 'not_rewindable';\nconst JSON_TYPE = 'application/json';";
        assert_eq!(
            super::client_codes(js, "export const ", '\''),
            ["not_rewindable"]
        );
        let kt = "        public const val KEY_MISMATCH: String = \"key_mismatch\"";
        assert_eq!(
            super::client_codes(kt, "public const val ", '"'),
            ["key_mismatch"]
        );
        let py = "CONNECTION_FAILED = \"connection_failed\"\nOCTET = \"application/octet-stream\"";
        assert_eq!(super::client_codes(py, "", '"'), ["connection_failed"]);
    }
}
