//! One version for every package, and every generator pinned to exactly the version of
//! the crate it serves: the wasm-bindgen CLI to the wasm-bindgen crate, cargo-pgrx to
//! pgrx, uniffi's bindgen to uniffi (built from it), cbindgen to this crate's dependency.

use crate::generated::{Mode, Output};
use std::fs;
use std::path::Path;

fn read(root: &Path, path: &str) -> Result<String, String> {
    fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"))
}

fn toml(root: &Path, path: &str) -> Result<toml::Table, String> {
    read(root, path)?
        .parse::<toml::Table>()
        .map_err(|e| format!("{path}: {e}"))
}

/// The string at a dotted path of a TOML table (`package.version`), or "".
fn at<'a>(table: &'a toml::Table, dotted: &str) -> &'a str {
    let mut value: Option<&toml::Value> = None;
    for (i, key) in dotted.split('.').enumerate() {
        value = if i == 0 {
            table.get(key)
        } else {
            value.and_then(|v| v.get(key))
        };
    }
    value.and_then(toml::Value::as_str).unwrap_or("")
}

/// `name := "value"` in a justfile, or `name=value` at the start of a shell line.
fn assignment<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?;
        let value = rest
            .trim_start()
            .strip_prefix(":=")
            .map(str::trim)
            .or_else(|| rest.strip_prefix('='))?;
        Some(value.trim_matches('"'))
    })
}

/// The project's own `<version>` in a pom.xml: outside comments, the first one after
/// `</parent>` or, with no parent, before `<dependencies>`, `<build>` and `<properties>`.
fn pom_version(pom: &str) -> Option<String> {
    let mut text = String::new();
    let mut rest = pom;
    while let Some(start) = rest.find("<!--") {
        text.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    text.push_str(rest);
    let head = text
        .split("<dependencies>")
        .next()?
        .split("<build>")
        .next()?
        .split("<properties>")
        .next()?;
    let head = head.rsplit("</parent>").next()?;
    let start = head.find("<version>")? + "<version>".len();
    Some(head[start..start + head[start..].find("</version>")?].to_owned())
}

/// The version a go.mod requires of `module` (`require module v1.2.3`), without its `v`.
fn go_requirement(go_mod: &str, module: &str) -> String {
    go_mod
        .lines()
        .find_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("require").unwrap_or(line).trim_start();
            line.strip_prefix(module)?.trim().strip_prefix('v')
        })
        .unwrap_or("")
        .to_owned()
}

/// Each `N.N.N` in a text: the versions an install line names.
fn versions_in(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|word| word.trim_matches('.'))
        .filter(|word| word.split('.').count() == 3 && word.split('.').all(|n| !n.is_empty()))
        .collect()
}

/// The site's install lines (docs/examples/install/) name the workspace's version only.
fn install_lines(root: &Path, version: &str) -> Result<Vec<String>, String> {
    let dir = "docs/examples/install";
    let mut entries: Vec<_> = fs::read_dir(root.join(dir))
        .map_err(|e| format!("{dir}: {e}"))?
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    let mut problems = Vec::new();
    for name in entries {
        let path = format!("{dir}/{name}");
        for found in versions_in(&read(root, &path)?) {
            if found != version {
                problems.push(format!(
                    "{path} names {found}, not the workspace's {version}"
                ));
            }
        }
    }
    Ok(problems)
}

fn json_version(root: &Path, path: &str) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(&read(root, path)?).map_err(|e| format!("{path}: {e}"))?;
    Ok(value["version"].as_str().unwrap_or("").to_owned())
}

fn dev_dependency(root: &Path, path: &str, name: &str) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(&read(root, path)?).map_err(|e| format!("{path}: {e}"))?;
    Ok(value["devDependencies"][name]
        .as_str()
        .unwrap_or("")
        .to_owned())
}

pub fn run(root: &Path, _: Mode) -> Result<Output, String> {
    let workspace = toml(root, "Cargo.toml")?;
    let version = at(&workspace, "workspace.package.version").to_owned();
    let pg = toml(root, "extensions/postgres/Cargo.toml")?;
    let found = [
        (
            "bindings/python/pyproject.toml",
            at(
                &toml(root, "bindings/python/pyproject.toml")?,
                "project.version",
            )
            .to_owned(),
        ),
        (
            "bindings/node/package.json",
            json_version(root, "bindings/node/package.json")?,
        ),
        (
            "bindings/wasm/package.json",
            json_version(root, "bindings/wasm/package.json")?,
        ),
        (
            "bindings/kotlin/pom.xml",
            pom_version(&read(root, "bindings/kotlin/pom.xml")?).unwrap_or_default(),
        ),
        (
            "bindings/kotlin/spark/pom.xml",
            pom_version(&read(root, "bindings/kotlin/spark/pom.xml")?).unwrap_or_default(),
        ),
        (
            "extensions/postgres/Cargo.toml",
            at(&pg, "package.version").to_owned(),
        ),
        (
            "docs/examples/hello/rust/Cargo.toml's samekey dependency",
            at(
                &toml(root, "docs/examples/hello/rust/Cargo.toml")?,
                "dependencies.samekey",
            )
            .to_owned(),
        ),
        (
            "docs/examples/hello/go/go.mod's requirement of the Go package",
            go_requirement(
                &read(root, "docs/examples/hello/go/go.mod")?,
                "github.com/samekey/samekey/bindings/go",
            ),
        ),
        (
            "extensions/postgres's samekey dependency",
            at(&pg, "dependencies.samekey.version")
                .trim_start_matches('=')
                .to_owned(),
        ),
    ];
    let mut problems: Vec<String> = found
        .iter()
        .filter(|(_, v)| *v != version)
        .map(|(what, v)| format!("{what} is {v:?}, not the workspace's {version}"))
        .collect();
    problems.extend(install_lines(root, &version)?);

    let mut exact = |what: &str, requirement: &str| {
        if !requirement.starts_with('=') {
            problems.push(format!("{what} is not pinned exactly: {requirement:?}"));
        }
        requirement.trim_start_matches('=').to_owned()
    };
    let wasm_crate = exact(
        "the wasm-bindgen crate (bindings/wasm)",
        at(
            &toml(root, "bindings/wasm/Cargo.toml")?,
            "dependencies.wasm-bindgen",
        ),
    );
    let uniffi = exact(
        "uniffi (bindings/uniffi)",
        at(
            &toml(root, "bindings/uniffi/Cargo.toml")?,
            "dependencies.uniffi.version",
        ),
    );
    let pgrx = exact(
        "pgrx (extensions/postgres)",
        at(&pg, "dependencies.pgrx.version"),
    );
    let cbindgen = exact(
        "cbindgen (crates/samekey-dev)",
        at(
            &toml(root, "crates/samekey-dev/Cargo.toml")?,
            "dependencies.cbindgen.version",
        ),
    );

    let wasm_cli = assignment(
        &read(root, "bindings/wasm/justfile")?,
        "wasm_bindgen_version",
    )
    .unwrap_or("")
    .to_owned();
    if wasm_cli != wasm_crate {
        problems.push(format!("the wasm-bindgen CLI (bindings/wasm/justfile) is {wasm_cli:?}, the crate {wasm_crate:?}"));
    }
    let pgrx_cli = assignment(
        &read(root, "extensions/postgres/scripts/extension.sh")?,
        "pgrx_version",
    )
    .unwrap_or("")
    .to_owned();
    if pgrx_cli != pgrx {
        problems.push(format!("cargo-pgrx (extensions/postgres/scripts/extension.sh) is {pgrx_cli:?}, the pgrx crate {pgrx:?}"));
    }
    // The browser tests of the WebAssembly package and of the site drive one Chromium.
    let playwright: Vec<(&str, String)> = ["bindings/wasm/package.json", "docs/package.json"]
        .into_iter()
        .map(|path| Ok((path, dev_dependency(root, path, "playwright-core")?)))
        .collect::<Result<_, String>>()?;
    for (path, v) in &playwright {
        if v.is_empty() || !v.chars().all(|c| c.is_ascii_digit() || c == '.') {
            problems.push(format!(
                "{path}'s playwright-core is not pinned exactly: {v:?}"
            ));
        }
    }
    if playwright[0].1 != playwright[1].1 {
        problems.push(format!(
            "playwright-core differs: {} in {}, {} in {}",
            playwright[0].1, playwright[0].0, playwright[1].1, playwright[1].0
        ));
    }
    let summary = format!(
        "every package is {version}; wasm-bindgen crate and CLI {wasm_crate}; uniffi {uniffi} with its own bindgen; pgrx and cargo-pgrx {pgrx}; cbindgen {cbindgen}; playwright-core {}",
        playwright[0].1
    );
    Ok(Output::Findings { problems, summary })
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_in_finds_each_release_number() {
        assert_eq!(
            super::versions_in("curl -LO https://x/v0.2.0/samekey-0.2.0-x86_64.tar.gz and 15.1."),
            ["0.2.0", "0.2.0"]
        );
        assert_eq!(
            super::versions_in("implementation(\"io.github.samekey:samekey:1.10.3\")"),
            ["1.10.3"]
        );
    }

    #[test]
    fn pom_version_is_the_projects_own() {
        let pom = "<project><parent><version>9</version></parent><version>1.2.3</version><dependencies><dependency><version>4</version></dependency></dependencies></project>";
        assert_eq!(super::pom_version(pom).as_deref(), Some("1.2.3"));
        let commented = "<!-- the <version> below --><project><version>0.1.0</version></project>";
        assert_eq!(super::pom_version(commented).as_deref(), Some("0.1.0"));
    }

    #[test]
    fn go_requirements() {
        let go_mod = "module m\n\ngo 1.24\n\nrequire example.com/a v1.0.0\nrequire (\n\texample.com/b v0.2.0\n)\n";
        assert_eq!(super::go_requirement(go_mod, "example.com/a"), "1.0.0");
        assert_eq!(super::go_requirement(go_mod, "example.com/b"), "0.2.0");
        assert_eq!(super::go_requirement(go_mod, "example.com/c"), "");
    }

    #[test]
    fn assignments() {
        assert_eq!(
            super::assignment(
                "x := \"1\"\nwasm_bindgen_version := \"0.2.130\"\n",
                "wasm_bindgen_version"
            ),
            Some("0.2.130")
        );
        assert_eq!(
            super::assignment("set -e\npgrx_version=0.19.4\n", "pgrx_version"),
            Some("0.19.4")
        );
    }
}
