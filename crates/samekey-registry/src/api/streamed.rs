//! An octet-stream body with an object store: hashed under every scheme of the ring as it
//! arrives and, once it outgrows one part, streamed into a multipart upload, so a revision
//! of gigabytes costs the server a few parts of memory. A body that ends within one part
//! is registered whole, as any other.

use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt;
use samekey::ContentHasher;

use crate::api::error::ApiError;
use crate::api::register::{Input, Registrar, OCTET_STREAM};
use crate::store::objects::DataStore;
use crate::store::staged::{Staging, PART};

/// Reads `body` (at most `limit` bytes, all within `timeout`) into what `registrar`
/// takes, with its object store `objects`. `capacity` is the declared length, allocated
/// at once for a body of one part.
pub async fn read(
    registrar: &Registrar,
    objects: &DataStore,
    body: Body,
    (capacity, limit): (usize, usize),
    timeout: Duration,
) -> Result<Input, ApiError> {
    let db = &registrar.db;
    let mut staging: Option<Staging> = None;
    let filling = fill(registrar, objects, body, (capacity, limit), &mut staging);
    let (head, hashers) = match tokio::time::timeout(timeout, filling).await {
        Ok(Ok(read)) => read,
        Ok(Err(e)) => {
            abort(staging, registrar).await;
            return Err(e);
        }
        Err(_) => {
            abort(staging, registrar).await;
            return Err(ApiError::BodyTimeout(timeout));
        }
    };
    match staging {
        None => Ok(Input::Body(OCTET_STREAM, head)),
        Some(staging) => {
            let staged = staging.finish(objects, db).await?;
            let hashes = hashers.into_iter().map(ContentHasher::finalize).collect();
            Ok(Input::Staged(staged, hashes))
        }
    }
}

async fn abort(staging: Option<Staging>, registrar: &Registrar) {
    if let Some(staging) = staging {
        staging.abort(&registrar.db).await;
    }
}

/// The body's first part (all of it, if it fits) and its hashers; past one part, the
/// bytes go on to `staging`.
async fn fill(
    registrar: &Registrar,
    objects: &DataStore,
    mut body: Body,
    (capacity, limit): (usize, usize),
    staging: &mut Option<Staging>,
) -> Result<(Vec<u8>, Vec<ContentHasher>), ApiError> {
    let mut hashers: Vec<ContentHasher> = registrar
        .ring
        .accepted()
        .iter()
        .filter_map(|s| ContentHasher::new(*s).ok())
        .collect();
    let mut head = Vec::with_capacity(capacity.min(PART));
    let mut read = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            ApiError::InvalidBody(format!("the request body could not be read: {e}"))
        })?;
        let Ok(chunk) = frame.into_data() else {
            continue;
        };
        read += chunk.len();
        if read > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        for h in &mut hashers {
            h.update(&chunk);
        }
        match staging {
            Some(staging) => staging.write(objects, chunk).await?,
            None if head.len() + chunk.len() <= PART => head.extend_from_slice(&chunk),
            None => {
                let started = objects.stage(&registrar.db).await?;
                // Kept before its first write, so that a failure aborts it.
                let first = std::mem::take(&mut head);
                let started = staging.insert(started);
                started.write(objects, first.into()).await?;
                started.write(objects, chunk).await?;
            }
        }
    }
    Ok((head, hashers))
}
