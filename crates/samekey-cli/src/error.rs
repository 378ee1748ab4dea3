//! The CLI's error: the core's code (or a CLI one), its message, and the exit status a
//! shell expects.

use std::io;
use std::path::Path;
use std::process::ExitCode;

use samekey::Error;

/// A failure with the core's code (or a CLI one) and the exit status a shell expects.
#[derive(Debug)]
pub struct CliError {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) exit: u8,
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error[{}]: {}", self.code, self.message)
    }
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.exit)
    }

    pub(crate) fn io(what: &Path, e: io::Error) -> Self {
        let exit = if e.kind() == io::ErrorKind::NotFound {
            66
        } else {
            74
        };
        CliError {
            code: "io_error",
            message: format!("{}: {e}", what.display()),
            exit,
        }
    }
}

/// Bad input data is EX_DATAERR (65); a refused identity is 1, like a failed check.
impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        let exit = match e {
            Error::IdentityMismatch => 1,
            Error::Io(_) => 74,
            _ => 65,
        };
        CliError {
            code: e.code(),
            message: e.to_string(),
            exit,
        }
    }
}

pub(crate) type Result<T> = std::result::Result<T, CliError>;
