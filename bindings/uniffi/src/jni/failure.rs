//! Why a JNI entry point failed: a code of the core's vocabulary, a broken contract, or a
//! Java exception already pending. `entry` turns it into the exception the caller sees.

/// Why an entry point failed.
pub(super) enum Failure {
    /// A code of the core's vocabulary (`samekey::Error::code`), "invalid_argument" for
    /// arguments that break the call's contract (a bug of the JVM side), or "panic".
    Code { code: &'static str, message: String },
    /// A JNI call left a Java exception pending (an OutOfMemoryError): it is what the
    /// caller sees.
    Pending,
}

impl From<samekey::Error> for Failure {
    fn from(e: samekey::Error) -> Self {
        Failure::Code {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

impl From<samekey_wire::WireError> for Failure {
    fn from(e: samekey_wire::WireError) -> Self {
        match e {
            samekey_wire::WireError::Core(e) => e.into(),
            samekey_wire::WireError::Malformed(what) => argument(what),
        }
    }
}

/// A broken contract between the JVM side and this library.
pub(super) fn argument(message: &str) -> Failure {
    Failure::Code {
        code: "invalid_argument",
        message: message.into(),
    }
}
