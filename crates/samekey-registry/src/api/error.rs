//! Every failure the service answers with, as RFC 9457 problem details
//! (`application/problem+json`): `type`, `title`, `status`, `detail`, and samekey's stable
//! `code`, which is the core's own code where the core found the problem.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Where each problem type is described: the documentation site's error page, which has a
/// section per code; `type` is this plus `#<code>`.
pub const PROBLEM_TYPE_BASE: &str = "https://samekey.github.io/samekey/reference/errors.html";

pub const PROBLEM_JSON: &str = "application/problem+json";

/// The realm named in `WWW-Authenticate`.
const REALM: &str = "samekey-registry";

#[derive(Debug)]
pub enum ApiError {
    /// A bad input the core found (JSON, keys, schemes): 400 with the core's code.
    Core(samekey::Error),
    /// No usable credentials; `token_given` says whether a token was presented at all.
    Unauthorized {
        token_given: bool,
    },
    /// A valid token whose scope does not cover the request (a read token on a write).
    Forbidden,
    NotFound(String),
    NoRoute(String),
    MethodNotAllowed,
    /// The body did not arrive within `--body-timeout`.
    BodyTimeout(std::time::Duration),
    /// `--body-limit` exceeded, declared (`Content-Length`) or while streaming.
    PayloadTooLarge {
        limit: usize,
    },
    UnsupportedMediaType(Option<String>),
    UnknownParent(String),
    HeadersTooLarge(String),
    InvalidQuery(String),
    InvalidPath(String),
    /// No `Host` field, or more than one (RFC 9112 §3.2).
    InvalidHost(String),
    /// The body could not be read (the client sent a malformed chunk, or left).
    InvalidBody(String),
    /// The database refused the revision for its schemes: this process's key ring lacks
    /// a scheme the database requires, or has one it retired (a rollout step ran after
    /// this process started). Another process, or this one redeployed, can write it.
    SchemeRequired(String),
    /// The database failed; the request can be retried.
    Database(sqlx::Error),
    /// The object store holding revision data failed, or is needed and not configured;
    /// the request can be retried.
    DataStore(String),
    /// A revision's data in the object store is missing or not the bytes its hash names.
    DataCorrupt(String),
    Internal(String),
}

/// The detail of an error that must not reach the client but must reach the log, kept in
/// the response's extensions for the logging middleware.
#[derive(Debug, Clone)]
pub struct LoggedCause(pub String);

#[derive(Serialize)]
struct Problem<'a> {
    #[serde(rename = "type")]
    type_: String,
    title: &'a str,
    status: u16,
    detail: String,
    code: &'a str,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Core(_)
            | ApiError::InvalidQuery(_)
            | ApiError::InvalidPath(_)
            | ApiError::InvalidHost(_) => StatusCode::BAD_REQUEST,
            ApiError::InvalidBody(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) | ApiError::NoRoute(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::UnknownParent(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::Database(_) | ApiError::SchemeRequired(_) | ApiError::DataStore(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::DataCorrupt(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code clients branch on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Core(e) => e.code(),
            ApiError::Unauthorized { .. } => "unauthorized",
            ApiError::Forbidden => "forbidden",
            ApiError::NotFound(_) | ApiError::NoRoute(_) => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::BodyTimeout(_) => "request_timeout",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::UnknownParent(_) => "unknown_parent",
            ApiError::HeadersTooLarge(_) => "headers_too_large",
            ApiError::InvalidQuery(_) => "invalid_query",
            ApiError::InvalidPath(_) => "invalid_path",
            ApiError::InvalidHost(_) => "invalid_host",
            ApiError::InvalidBody(_) => "invalid_body",
            ApiError::Database(_) => "database_unavailable",
            ApiError::DataStore(_) => "data_store_unavailable",
            ApiError::DataCorrupt(_) => "data_corrupt",
            ApiError::SchemeRequired(_) => "scheme_required",
            ApiError::Internal(_) => "internal",
        }
    }

    /// What happened this time, for a person.
    pub fn detail(&self) -> String {
        match self {
            ApiError::Core(e) => e.to_string(),
            ApiError::Unauthorized { token_given: false } => {
                "this request needs Authorization: Bearer <token>".into()
            }
            ApiError::Unauthorized { token_given: true } => {
                "the bearer token is not one this server accepts".into()
            }
            ApiError::Forbidden => "this token may read but not write".into(),
            ApiError::NotFound(key) => format!("no revision {key}"),
            ApiError::NoRoute(path) => format!("no resource at {path}"),
            ApiError::MethodNotAllowed => "the resource does not support this method".into(),
            ApiError::BodyTimeout(d) => {
                format!(
                    "the request body did not arrive within {} s",
                    d.as_secs_f64()
                )
            }
            ApiError::PayloadTooLarge { limit } => {
                format!("the request body is larger than the limit of {limit} bytes")
            }
            ApiError::UnsupportedMediaType(given) => format!(
                "Content-Type must be application/json or application/octet-stream, not {}",
                given.as_deref().unwrap_or("absent")
            ),
            ApiError::UnknownParent(key) => format!("no revision {key}"),
            ApiError::HeadersTooLarge(why)
            | ApiError::InvalidQuery(why)
            | ApiError::InvalidPath(why)
            | ApiError::InvalidHost(why)
            | ApiError::InvalidBody(why) => why.clone(),
            ApiError::Database(_) => "the database did not complete the request; retry it".into(),
            ApiError::DataStore(_) => {
                "the object store holding revision data did not complete the request; retry it".into()
            }
            ApiError::DataCorrupt(why) => why.clone(),
            ApiError::SchemeRequired(ring) => format!(
                "the database records revisions under schemes this server's key ring ({ring}) does not derive, or retired one of its schemes: \
                 the server must be redeployed with the database's schemes; another server may take the request"
            ),
            ApiError::Internal(_) => "the server failed; the request can be retried".into(),
        }
    }

    /// The problem type's title: the same for every occurrence of a code.
    fn title(code: &str) -> String {
        let mut title = code.replace('_', " ");
        if let Some(first) = title.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        title
    }

    /// The `WWW-Authenticate` challenge this error carries (RFC 9110 §11.6.1, RFC 6750 §3).
    fn challenge(&self) -> Option<String> {
        match self {
            ApiError::Unauthorized { token_given: false } => {
                Some(format!("Bearer realm=\"{REALM}\""))
            }
            ApiError::Unauthorized { token_given: true } => {
                Some(format!("Bearer realm=\"{REALM}\", error=\"invalid_token\""))
            }
            ApiError::Forbidden => Some(format!(
                "Bearer realm=\"{REALM}\", error=\"insufficient_scope\""
            )),
            _ => None,
        }
    }

    /// What the log should say beyond the code, where the client is not told.
    fn cause(&self) -> Option<String> {
        match self {
            ApiError::Database(e) => Some(e.to_string()),
            ApiError::Internal(e) | ApiError::DataStore(e) | ApiError::DataCorrupt(e) => {
                Some(e.clone())
            }
            _ => None,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        ApiError::Database(error)
    }
}

impl ApiError {
    /// The error with the revision `key` named in its detail (a wrong object's).
    pub fn naming(self, key: &str) -> ApiError {
        match self {
            ApiError::DataCorrupt(why) => ApiError::DataCorrupt(format!("revision {key}: {why}")),
            other => other,
        }
    }
}

impl From<crate::store::objects::ObjectError> for ApiError {
    fn from(error: crate::store::objects::ObjectError) -> Self {
        match error {
            crate::store::objects::ObjectError::Unavailable(why) => ApiError::DataStore(why),
            crate::store::objects::ObjectError::Corrupt(why) => ApiError::DataCorrupt(why),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> Self {
        match error {
            crate::store::StoreError::Database(e) => e.into(),
            crate::store::StoreError::Objects(e) => e.into(),
        }
    }
}

impl From<samekey::Error> for ApiError {
    fn from(error: samekey::Error) -> Self {
        ApiError::Core(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let code = self.code();
        let title = ApiError::title(code);
        let problem = Problem {
            type_: format!("{PROBLEM_TYPE_BASE}#{code}"),
            title: &title,
            status: status.as_u16(),
            detail: self.detail(),
            code,
        };
        let body = serde_json::to_vec(&problem).expect("a problem serializes");
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Some(challenge) = self.challenge() {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_str(&challenge).expect("a challenge is ASCII"),
            );
        }
        response.extensions_mut().insert(ErrorCode(code));
        if let Some(cause) = self.cause() {
            response.extensions_mut().insert(LoggedCause(cause));
        }
        response
    }
}

/// The code of an error response, for the metrics and the log.
#[derive(Debug, Clone, Copy)]
pub struct ErrorCode(pub &'static str);

#[cfg(test)]
mod tests {
    use super::*;

    /// One error of each kind with its status: the match has no wildcard, so a new kind
    /// does not compile until it is listed here too.
    fn one_of_each() -> Vec<ApiError> {
        let all = vec![
            ApiError::Unauthorized { token_given: false },
            ApiError::Forbidden,
            ApiError::NotFound(String::new()),
            ApiError::NoRoute(String::new()),
            ApiError::MethodNotAllowed,
            ApiError::BodyTimeout(std::time::Duration::ZERO),
            ApiError::PayloadTooLarge { limit: 0 },
            ApiError::UnsupportedMediaType(None),
            ApiError::UnknownParent(String::new()),
            ApiError::HeadersTooLarge(String::new()),
            ApiError::InvalidQuery(String::new()),
            ApiError::InvalidPath(String::new()),
            ApiError::InvalidHost(String::new()),
            ApiError::InvalidBody(String::new()),
            ApiError::SchemeRequired(String::new()),
            ApiError::Database(sqlx::Error::PoolTimedOut),
            ApiError::DataStore(String::new()),
            ApiError::DataCorrupt(String::new()),
            ApiError::Internal(String::new()),
        ];
        for e in &all {
            match e {
                ApiError::Core(_)
                | ApiError::Unauthorized { .. }
                | ApiError::Forbidden
                | ApiError::NotFound(_)
                | ApiError::NoRoute(_)
                | ApiError::MethodNotAllowed
                | ApiError::BodyTimeout(_)
                | ApiError::PayloadTooLarge { .. }
                | ApiError::UnsupportedMediaType(_)
                | ApiError::UnknownParent(_)
                | ApiError::HeadersTooLarge(_)
                | ApiError::InvalidQuery(_)
                | ApiError::InvalidPath(_)
                | ApiError::InvalidHost(_)
                | ApiError::InvalidBody(_)
                | ApiError::SchemeRequired(_)
                | ApiError::Database(_)
                | ApiError::DataStore(_)
                | ApiError::DataCorrupt(_)
                | ApiError::Internal(_) => {}
            }
        }
        all
    }

    /// Every code has a row of the README's table with the status the server sends (the
    /// documentation site's error page reads the registry's codes from it), and the page
    /// its problem `type` names has a section for it.
    #[test]
    fn every_code_is_documented_with_its_status() {
        let readme = include_str!("../../README.md");
        let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/src/reference/errors.md");
        let page =
            std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        for e in one_of_each() {
            let (code, status) = (e.code(), e.status().as_u16());
            let anchor = format!("<a id=\"error-{code}\"></a>`{code}`");
            let row = readme
                .lines()
                .find(|line| line.contains(&anchor))
                .unwrap_or_else(|| panic!("README.md's error table has no row for `{code}`"));
            assert!(
                row.starts_with(&format!("| {status} | ")),
                "README.md documents `{code}` as {row:?}, the server sends {status}"
            );
            assert!(
                page.contains(&format!("`{code}`")) && page.contains(&format!("{{#{code}}}")),
                "docs/src/reference/errors.md has no section {{#{code}}}, which `type` names"
            );
        }
    }

    #[test]
    fn titles_are_the_code_in_words() {
        assert_eq!(ApiError::title("invalid_json"), "Invalid json");
        assert_eq!(ApiError::title("not_found"), "Not found");
    }
}
