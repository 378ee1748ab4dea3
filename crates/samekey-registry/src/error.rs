//! Every failure the service answers with: an HTTP status and `{"error": {"code", "message"}}`,
//! the code being the core's stable code where the core found the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// A bad input found by the core: 400 with the core's code.
    pub fn core(error: samekey::Error) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, error.code(), error.to_string())
    }

    pub fn not_found(key: &str) -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no revision {key}"),
        )
    }

    pub fn database(error: sqlx::Error) -> Self {
        tracing::error!(%error, "database error");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "database_unavailable",
            "the database did not complete the request; retry it",
        )
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        ApiError::database(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}
