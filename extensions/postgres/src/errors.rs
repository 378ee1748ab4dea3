//! The core's errors as PostgreSQL errors: a stable SQLSTATE per code, and a message
//! that starts with `error[<code>]:` as everywhere else.

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};
use samekey::ErrorCode;

/// The SQLSTATE of each code. Matched exhaustively so that a new core code fails this
/// build until it has one; the mapping never changes once released (spec §6 codes).
pub(crate) fn sqlstate(code: ErrorCode) -> PgSqlErrorCode {
    use PgSqlErrorCode::*;
    match code {
        ErrorCode::TimestampOutOfRange => ERRCODE_DATETIME_FIELD_OVERFLOW,
        ErrorCode::InvalidTimestamp => ERRCODE_INVALID_DATETIME_FORMAT,
        ErrorCode::NoFields
        | ErrorCode::EmptySecret
        | ErrorCode::UnknownScheme
        | ErrorCode::SchemeNotSupported
        | ErrorCode::NamespaceNotSupported
        | ErrorCode::SecretNotSupported
        | ErrorCode::SchemeNotAccepted
        | ErrorCode::SchemeMismatch
        | ErrorCode::EmptyParent => ERRCODE_INVALID_PARAMETER_VALUE,
        ErrorCode::FieldTooLong | ErrorCode::NestingTooDeep => ERRCODE_PROGRAM_LIMIT_EXCEEDED,
        ErrorCode::InvalidString => ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
        ErrorCode::InvalidUlid | ErrorCode::InvalidKey => ERRCODE_INVALID_TEXT_REPRESENTATION,
        ErrorCode::DuplicateKey => ERRCODE_DUPLICATE_JSON_OBJECT_KEY_VALUE,
        ErrorCode::NumberOutOfRange => ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
        ErrorCode::InvalidJson => ERRCODE_INVALID_JSON_TEXT,
        ErrorCode::IdentityMismatch => ERRCODE_CHECK_VIOLATION,
        ErrorCode::IoError => ERRCODE_IO_ERROR,
    }
}

/// Raises `e` as an ERROR; PostgreSQL unwinds the statement from here.
pub(crate) fn raise(e: samekey::Error) -> ! {
    ErrorReport::new(
        sqlstate(e.kind()),
        format!("error[{}]: {e}", e.code()),
        "samekey",
    )
    .report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}

/// An error this extension raises: the core's, or the shared host layer's.
pub(crate) trait Raise {
    fn raise(self) -> !;
}

impl Raise for samekey::Error {
    fn raise(self) -> ! {
        raise(self)
    }
}

/// The value, or the error raised.
pub(crate) trait OrRaise<T> {
    fn or_raise(self) -> T;
}

impl<T, E: Raise> OrRaise<T> for Result<T, E> {
    fn or_raise(self) -> T {
        self.unwrap_or_else(|e| e.raise())
    }
}

/// A host-level fault (a NULL array element, a wrong type): PostgreSQL's own SQLSTATE,
/// no samekey code, as other hosts raise their own type errors.
pub(crate) fn refuse(code: PgSqlErrorCode, message: String) -> ! {
    ErrorReport::new(code, message, "samekey").report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}
