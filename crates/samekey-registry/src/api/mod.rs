//! The HTTP API. Writes: `POST /v1/revisions[?parent=KEY]`. Reads: a revision, its data,
//! its history, `/metrics`. Documented in `openapi.json`, served at `/openapi.json`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{FromRequestParts, MatchedPath, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use samekey::format_rfc3339;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::metrics::Metrics;
use crate::store::Revision;
use auth::{Scope, Tokens};
use data_body::{DataBody, CHUNK};
use error::{ApiError, ErrorCode, LoggedCause};
use register::Registrar;

pub mod auth;
mod body;
mod data_body;
pub mod error;
mod object_body;
pub mod register;
mod streamed;

pub const OPENAPI: &str = include_str!("../../openapi.json");

/// Every route, as `openapi.json` must list it (checked by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("post", "/v1/revisions"),
    ("get", "/v1/revisions/{key}"),
    ("get", "/v1/revisions/{key}/data"),
    ("get", "/v1/revisions/{key}/history"),
    ("get", "/metrics"),
    ("get", "/openapi.json"),
    ("get", "/healthz"),
];

/// What a request may cost before any handler runs.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    pub body_bytes: usize,
    /// JSON bodies (read whole to canonicalize them): at most `body_bytes`.
    pub json_bytes: usize,
    pub body_timeout: Duration,
    /// Header names and values added up.
    pub header_bytes: usize,
    pub headers: usize,
}

pub struct AppState {
    pub registrar: Arc<Registrar>,
    pub tokens: Arc<Tokens>,
    pub cors: Arc<crate::http::cors::Cors>,
    pub metrics: Arc<Metrics>,
    pub limits: RequestLimits,
}

pub fn router(state: Arc<AppState>) -> Router {
    let need = |scope| from_fn_with_state((state.tokens.clone(), scope), auth::require);
    let writes = Router::new()
        .route("/v1/revisions", post(register_revision))
        .route_layer(need(Scope::Write));
    let reads = Router::new()
        .route("/v1/revisions/{key}", get(revision))
        .route("/v1/revisions/{key}/data", get(data))
        .route("/v1/revisions/{key}/history", get(history))
        .route("/metrics", get(metrics))
        .route_layer(need(Scope::Read));
    let open = Router::new()
        .route(
            "/openapi.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], OPENAPI) }),
        )
        .route(
            "/healthz",
            get(|| async { Json(serde_json::json!({"status": "ok"})) }),
        );
    Router::new()
        .merge(writes)
        .merge(reads)
        .merge(open)
        .fallback(|uri: Uri| async move { ApiError::NoRoute(uri.path().to_string()) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(from_fn_with_state(state.limits, check_head))
        // Outside the routes' authentication, so that a preflight is answered without a
        // token; inside the log, so that it is counted.
        .layer(from_fn_with_state(
            state.cors.clone(),
            crate::http::cors::cors,
        ))
        .layer(from_fn_with_state(state.clone(), observe))
        .with_state(state)
}

/// One log line and the metrics of every request, errors with their code.
async fn observe(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().cloned();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = Instant::now();
    let in_flight = state.metrics.request_started();
    let response = next.run(request).await;
    let took = started.elapsed();
    let code = response.extensions().get::<ErrorCode>().map(|c| c.0);
    let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
    state.metrics.request_finished(route, took, code);
    drop(in_flight);
    let status = response.status().as_u16();
    let ms = took.as_secs_f64() * 1e3;
    match response.extensions().get::<LoggedCause>() {
        Some(LoggedCause(cause)) => {
            tracing::error!(%method, %path, status, ms, code, cause, "request failed")
        }
        None => tracing::info!(%method, %path, status, ms, code, "request"),
    }
    response
}

/// 431 with a problem body for heads over the limit (the HTTP layer closes the
/// connection on heads over its own, larger bound).
async fn check_head(State(limits): State<RequestLimits>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers.len() > limits.headers || bytes > limits.header_bytes {
        return ApiError::HeadersTooLarge(format!(
            "the request has {} header fields of {bytes} bytes; at most {} fields of {} bytes in all are accepted",
            headers.len(),
            limits.headers,
            limits.header_bytes
        ))
        .into_response();
    }
    // RFC 9112 §3.2: a request without Host, or with two, is refused; two could be read
    // differently by a proxy in front and by us.
    let hosts = headers.get_all(header::HOST).iter().count();
    if hosts != 1 {
        return ApiError::InvalidHost(format!(
            "the request has {hosts} Host fields; an HTTP/1.1 request has exactly one"
        ))
        .into_response();
    }
    next.run(request).await
}

/// Query parameters that must all be known: a typo such as `?parnet=` is refused instead
/// of silently meaning "no parent".
pub struct StrictQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for StrictQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(StrictQuery(value)),
            Err(e) => Err(ApiError::InvalidQuery(e.body_text())),
        }
    }
}

/// The `{key}` of a path: percent-decoded text that parses as a revision key.
pub struct KeyPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for KeyPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(key) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::InvalidPath(e.body_text()))?;
        key.parse::<samekey::RevisionKey>()?;
        Ok(KeyPath(key))
    }
}

/// A route that takes no parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParentQuery {
    parent: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    limit: Option<i64>,
}

/// The body of every revision answer: the same bytes for the same stored row.
#[derive(Debug, Serialize)]
pub struct RevisionBody {
    pub key: String,
    pub parent: Option<String>,
    pub scheme: String,
    pub content_hash: String,
    pub media_type: String,
    pub size: i64,
    pub created_at: String,
}

impl From<Revision> for RevisionBody {
    fn from(r: Revision) -> Self {
        let created_at = u64::try_from(r.created_at_ms)
            .ok()
            .and_then(|ms| format_rfc3339(ms).ok())
            .unwrap_or_default();
        RevisionBody {
            key: r.key,
            parent: r.parent,
            scheme: r.scheme,
            content_hash: r.content_hash,
            media_type: r.media_type,
            size: r.size,
            created_at,
        }
    }
}

/// Everything that can be refused is refused before the body is read: the token (a
/// layer), the media type, the declared length, the query.
async fn register_revision(
    State(state): State<Arc<AppState>>,
    StrictQuery(query): StrictQuery<ParentQuery>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let media_type = register::media_type(content_type)
        .ok_or_else(|| ApiError::UnsupportedMediaType(content_type.map(str::to_string)))?;
    let limits = state.limits;
    // JSON is canonicalized whole, so it has a limit of its own; raw bytes stream.
    let limit = if media_type == register::JSON {
        limits.json_bytes
    } else {
        limits.body_bytes
    };
    let declared = crate::api::body::check_declared(&headers, limit)?;
    let parent = register::parse_parent(&state.registrar.ring, query.parent.as_deref())?;
    let registrar = &state.registrar;
    let input = match &registrar.objects {
        Some(objects) if media_type == register::OCTET_STREAM => {
            let timeout = limits.body_timeout;
            streamed::read(registrar, objects, body, (declared, limit), timeout).await?
        }
        _ => {
            let bytes = crate::api::body::read(body, declared, limit, limits.body_timeout).await?;
            register::Input::Body(media_type, bytes)
        }
    };
    let (stored, created) = registrar.register(input, parent).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let location =
        HeaderValue::from_str(&format!("/v1/revisions/{}", stored.key)).expect("a key is ASCII");
    Ok((
        status,
        [(header::LOCATION, location)],
        Json(RevisionBody::from(stored)),
    )
        .into_response())
}

async fn revision(
    State(state): State<Arc<AppState>>,
    KeyPath(key): KeyPath,
    StrictQuery(NoParams {}): StrictQuery<NoParams>,
) -> Result<Json<RevisionBody>, ApiError> {
    let found = state.registrar.db.revision(&key).await?;
    Ok(Json(found.ok_or(ApiError::NotFound(key))?.into()))
}

async fn data(
    State(state): State<Arc<AppState>>,
    KeyPath(key): KeyPath,
    StrictQuery(NoParams {}): StrictQuery<NoParams>,
) -> Result<Response, ApiError> {
    let db = &state.registrar.db;
    let cpu = state.registrar.cpu.clone();
    let data = db
        .data_ref(&key)
        .await?
        .ok_or(ApiError::NotFound(key.clone()))?;
    if let Some(location) = &data.object {
        let Some(objects) = &state.registrar.objects else {
            return Err(ApiError::DataStore(format!(
                "the data of {key} is in an object store, and this server has no --data-store"
            )));
        };
        let expected: samekey::ContentHash = data.content_hash.parse()?;
        let size = data.size.max(0) as u64;
        let path = objects.located(&data.content_hash, location);
        let stream = objects
            .get(&path, size)
            .await
            .map_err(|e| ApiError::from(e).naming(&key))?;
        let body = object_body::ObjectBody::new(key, expected, size, stream);
        return Ok(([(header::CONTENT_TYPE, data.media_type)], Body::new(body)).into_response());
    }
    let first = {
        let _permit = cpu.acquire().await;
        db.data_chunk(&data, 0, CHUNK).await?
    };
    let media_type = data.media_type.clone();
    let body = DataBody::new(db.clone(), cpu, data, first);
    Ok(([(header::CONTENT_TYPE, media_type)], Body::new(body)).into_response())
}

#[derive(Debug, Serialize)]
pub struct HistoryBody {
    pub revisions: Vec<RevisionBody>,
}

/// Most revisions one history answer holds.
const HISTORY_MAX: i64 = 1000;

/// The revision and its ancestors, nearest first (`?limit=`, 1 to 1000, default 1000).
async fn history(
    State(state): State<Arc<AppState>>,
    KeyPath(key): KeyPath,
    StrictQuery(query): StrictQuery<HistoryQuery>,
) -> Result<Json<HistoryBody>, ApiError> {
    let limit = query.limit.unwrap_or(HISTORY_MAX);
    if !(1..=HISTORY_MAX).contains(&limit) {
        return Err(ApiError::InvalidQuery(format!(
            "limit must be from 1 to {HISTORY_MAX}, not {limit}"
        )));
    }
    let chain = state.registrar.db.history(&key, limit).await?;
    if chain.is_empty() {
        return Err(ApiError::NotFound(key));
    }
    Ok(Json(HistoryBody {
        revisions: chain.into_iter().map(Into::into).collect(),
    }))
}

async fn metrics(
    State(state): State<Arc<AppState>>,
    StrictQuery(NoParams {}): StrictQuery<NoParams>,
) -> Response {
    let registrar = &state.registrar;
    let schemes = crate::store::schemes::states(&registrar.db).await.ok();
    let text = state.metrics.render(
        &registrar.db.pool_states(),
        &registrar.ring,
        schemes.as_deref(),
    );
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
