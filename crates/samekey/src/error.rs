//! The one error vocabulary shared by the core, the CLI and every binding.

use alloc::string::String;

/// Every way a samekey operation can fail.
///
/// Messages quote inputs with `"{}"`, not `{:?}`: Debug formatting of strings would put
/// Unicode escape tables into every binary, a real cost in the WebAssembly build.
///
/// Each variant has a stable [`code`](Error::code); that string, not the message,
/// is what bindings, test vectors and the C ABI expose, so it never changes once
/// published. Messages say what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("timestamp {0} is out of range: allowed is 0 to 2^48-1 milliseconds since 1970-01-01T00:00:00Z")]
    TimestampOutOfRange(String),
    #[error("invalid timestamp: {0}")]
    InvalidTimestamp(String),
    #[error("no identity fields: a ULID needs at least one field")]
    NoFields,
    #[error("field of {0} bytes is too long: the limit is 2^32-1 bytes")]
    FieldTooLong(u64),
    #[error("string is not valid Unicode (lone surrogate or invalid UTF-8); text fields must be valid Unicode")]
    InvalidString,
    #[error("the secret is empty: a keyed derivation needs at least one byte of secret")]
    EmptySecret,
    #[error("unknown scheme \"{0}\": known schemes are v0, v1 and v2")]
    UnknownScheme(String),
    #[error("scheme {scheme} does not support {operation}")]
    SchemeNotSupported {
        scheme: &'static str,
        operation: &'static str,
    },
    #[error("scheme v0 has no namespace: pass an empty namespace or use v1/v2")]
    NamespaceNotSupported,
    #[error("scheme v0 has no secret: derive without a secret or use v1/v2")]
    SecretNotSupported,
    #[error("invalid ULID \"{0}\": expected 26 Crockford base32 characters (0-9, A-Z without I, L, O, U), first character 0-7")]
    InvalidUlid(String),
    #[error("invalid key \"{0}\": {1}")]
    InvalidKey(String, &'static str),
    #[error("scheme mismatch: {0}")]
    SchemeMismatch(String),
    #[error("scheme {0} is not accepted by this key ring")]
    SchemeNotAccepted(&'static str),
    #[error(
        "the parent revision is empty: pass no parent for a root revision, or a non-empty parent"
    )]
    EmptyParent,
    #[error("duplicate object key \"{0}\" in JSON")]
    DuplicateKey(String),
    #[error("number {0} is out of range: integers must be within ±(2^53-1) and numbers finite")]
    NumberOutOfRange(String),
    #[error("invalid JSON at byte {offset}: {reason}")]
    InvalidJson { offset: usize, reason: &'static str },
    #[error("JSON nesting is deeper than {0} levels")]
    NestingTooDeep(usize),
    #[error(
        "identity mismatch: the id was not derived from these inputs under any accepted scheme"
    )]
    IdentityMismatch,
    #[error("I/O error: {0}")]
    Io(String),
}

impl Error {
    /// The stable, machine-readable code of this error, e.g. `"timestamp_out_of_range"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::TimestampOutOfRange(_) => "timestamp_out_of_range",
            Error::InvalidTimestamp(_) => "invalid_timestamp",
            Error::NoFields => "no_fields",
            Error::FieldTooLong(_) => "field_too_long",
            Error::InvalidString => "invalid_string",
            Error::EmptySecret => "empty_secret",
            Error::UnknownScheme(_) => "unknown_scheme",
            Error::SchemeNotSupported { .. } => "scheme_not_supported",
            Error::NamespaceNotSupported => "namespace_not_supported",
            Error::SecretNotSupported => "secret_not_supported",
            Error::InvalidUlid(_) => "invalid_ulid",
            Error::InvalidKey(..) => "invalid_key",
            Error::SchemeMismatch(_) => "scheme_mismatch",
            Error::SchemeNotAccepted(_) => "scheme_not_accepted",
            Error::EmptyParent => "empty_parent",
            Error::DuplicateKey(_) => "duplicate_key",
            Error::NumberOutOfRange(_) => "number_out_of_range",
            Error::InvalidJson { .. } => "invalid_json",
            Error::NestingTooDeep(_) => "nesting_too_deep",
            Error::IdentityMismatch => "identity_mismatch",
            Error::Io(_) => "io_error",
        }
    }

    /// This error's position in [`Error::CODES`], for bindings that mirror the codes as
    /// an enum of their own (C, Kotlin, Swift).
    pub fn code_index(&self) -> usize {
        let code = self.code();
        Self::CODES.iter().position(|c| *c == code).unwrap_or(0)
    }

    /// Every code the core can return, in a stable order (for bindings' enums and docs).
    pub const CODES: &'static [&'static str] = &[
        "timestamp_out_of_range",
        "invalid_timestamp",
        "no_fields",
        "field_too_long",
        "invalid_string",
        "empty_secret",
        "unknown_scheme",
        "scheme_not_supported",
        "namespace_not_supported",
        "secret_not_supported",
        "invalid_ulid",
        "invalid_key",
        "scheme_mismatch",
        "scheme_not_accepted",
        "empty_parent",
        "duplicate_key",
        "number_out_of_range",
        "invalid_json",
        "nesting_too_deep",
        "identity_mismatch",
        "io_error",
    ];
}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(alloc::format!("{e}"))
    }
}

pub type Result<T, E = Error> = core::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_listed_unique_code() {
        let all = [
            Error::TimestampOutOfRange(String::new()),
            Error::InvalidTimestamp(String::new()),
            Error::NoFields,
            Error::FieldTooLong(0),
            Error::InvalidString,
            Error::EmptySecret,
            Error::UnknownScheme(String::new()),
            Error::SchemeNotSupported {
                scheme: "v0",
                operation: "x",
            },
            Error::NamespaceNotSupported,
            Error::SecretNotSupported,
            Error::InvalidUlid(String::new()),
            Error::InvalidKey(String::new(), ""),
            Error::SchemeMismatch(String::new()),
            Error::SchemeNotAccepted("v0"),
            Error::EmptyParent,
            Error::DuplicateKey(String::new()),
            Error::NumberOutOfRange(String::new()),
            Error::InvalidJson {
                offset: 0,
                reason: "",
            },
            Error::NestingTooDeep(0),
            Error::IdentityMismatch,
            Error::Io(String::new()),
        ];
        let codes: alloc::vec::Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES);
        for (i, e) in all.iter().enumerate() {
            assert_eq!(e.code_index(), i);
        }
    }
}
