//! Running the tools some generators are (cargo, the reference's Python, uniffi-bindgen).

use std::path::Path;
use std::process::Command;

/// Runs `program args` in `dir`; its output goes to ours. An error names the command.
pub fn run(dir: &Path, program: &str, args: &[&str]) -> Result<bool, String> {
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    Ok(status.success())
}

/// Like [`run`], failing unless the command succeeds.
pub fn must(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    if run(dir, program, args)? {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed", args.join(" ")))
    }
}
