//! crates/samekey-ffi/include/samekey.h, by the cbindgen library this crate pins (the Go
//! package includes the same file through its symlink bindings/go/samekey.h).

use crate::generated::{File, Mode, Output};
use std::path::Path;

const CRATE: &str = "crates/samekey-ffi";

pub fn run(root: &Path, _: Mode) -> Result<Output, String> {
    let dir = root.join(CRATE);
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .map_err(|e| format!("{CRATE}/cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(&dir)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut bytes = Vec::new();
    bindings.write(&mut bytes);
    let contents =
        String::from_utf8(bytes).map_err(|e| format!("cbindgen wrote non-UTF-8: {e}"))?;
    Ok(Output::Files(vec![File {
        path: format!("{CRATE}/include/samekey.h").into(),
        contents,
    }]))
}
