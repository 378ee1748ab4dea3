//! The uniffi sources, by the uniffi-bindgen that the workspace builds from the very
//! uniffi crate samekey-uniffi links (bindings/uniffi, feature `bindgen`), from the
//! library's metadata: Kotlin's, a build output that `just jvm::dist` puts into the JAR.
//! (Swift calls the C ABI, crates/samekey-ffi, with no generated code.)

use crate::process;
use std::path::{Path, PathBuf};

const LIBRARY: &str = if cfg!(target_os = "macos") {
    "libsamekey_uniffi.dylib"
} else {
    "libsamekey_uniffi.so"
};

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Builds the library and the bindgen (dev profile: fast) and generates `language` into
/// target/uniffi/<language>, which it empties first.
fn generate(root: &Path, language: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    process::must(
        root,
        &cargo,
        &[
            "build",
            "--quiet",
            "--locked",
            "-p",
            "samekey-uniffi",
            "--features",
            "bindgen",
        ],
    )?;
    let target = target_dir(root);
    let out = target.join("uniffi").join(language);
    let _ = std::fs::remove_dir_all(&out);
    let bindgen = target.join("debug/uniffi-bindgen");
    let library = target.join("debug").join(LIBRARY);
    let path = |p: &Path| {
        p.to_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{} is not UTF-8", p.display()))
    };
    let (bindgen, library, out_dir) = (path(&bindgen)?, path(&library)?, path(&out)?);
    process::must(
        root,
        &bindgen,
        &[
            "generate",
            "--library",
            &library,
            "--language",
            language,
            "--out-dir",
            &out_dir,
            "--no-format",
        ],
    )?;
    Ok(out)
}

/// target/uniffi/kotlin, for the Kotlin build (nothing of it is committed).
pub fn kotlin_sources(root: &Path) -> Result<PathBuf, String> {
    generate(root, "kotlin")
}
