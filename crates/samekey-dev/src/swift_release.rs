//! The tagged release commit's Package.swift: the release whose XCFramework Apple
//! platforms download, and its checksum. Only the two constants change; anything else in
//! the file that would need changing is a failure, not a silent edit.

use std::path::Path;

const PATH: &str = "Package.swift";

/// Package.swift's text with `xcframeworkRelease` and `xcframeworkChecksum` set.
pub fn with_release(text: &str, release: &str, checksum: &str) -> Result<String, String> {
    if !release.starts_with('v') || release.contains(['"', '\\', '/']) {
        return Err(format!("release {release:?} is not a tag like v1.2.3"));
    }
    if checksum.len() != 64
        || !checksum
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(format!(
            "checksum {checksum:?} is not 64 lowercase hex digits (swift package compute-checksum)"
        ));
    }
    let mut seen = [false; 2];
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            for (i, (name, value)) in [
                ("xcframeworkRelease", release),
                ("xcframeworkChecksum", checksum),
            ]
            .iter()
            .enumerate()
            {
                if line.starts_with(&format!("let {name} = \"")) {
                    seen[i] = true;
                    return format!("let {name} = \"{value}\"");
                }
            }
            line.to_owned()
        })
        .collect();
    if seen != [true, true] {
        return Err(format!("{PATH} does not declare `let xcframeworkRelease = \"...\"` and `let xcframeworkChecksum = \"...\"`"));
    }
    Ok(lines.join("\n") + if text.ends_with('\n') { "\n" } else { "" })
}

pub fn run(root: &Path, release: &str, checksum: &str) -> Result<(), String> {
    let path = root.join(PATH);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{PATH}: {e}"))?;
    std::fs::write(&path, with_release(&text, release, checksum)?)
        .map_err(|e| format!("{PATH}: {e}"))?;
    println!("xtask: {PATH} now downloads the XCFramework of {release} ({checksum})");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::with_release;

    const MANIFEST: &str = "import PackageDescription\nlet xcframeworkRelease = \"v0.1.0\"\nlet xcframeworkChecksum = \"0000\"\nlet x = 1\n";

    #[test]
    fn sets_both_constants_and_nothing_else() {
        let sum = "ab".repeat(32);
        let out = with_release(MANIFEST, "v0.2.0", &sum).unwrap();
        assert_eq!(out, format!("import PackageDescription\nlet xcframeworkRelease = \"v0.2.0\"\nlet xcframeworkChecksum = \"{sum}\"\nlet x = 1\n"));
    }

    #[test]
    fn refuses_bad_input_and_a_manifest_without_the_constants() {
        let sum = "ab".repeat(32);
        assert!(with_release(MANIFEST, "0.2.0", &sum).is_err());
        assert!(with_release(MANIFEST, "v0.2.0", "xyz").is_err());
        assert!(with_release(MANIFEST, "v0.2.0", &"AB".repeat(32)).is_err());
        assert!(with_release("let x = 1\n", "v0.2.0", &sum).is_err());
    }

    #[test]
    fn the_repository_manifest_has_the_constants() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let text = std::fs::read_to_string(root.join(super::PATH)).unwrap();
        assert!(with_release(&text, "v9.9.9", &"0".repeat(64)).is_ok());
    }
}
