//! The status every call returns, the failures behind it, and the wrapper that turns a
//! call's body into a status and a message (no panic ever unwinds into the caller).

use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use samekey::{Error, ErrorCode};
use samekey_wire as wire;

/// The outcome of a call: OK, one per core error code (`samekey::ErrorCode`, in its
/// order), or a failure of the call itself.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamekeyStatus {
    Ok = 0,
    TimestampOutOfRange,
    InvalidTimestamp,
    NoFields,
    FieldTooLong,
    InvalidString,
    EmptySecret,
    UnknownScheme,
    SchemeNotSupported,
    NamespaceNotSupported,
    SecretNotSupported,
    InvalidUlid,
    InvalidKey,
    SchemeMismatch,
    SchemeNotAccepted,
    EmptyParent,
    DuplicateKey,
    NumberOutOfRange,
    InvalidJson,
    NestingTooDeep,
    IdentityMismatch,
    IoError,
    InvalidArgument = 100,
    Panic = 101,
}

impl From<ErrorCode> for SamekeyStatus {
    fn from(code: ErrorCode) -> Self {
        match code {
            ErrorCode::TimestampOutOfRange => SamekeyStatus::TimestampOutOfRange,
            ErrorCode::InvalidTimestamp => SamekeyStatus::InvalidTimestamp,
            ErrorCode::NoFields => SamekeyStatus::NoFields,
            ErrorCode::FieldTooLong => SamekeyStatus::FieldTooLong,
            ErrorCode::InvalidString => SamekeyStatus::InvalidString,
            ErrorCode::EmptySecret => SamekeyStatus::EmptySecret,
            ErrorCode::UnknownScheme => SamekeyStatus::UnknownScheme,
            ErrorCode::SchemeNotSupported => SamekeyStatus::SchemeNotSupported,
            ErrorCode::NamespaceNotSupported => SamekeyStatus::NamespaceNotSupported,
            ErrorCode::SecretNotSupported => SamekeyStatus::SecretNotSupported,
            ErrorCode::InvalidUlid => SamekeyStatus::InvalidUlid,
            ErrorCode::InvalidKey => SamekeyStatus::InvalidKey,
            ErrorCode::SchemeMismatch => SamekeyStatus::SchemeMismatch,
            ErrorCode::SchemeNotAccepted => SamekeyStatus::SchemeNotAccepted,
            ErrorCode::EmptyParent => SamekeyStatus::EmptyParent,
            ErrorCode::DuplicateKey => SamekeyStatus::DuplicateKey,
            ErrorCode::NumberOutOfRange => SamekeyStatus::NumberOutOfRange,
            ErrorCode::InvalidJson => SamekeyStatus::InvalidJson,
            ErrorCode::NestingTooDeep => SamekeyStatus::NestingTooDeep,
            ErrorCode::IdentityMismatch => SamekeyStatus::IdentityMismatch,
            ErrorCode::IoError => SamekeyStatus::IoError,
        }
    }
}

/// A failure inside a call: a core error, or a bad argument from the caller.
pub(crate) enum Failure {
    Core(Error),
    Argument(&'static str),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Core(e)
    }
}

impl From<wire::WireError> for Failure {
    fn from(e: wire::WireError) -> Self {
        match e {
            wire::WireError::Core(e) => Failure::Core(e),
            wire::WireError::Malformed(m) => Failure::Argument(m),
        }
    }
}

pub(crate) type Outcome<T = ()> = Result<T, Failure>;

pub(crate) fn status_of(e: &Error) -> SamekeyStatus {
    e.kind().into()
}

/// Runs `body`, turning failures and panics into a status and an optional message.
pub(crate) fn call(error: *mut *mut c_char, body: impl FnOnce() -> Outcome) -> SamekeyStatus {
    let (status, message) = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return SamekeyStatus::Ok,
        Ok(Err(Failure::Core(e))) => (status_of(&e), e.to_string()),
        Ok(Err(Failure::Argument(m))) => (
            SamekeyStatus::InvalidArgument,
            format!("invalid argument: {m}"),
        ),
        Err(_) => (
            SamekeyStatus::Panic,
            "samekey panicked; this is a bug".to_string(),
        ),
    };
    if !error.is_null() {
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the caller passes NULL or a valid place for one pointer.
        unsafe { *error = message.into_raw() };
    }
    status
}

/// The stable code string of a status ("ok", "timestamp_out_of_range", ...).
#[no_mangle]
pub extern "C" fn samekey_status_code(status: SamekeyStatus) -> *const c_char {
    // The core's code strings with their NULs, made once: the list stays in one place.
    static CODES: std::sync::OnceLock<Vec<(SamekeyStatus, CString)>> = std::sync::OnceLock::new();
    let codes = CODES.get_or_init(|| {
        ErrorCode::ALL
            .iter()
            .map(|c| ((*c).into(), CString::new(c.as_str()).unwrap_or_default()))
            .collect()
    });
    match status {
        SamekeyStatus::Ok => c"ok".as_ptr(),
        SamekeyStatus::InvalidArgument => c"invalid_argument".as_ptr(),
        SamekeyStatus::Panic => c"panic".as_ptr(),
        other => match codes.iter().find(|(s, _)| *s == other) {
            Some((_, text)) => text.as_ptr(),
            None => c"panic".as_ptr(),
        },
    }
}

/// Every core error code, comma separated, in the order of the statuses after OK; hosts
/// that keep a list of their own compare it with this one in their tests.
#[no_mangle]
pub extern "C" fn samekey_error_codes() -> *const c_char {
    static CODES: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    CODES
        .get_or_init(|| CString::new(Error::CODES.join(",")).unwrap_or_default())
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    /// The header's statuses are the core's codes, named after them and numbered in
    /// their order (C callers may store the numbers). Prints the variants to paste.
    #[test]
    fn statuses_follow_the_core_codes() {
        let expected: Vec<String> = ErrorCode::ALL.iter().map(|c| format!("{c:?}")).collect();
        let actual: Vec<String> = ErrorCode::ALL
            .iter()
            .map(|c| format!("{:?}", SamekeyStatus::from(*c)))
            .collect();
        let numbers: Vec<i32> = ErrorCode::ALL
            .iter()
            .map(|c| SamekeyStatus::from(*c) as i32)
            .collect();
        let in_order: Vec<i32> = (1..=ErrorCode::ALL.len() as i32).collect();
        assert!(
            actual == expected && numbers == in_order,
            "SamekeyStatus drifted from samekey::ErrorCode; its variants after Ok should be:\n    {},\n",
            expected.join(",\n    ")
        );
    }

    #[test]
    fn status_codes_and_the_code_list_are_the_core_texts() {
        let list = unsafe { CStr::from_ptr(samekey_error_codes()) }
            .to_str()
            .unwrap();
        assert_eq!(list, Error::CODES.join(","));
        for code in ErrorCode::ALL {
            let text = unsafe { CStr::from_ptr(samekey_status_code((*code).into())) };
            assert_eq!(text.to_str().unwrap(), code.as_str());
        }
    }
}
