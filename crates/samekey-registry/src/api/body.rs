//! Reading a request body within the size limit and the time limit. The declared length
//! is checked before the first byte is read, so an oversized upload is refused at once
//! (and `Expect: 100-continue` gets 413 instead of `100 Continue`).

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap};
use http_body_util::BodyExt;

use crate::api::error::ApiError;

/// The `Content-Length` a request declares, if it declares one that parses.
pub fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// What a body of at most `limit` bytes may declare: 413 before reading anything when
/// its declared length is over the limit; else the declared length (0 if none), which
/// [`read`] allocates at once.
pub fn check_declared(headers: &HeaderMap, limit: usize) -> Result<usize, ApiError> {
    match declared_length(headers) {
        Some(n) if n > limit as u64 => Err(ApiError::PayloadTooLarge { limit }),
        declared => Ok(declared.map_or(0, |n| n as usize)),
    }
}

/// The whole body, or 413 once more than `limit` bytes arrived, or 408 when it takes
/// longer than `timeout` in all. `capacity` is what [`check_declared`] returned: one
/// allocation of the declared size instead of doubling growth (which would hold up to
/// twice the body while copying).
pub async fn read(
    body: Body,
    capacity: usize,
    limit: usize,
    timeout: Duration,
) -> Result<Vec<u8>, ApiError> {
    let collect = async move {
        let mut out = Vec::with_capacity(capacity);
        let mut body = body;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                ApiError::InvalidBody(format!("the request body could not be read: {e}"))
            })?;
            if let Ok(chunk) = frame.into_data() {
                if out.len() + chunk.len() > limit {
                    return Err(ApiError::PayloadTooLarge { limit });
                }
                out.extend_from_slice(&chunk);
            }
        }
        Ok(out)
    };
    tokio::time::timeout(timeout, collect)
        .await
        .map_err(|_| ApiError::BodyTimeout(timeout))?
}
