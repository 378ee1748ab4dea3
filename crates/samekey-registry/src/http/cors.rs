//! CORS (the Fetch standard's protocol) for browser clients on other origins: the origins
//! named by `--cors-origin`, exactly, and no others. A preflight from one of them is
//! answered here, before authentication (a browser sends no credentials with it); every
//! answer to one of them, problem documents included, carries the headers a browser needs
//! to let the page read it. Without `--cors-origin` nothing changes: `OPTIONS` is 405 and
//! no answer names an origin, so browsers keep other origins out.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The methods the API has; a preflight for another is not answered (405 follows).
const METHODS: &str = "GET, HEAD, POST";
/// The request headers a client may send beyond the CORS-safelisted ones.
const ALLOW_HEADERS: &str = "Authorization, Content-Type";
/// The answer headers a page may read beyond the safelisted ones.
const EXPOSE_HEADERS: &str = "Location, WWW-Authenticate";
/// Seconds a browser may cache a preflight's answer.
const MAX_AGE: &str = "600";

/// The origins allowed, as browsers serialize them (`https://app.example.com`).
#[derive(Debug, Default)]
pub struct Cors {
    origins: Vec<HeaderValue>,
}

impl Cors {
    /// From origins that [`parse_origin`] accepted.
    pub fn new(origins: &[String]) -> Cors {
        Cors {
            origins: origins
                .iter()
                .map(|o| HeaderValue::from_str(o).expect("a parsed origin is ASCII"))
                .collect(),
        }
    }

    fn allowed(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        let origin = headers.get(header::ORIGIN)?;
        self.origins.iter().find(|o| *o == origin).cloned()
    }

    fn enabled(&self) -> bool {
        !self.origins.is_empty()
    }
}

/// A `--cors-origin` value: `http` or `https`, `://`, a host and an optional port, nothing
/// after; written as a browser writes it (lowercase, the default port left out). A
/// wildcard is refused: a registry's writes need a token, and every page on the web
/// should not be able to spend one.
pub fn parse_origin(text: &str) -> Result<String, String> {
    if text == "*" || text.contains('*') {
        return Err(format!(
            "{text:?}: --cors-origin takes exact origins (https://app.example.com), no wildcard; repeat the flag for each"
        ));
    }
    let lower = text.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://").ok_or_else(|| {
        format!(
            "{text:?} is not an origin: write scheme://host[:port], e.g. https://app.example.com"
        )
    })?;
    let default_port = match scheme {
        "http" => "80",
        "https" => "443",
        _ => return Err(format!("{text:?}: an origin's scheme is http or https")),
    };
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && !p.contains(']') => (h, Some(p)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && (host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            || (host.starts_with('[')
                && host.ends_with(']')
                && host[1..host.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')));
    let port_ok = port.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 5
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|n| n <= 65535)
    });
    if !host_ok || !port_ok {
        return Err(format!(
            "{text:?} is not an origin: scheme://host[:port] with nothing after (no path, no trailing /)"
        ));
    }
    Ok(match port {
        Some(p) if p != default_port => format!("{scheme}://{host}:{p}"),
        _ => format!("{scheme}://{host}"),
    })
}

/// The middleware: preflights of allowed origins answered, their answers marked.
pub async fn cors(State(cors): State<Arc<Cors>>, request: Request, next: Next) -> Response {
    if !cors.enabled() {
        return next.run(request).await;
    }
    let Some(origin) = cors.allowed(request.headers()) else {
        let mut response = next.run(request).await;
        vary(response.headers_mut(), "Origin");
        return response;
    };
    if let Some(preflight) = preflight(&request, &origin) {
        return preflight;
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSE_HEADERS),
    );
    vary(headers, "Origin");
    response
}

/// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) for a method
/// the API has; None lets the request through (to its 405).
fn preflight(request: &Request, origin: &HeaderValue) -> Option<Response> {
    if request.method() != Method::OPTIONS {
        return None;
    }
    let wanted = request
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_METHOD)?;
    if !matches!(wanted.as_bytes(), b"GET" | b"HEAD" | b"POST") {
        return None;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(METHODS),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(ALLOW_HEADERS),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(MAX_AGE),
    );
    vary(
        headers,
        "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    );
    Some(response)
}

/// Caches must keep answers to different origins apart.
fn vary(headers: &mut HeaderMap, names: &'static str) {
    headers.append(header::VARY, HeaderValue::from_static(names));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_written_as_browsers_write_them() {
        for (given, origin) in [
            ("https://app.example.com", "https://app.example.com"),
            ("HTTPS://App.Example.com", "https://app.example.com"),
            ("https://app.example.com:443", "https://app.example.com"),
            ("http://localhost:8080", "http://localhost:8080"),
            ("http://127.0.0.1:80", "http://127.0.0.1"),
            ("http://[::1]:3000", "http://[::1]:3000"),
        ] {
            assert_eq!(parse_origin(given).as_deref(), Ok(origin), "{given}");
        }
    }

    #[test]
    fn anything_but_an_exact_origin_is_refused() {
        for bad in [
            "*",
            "https://*.example.com",
            "app.example.com",
            "ftp://example.com",
            "https://example.com/",
            "https://example.com/app",
            "https://example.com:99999",
            "https://example.com:",
            "https://",
            "https://exa mple.com",
            "null",
        ] {
            assert!(parse_origin(bad).is_err(), "{bad}");
        }
    }
}
