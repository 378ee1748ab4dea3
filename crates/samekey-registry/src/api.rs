//! The HTTP API. Writes: `POST /v1/revisions[?parent=KEY]`. Reads: a revision, its data,
//! its history. Documented in `openapi.json`, served at `/openapi.json`.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use samekey::{format_rfc3339, KeyRing};
use serde::{Deserialize, Serialize};

use crate::db::{Db, Insert, Revision};
use crate::error::ApiError;
use crate::register::{self, Registration};

pub const OPENAPI: &str = include_str!("../openapi.json");

/// Every route, as `openapi.json` must list it (checked by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("post", "/v1/revisions"),
    ("get", "/v1/revisions/{key}"),
    ("get", "/v1/revisions/{key}/data"),
    ("get", "/v1/revisions/{key}/history"),
    ("get", "/openapi.json"),
    ("get", "/healthz"),
];

pub struct AppState {
    pub db: Db,
    pub ring: KeyRing,
    pub token: Option<String>,
}

pub fn router(state: Arc<AppState>, body_limit: usize) -> Router {
    Router::new()
        .route("/v1/revisions", post(register_revision))
        .route("/v1/revisions/{key}", get(revision))
        .route("/v1/revisions/{key}/data", get(data))
        .route("/v1/revisions/{key}/history", get(history))
        .route(
            "/openapi.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], OPENAPI) }),
        )
        .route(
            "/healthz",
            get(|| async { Json(serde_json::json!({"status": "ok"})) }),
        )
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(state)
}

/// One structured log line per request: method, path, status, milliseconds.
async fn log_request(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    tracing::info!(%method, %path, status = response.status().as_u16(), ms = started.elapsed().as_secs_f64() * 1e3, "request");
    response
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

#[derive(Debug, Deserialize)]
pub struct ParentQuery {
    parent: Option<String>,
}

fn check_token(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(expected) = &state.token else {
        return Ok(());
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if crate::auth::token_matches(expected, given) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "writes need Authorization: Bearer <token>",
        ))
    }
}

async fn register_revision(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ParentQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    check_token(&state, &headers)?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let media_type = register::media_type(content_type).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            format!(
                "Content-Type must be application/json or application/octet-stream, not {}",
                content_type.unwrap_or("absent")
            ),
        )
    })?;
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            e.body_text(),
        ),
        status => ApiError::new(status, "invalid_body", e.body_text()),
    })?;
    let Query(query) = query
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", e.body_text()))?;
    let parent = register::parse_parent(&state.ring, query.parent.as_deref())?;
    let registration = register::registration(&state.ring, media_type, &body, parent)?;
    // The database work runs to its end even if the client goes away: a retry then finds it.
    let (stored, created) = tokio::spawn(store(state, registration))
        .await
        .map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })??;
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

/// Finds the revision under an older accepted scheme, or stores it under the primary one
/// (which finds it too if it exists: the insert does nothing on conflict).
async fn store(state: Arc<AppState>, r: Registration) -> Result<(Revision, bool), ApiError> {
    let unknown_parent = |parent: &Option<String>| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_parent",
            format!("no revision {}", parent.as_deref().unwrap_or("")),
        )
    };
    for older in &r.candidates[1..] {
        if let Some(existing) = state.db.revision(&older.key).await? {
            return Ok((existing, false));
        }
    }
    let primary = &r.candidates[0];
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let revision = Revision {
        key: primary.key.clone(),
        parent: r.parent.clone(),
        scheme: primary.scheme.clone(),
        content_hash: primary.content_hash.clone(),
        media_type: r.media_type.to_string(),
        size: r.data.len() as i64,
        created_at_ms: now,
    };
    match state.db.insert(&revision, &r.data).await? {
        Insert::Stored(stored, created) => Ok((stored, created)),
        Insert::UnknownParent => Err(unknown_parent(&r.parent)),
    }
}

fn checked_key(key: &str) -> Result<(), ApiError> {
    key.parse::<samekey::RevisionKey>()
        .map(|_| ())
        .map_err(ApiError::core)
}

async fn revision(
    State(state): State<Arc<AppState>>,
    Path(key): Path<String>,
) -> Result<Json<RevisionBody>, ApiError> {
    checked_key(&key)?;
    let found = state
        .db
        .revision(&key)
        .await?
        .ok_or_else(|| ApiError::not_found(&key))?;
    Ok(Json(found.into()))
}

async fn data(
    State(state): State<Arc<AppState>>,
    Path(key): Path<String>,
) -> Result<Response, ApiError> {
    checked_key(&key)?;
    let (media_type, bytes) = state
        .db
        .data(&key)
        .await?
        .ok_or_else(|| ApiError::not_found(&key))?;
    Ok(([(header::CONTENT_TYPE, media_type)], bytes).into_response())
}

#[derive(Debug, Deserialize)]
pub struct HistoryQuery {
    limit: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct HistoryBody {
    pub revisions: Vec<RevisionBody>,
}

/// The revision and its ancestors, nearest first (`?limit=`, default and maximum 1000).
async fn history(
    State(state): State<Arc<AppState>>,
    Path(key): Path<String>,
    Query(query): Query<HistoryQuery>,
) -> Result<Json<HistoryBody>, ApiError> {
    checked_key(&key)?;
    let limit = query.limit.unwrap_or(1000).clamp(1, 1000);
    let chain = state.db.history(&key, limit).await?;
    if chain.is_empty() {
        return Err(ApiError::not_found(&key));
    }
    Ok(Json(HistoryBody {
        revisions: chain.into_iter().map(Into::into).collect(),
    }))
}
