//! test-vectors/samekey.json and small.json come from the independent reference
//! (spec/reference, Python), never from this crate: the tool runs it, in write mode or
//! with its own --check, and in check mode also its proof that every order of checks is
//! pinned by a vector (check_orders.py).

use crate::generated::{Mode, Output};
use crate::process;
use std::path::Path;

pub fn run(root: &Path, mode: Mode) -> Result<Output, String> {
    let gen = "spec/reference/gen_vectors.py";
    match mode {
        Mode::Write => {
            process::must(root, "python3", &[gen])?;
            Ok(Output::Done {
                fresh: true,
                summary: "wrote test-vectors/ from the reference".into(),
            })
        }
        Mode::Check => {
            let fresh = process::run(root, "python3", &[gen, "--check"])?;
            process::must(root, "python3", &["spec/reference/check_orders.py"])?;
            Ok(Output::Done {
                fresh,
                summary: "test-vectors/ equal a fresh run of the reference".into(),
            })
        }
    }
}
