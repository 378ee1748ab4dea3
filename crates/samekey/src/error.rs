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
    /// `timestamp_out_of_range`: a time before 1970 or past the 48 bits of a ULID (spec §8.2); holds the time as given.
    #[error("timestamp {0} is out of range: allowed is 0 to 2^48-1 milliseconds since 1970-01-01T00:00:00Z")]
    TimestampOutOfRange(String),
    /// `invalid_timestamp`: time text that is not RFC 3339 as spec §8.1 allows, or a host time that is not a whole millisecond; holds why.
    #[error("invalid timestamp: {0}")]
    InvalidTimestamp(String),
    /// `no_fields`: a ULID derived from no identity fields (spec §4.1).
    #[error("no identity fields: a ULID needs at least one field")]
    NoFields,
    /// `field_too_long`: a field longer than its 32-bit length prefix can say (spec §3); holds its length.
    #[error("field of {0} bytes is too long: the limit is 2^32-1 bytes")]
    FieldTooLong(u64),
    /// `invalid_string`: text that is not valid Unicode, such as a lone surrogate (spec §2.2);
    /// holds the byte offset of the first bad byte when the text came as bytes.
    #[error("{}", invalid_string_message(*.0))]
    InvalidString(Option<usize>),
    /// `empty_secret`: a secret of zero bytes; no secret at all is written as none (spec §2.3).
    #[error("the secret is empty: a keyed derivation needs at least one byte of secret")]
    EmptySecret,
    /// `unknown_scheme`: a scheme name other than `v0`, `v1`, `v2`, or an empty list of accepted schemes; holds the name.
    #[error("unknown scheme \"{0}\": known schemes are v0, v1 and v2")]
    UnknownScheme(String),
    /// `scheme_not_supported`: an operation the scheme does not have, such as a v0 content hash (spec §2.3).
    #[error("scheme {scheme} does not support {operation}")]
    SchemeNotSupported {
        /// The scheme's name.
        scheme: &'static str,
        /// What was asked of it, such as "content hashes".
        operation: &'static str,
    },
    /// `namespace_not_supported`: a non-empty namespace under v0 (spec §4.3).
    #[error("scheme v0 has no namespace: pass an empty namespace or use v1/v2")]
    NamespaceNotSupported,
    /// `secret_not_supported`: a secret under v0 (spec §4.3).
    #[error("scheme v0 has no secret: derive without a secret or use v1/v2")]
    SecretNotSupported,
    /// `invalid_ulid`: text that is not a ULID (spec §4.6); holds the text.
    #[error("invalid ULID \"{0}\": expected 26 Crockford base32 characters (0-9, A-Z without I, L, O, U), first character 0-7")]
    InvalidUlid(String),
    /// `invalid_key`: text that is not a content hash or revision key (spec §5, §7.3); holds the text and why.
    #[error("invalid key \"{0}\": {1}")]
    InvalidKey(String, &'static str),
    /// `scheme_mismatch`: keys of different schemes where one scheme is needed (spec §7.3); holds the detail.
    #[error("scheme mismatch: {0}")]
    SchemeMismatch(String),
    /// `scheme_not_accepted`: a key whose scheme the key ring does not accept (spec §9.1).
    #[error("scheme {0} is not accepted by this key ring")]
    SchemeNotAccepted(&'static str),
    /// `empty_parent`: an empty parent revision; a root revision has no parent (spec §7.1).
    #[error(
        "the parent revision is empty: pass no parent for a root revision, or a non-empty parent"
    )]
    EmptyParent,
    /// `duplicate_key`: a JSON object with the same member name twice (spec §6.1); holds the name.
    #[error("duplicate object key \"{0}\" in JSON")]
    DuplicateKey(String),
    /// `number_out_of_range`: a JSON number that is not finite or an integer beyond ±(2^53-1) (spec §6.1, §6.2); holds it.
    #[error("number out of range: {0}")]
    NumberOutOfRange(String),
    /// `invalid_json`: text that is not JSON as spec §6.1 reads it.
    #[error("invalid JSON at byte {offset}: {reason}")]
    InvalidJson {
        /// The byte offset in the text where reading stopped.
        offset: usize,
        /// What was wrong there.
        reason: &'static str,
    },
    /// `nesting_too_deep`: JSON nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) levels; holds the limit.
    #[error("JSON nesting is deeper than {0} levels")]
    NestingTooDeep(usize),
    /// `identity_mismatch`: an id that no accepted scheme derives from the given inputs (spec §9.2).
    #[error(
        "identity mismatch: the id was not derived from these inputs under any accepted scheme"
    )]
    IdentityMismatch,
    /// `io_error`: reading the data failed; holds the operating system's message.
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
            Error::InvalidString(_) => ErrorCode::InvalidString,
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

fn invalid_string_message(offset: Option<usize>) -> alloc::string::String {
    match offset {
        Some(at) => alloc::format!("invalid UTF-8 at byte {at}: text must be UTF-8"),
        None => "string is not valid Unicode (a lone surrogate): text must be valid Unicode".into(),
    }
}

/// The result of every fallible samekey operation.
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
            Error::InvalidString(None),
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
