//! Bearer tokens (RFC 6750): write tokens may read too, read tokens only read. Each file
//! holds one token per line, so a new token can be added before the old one is removed
//! (rotation without downtime). Tokens are compared in constant time.

use std::path::Path;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use crate::api::error::ApiError;

/// What a request needs its token for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Read,
    Write,
}

/// The tokens a server accepts. With no write tokens, nothing needs a token.
#[derive(Debug, Default, Clone)]
pub struct Tokens {
    write: Vec<String>,
    read: Vec<String>,
    public_reads: bool,
}

impl Tokens {
    /// Reads `--token-file` and `--read-token-file`; every mistake an operator could make
    /// is an error here, at start, rather than every request refused later.
    pub fn load(
        write_file: Option<&Path>,
        read_file: Option<&Path>,
        public_reads: bool,
    ) -> Result<Tokens, String> {
        let write = write_file
            .map(read_token_file)
            .transpose()?
            .unwrap_or_default();
        let read = read_file
            .map(read_token_file)
            .transpose()?
            .unwrap_or_default();
        if write.is_empty() && !read.is_empty() {
            return Err("--read-token-file needs --token-file: writes would be open to anyone while reads need a token".into());
        }
        if public_reads && !read.is_empty() {
            return Err(
                "--public-reads and --read-token-file contradict each other: choose one".into(),
            );
        }
        if read.iter().any(|t| write.contains(t)) {
            return Err(
                "a token is in both --token-file and --read-token-file: a token has one scope"
                    .into(),
            );
        }
        Ok(Tokens {
            write,
            read,
            public_reads,
        })
    }

    pub fn is_enabled(&self) -> bool {
        !self.write.is_empty()
    }

    /// Whether `headers` carry what `scope` needs.
    pub fn check(&self, scope: Scope, headers: &HeaderMap) -> Result<(), ApiError> {
        if self.write.is_empty() || (scope == Scope::Read && self.public_reads) {
            return Ok(());
        }
        let Some(given) = bearer_token(headers) else {
            return Err(ApiError::Unauthorized { token_given: false });
        };
        // Every token is compared, so the time taken does not say which one matched.
        let writes = any_matches(&self.write, given);
        let reads = any_matches(&self.read, given);
        match (scope, writes, reads) {
            (_, true, _) | (Scope::Read, _, true) => Ok(()),
            (Scope::Write, false, true) => Err(ApiError::Forbidden),
            _ => Err(ApiError::Unauthorized { token_given: true }),
        }
    }
}

fn any_matches(tokens: &[String], given: &str) -> bool {
    tokens
        .iter()
        .fold(false, |found, t| found | token_matches(t, given))
}

fn token_matches(expected: &str, given: &str) -> bool {
    // ct_eq on slices of different lengths is false without comparing contents; the
    // length of a token is not the secret.
    bool::from(expected.as_bytes().ct_eq(given.as_bytes()))
}

/// The token of `Authorization: Bearer <token>`; the scheme is case-insensitive
/// (RFC 9110 §11.1) and may be followed by more than one space.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim_start_matches(' '))
}

/// RFC 6750's b64token: what a client can send after `Bearer `.
fn is_b64token(t: &str) -> bool {
    let body = t.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

fn read_token_file(path: &Path) -> Result<Vec<String>, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut tokens = Vec::new();
    // Read as bytes, so that a line that is not UTF-8 is named like any other bad line.
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    // An empty file has no lines (split would give one empty one).
    let lines = bytes.split(|&b| b == b'\n').filter(|_| !bytes.is_empty());
    for (i, line) in lines.enumerate() {
        let at = format!("{shown} line {}", i + 1);
        let line = std::str::from_utf8(line).map_err(|_| {
            format!("{at} is not UTF-8 text: a token is letters, digits and -._~+/")
        })?;
        let token = line.trim();
        if token.is_empty() {
            return Err(format!(
                "{at} is empty: a token file holds one token on every line"
            ));
        }
        if !is_b64token(token) {
            return Err(format!("{at}: a token may hold only letters, digits and -._~+/ (then '=' padding), as an Authorization: Bearer header can carry"));
        }
        tokens.push(token.to_string());
    }
    if tokens.is_empty() {
        return Err(format!("{shown} holds no token"));
    }
    Ok(tokens)
}

/// Middleware: refuse a request without the token its scope needs, before its body is read
/// (so `Expect: 100-continue` gets the 401, never `100 Continue`).
pub async fn require(
    State((tokens, scope)): State<(std::sync::Arc<Tokens>, Scope)>,
    request: Request,
    next: Next,
) -> Response {
    match tokens.check(scope, request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(auth: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(auth).unwrap());
        h
    }

    #[test]
    fn only_the_exact_token_matches() {
        assert!(token_matches("s3cret", "s3cret"));
        assert!(!token_matches("s3cret", "s3cre"));
        assert!(!token_matches("s3cret", "s3creT"));
        assert!(!token_matches("s3cret", ""));
    }

    #[test]
    fn the_scheme_is_case_insensitive_and_spaces_are_tolerated() {
        for auth in [
            "Bearer t0k",
            "bearer t0k",
            "BEARER t0k",
            "Bearer   t0k",
            " Bearer t0k ",
        ] {
            assert_eq!(bearer_token(&headers(auth)), Some("t0k"), "{auth:?}");
        }
        for auth in ["Basic t0k", "Bearer", "t0k", "Bearert0k"] {
            assert_ne!(bearer_token(&headers(auth)), Some("t0k"), "{auth:?}");
        }
    }

    #[test]
    fn scopes() {
        let tokens = Tokens {
            write: vec!["w1".into(), "w2".into()],
            read: vec!["r1".into()],
            public_reads: false,
        };
        use Scope::*;
        assert!(tokens.check(Write, &headers("Bearer w2")).is_ok());
        assert!(tokens.check(Read, &headers("Bearer w1")).is_ok());
        assert!(tokens.check(Read, &headers("Bearer r1")).is_ok());
        assert_eq!(
            tokens
                .check(Write, &headers("Bearer r1"))
                .unwrap_err()
                .code(),
            "forbidden"
        );
        assert_eq!(
            tokens.check(Read, &headers("Bearer x")).unwrap_err().code(),
            "unauthorized"
        );
        assert_eq!(
            tokens.check(Read, &HeaderMap::new()).unwrap_err().code(),
            "unauthorized"
        );
    }

    #[test]
    fn token_files_are_trimmed_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let ok = file("ok", "abc  \r\n  def==\n");
        assert_eq!(read_token_file(&ok).unwrap(), ["abc", "def=="]);
        for (name, text, says) in [
            ("blank", "abc\n\ndef\n", "line 2 is empty"),
            ("spaces", "abc\n   \n", "line 2 is empty"),
            ("empty", "", "holds no token"),
            ("inner", "ab cd\n", "line 1: a token may hold only"),
        ] {
            let err = read_token_file(&file(name, text)).unwrap_err();
            assert!(err.contains(says), "{name}: {err}");
        }
        let missing = read_token_file(&dir.path().join("missing")).unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        let read = file("read", "r1\n");
        assert!(Tokens::load(None, Some(&read), false)
            .unwrap_err()
            .contains("needs --token-file"));
        assert!(Tokens::load(Some(&ok), Some(&read), true)
            .unwrap_err()
            .contains("contradict"));
        assert!(Tokens::load(Some(&ok), Some(&ok), false)
            .unwrap_err()
            .contains("both"));
    }
}
