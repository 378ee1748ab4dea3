//! The content hash of a file or of standard input, with a progress bar on a terminal for
//! large files.

use std::io;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use samekey::{content_hash_file_with_progress, content_hash_reader, ContentHash, Error, Scheme};

use crate::error::{CliError, Result};

const PROGRESS_THRESHOLD: u64 = 64 << 20;

fn progress_bar(len: u64, enabled: bool) -> ProgressBar {
    match len {
        n if enabled && n >= PROGRESS_THRESHOLD => {
            let bar = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

pub(crate) fn hash_stream(
    scheme: Scheme,
    path: &Option<PathBuf>,
    progress: bool,
) -> Result<ContentHash> {
    fn with_name(name: &Path) -> impl Fn(Error) -> CliError + '_ {
        move |e| match e {
            Error::Io(m) => CliError {
                code: "io_error",
                message: format!("{}: {m}", name.display()),
                exit: 74,
            },
            e => e.into(),
        }
    }
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let len = std::fs::metadata(p).map_err(|e| CliError::io(p, e))?.len();
            let bar = progress_bar(len, progress);
            // The core's I/O errors name the file already.
            let hash = content_hash_file_with_progress(scheme, p, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            Ok(hash)
        }
        _ => {
            content_hash_reader(scheme, io::stdin().lock()).map_err(with_name(Path::new("<stdin>")))
        }
    }
}
