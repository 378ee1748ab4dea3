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

/// Declares [`ErrorCode`] from one list: its variants, their texts and [`ErrorCode::ALL`].
macro_rules! error_codes {
    ($($variant:ident => $text:literal,)*) => {
        /// The stable code of an [`Error`], as a value. Its text ([`ErrorCode::as_str`]) is
        /// what test vectors, the C ABI and every binding expose; it never changes once
        /// published. Bindings that mirror the codes match on this enum exhaustively, so a
        /// new code fails their build until they handle it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $text, "`")]
                $variant,
            )*
        }

        impl ErrorCode {
            /// Every code, in a stable order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code's text, e.g. `"timestamp_out_of_range"`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $text,)*
                }
            }
        }

        impl Error {
            /// Every code's text, in the order of [`ErrorCode::ALL`].
            pub const CODES: &'static [&'static str] = &[$($text,)*];
        }
    };
}

error_codes! {
    TimestampOutOfRange => "timestamp_out_of_range",
    InvalidTimestamp => "invalid_timestamp",
    NoFields => "no_fields",
    FieldTooLong => "field_too_long",
    InvalidString => "invalid_string",
    EmptySecret => "empty_secret",
    UnknownScheme => "unknown_scheme",
    SchemeNotSupported => "scheme_not_supported",
    NamespaceNotSupported => "namespace_not_supported",
    SecretNotSupported => "secret_not_supported",
    InvalidUlid => "invalid_ulid",
    InvalidKey => "invalid_key",
    SchemeMismatch => "scheme_mismatch",
    SchemeNotAccepted => "scheme_not_accepted",
    EmptyParent => "empty_parent",
    DuplicateKey => "duplicate_key",
    NumberOutOfRange => "number_out_of_range",
    InvalidJson => "invalid_json",
    NestingTooDeep => "nesting_too_deep",
    IdentityMismatch => "identity_mismatch",
    IoError => "io_error",
}

impl core::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ErrorCode {
    /// The code whose text this is, if any.
    pub fn from_text(text: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

impl Error {
    /// The stable code of this error, as a value.
    pub fn kind(&self) -> ErrorCode {
        match self {
            Error::TimestampOutOfRange(_) => ErrorCode::TimestampOutOfRange,
            Error::InvalidTimestamp(_) => ErrorCode::InvalidTimestamp,
            Error::NoFields => ErrorCode::NoFields,
            Error::FieldTooLong(_) => ErrorCode::FieldTooLong,
            Error::InvalidString => ErrorCode::InvalidString,
            Error::EmptySecret => ErrorCode::EmptySecret,
            Error::UnknownScheme(_) => ErrorCode::UnknownScheme,
            Error::SchemeNotSupported { .. } => ErrorCode::SchemeNotSupported,
            Error::NamespaceNotSupported => ErrorCode::NamespaceNotSupported,
            Error::SecretNotSupported => ErrorCode::SecretNotSupported,
            Error::InvalidUlid(_) => ErrorCode::InvalidUlid,
            Error::InvalidKey(..) => ErrorCode::InvalidKey,
            Error::SchemeMismatch(_) => ErrorCode::SchemeMismatch,
            Error::SchemeNotAccepted(_) => ErrorCode::SchemeNotAccepted,
            Error::EmptyParent => ErrorCode::EmptyParent,
            Error::DuplicateKey(_) => ErrorCode::DuplicateKey,
            Error::NumberOutOfRange(_) => ErrorCode::NumberOutOfRange,
            Error::InvalidJson { .. } => ErrorCode::InvalidJson,
            Error::NestingTooDeep(_) => ErrorCode::NestingTooDeep,
            Error::IdentityMismatch => ErrorCode::IdentityMismatch,
            Error::Io(_) => ErrorCode::IoError,
        }
    }

    /// The stable, machine-readable code of this error, e.g. `"timestamp_out_of_range"`.
    pub fn code(&self) -> &'static str {
        self.kind().as_str()
    }
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
        let kinds: alloc::vec::Vec<ErrorCode> = all.iter().map(Error::kind).collect();
        assert_eq!(
            kinds,
            ErrorCode::ALL,
            "one variant per code, in the order of ALL"
        );
        let codes: alloc::vec::Vec<&str> = all.iter().map(Error::code).collect();
        assert_eq!(codes, Error::CODES);
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_text(code.as_str()), Some(*code));
            assert_eq!(alloc::format!("{code}"), code.as_str());
        }
        assert_eq!(ErrorCode::from_text("nope"), None);
    }
}
