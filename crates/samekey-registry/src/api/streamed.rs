//! An octet-stream body with an object store: hashed under every scheme of the ring as it
//! arrives and, once it outgrows one part, streamed into a multipart upload, so a revision
//! of gigabytes costs the server a few parts of memory. A body that ends within one part
//! is registered whole, as any other.

use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt;
use samekey::{ContentHasher, KeyRing};

use crate::api::error::ApiError;
use crate::api::register::{Input, OCTET_STREAM};
use crate::store::objects::DataStore;
use crate::store::staged::{Staging, PART};

/// Reads `body` (at most `limit` bytes, all within `timeout`) into what the registrar
/// takes. `capacity` is the declared length, allocated at once for a body of one part.
pub async fn read(
    body: Body,
    capacity: usize,
    limit: usize,
    timeout: Duration,
    ring: &KeyRing,
    objects: &DataStore,
) -> Result<Input, ApiError> {
    let mut staging: Option<Staging> = None;
    let read = tokio::time::timeout(
        timeout,
        fill(body, capacity, limit, ring, objects, &mut staging),
    )
    .await;
    let (head, hashers) = match read {
        Ok(Ok(read)) => read,
        Ok(Err(e)) => {
            abort(staging).await;
            return Err(e);
        }
        Err(_) => {
            abort(staging).await;
            return Err(ApiError::BodyTimeout(timeout));
        }
    };
    match staging {
        None => Ok(Input::Body(OCTET_STREAM, head)),
        Some(staging) => {
            let staged = staging.finish(objects).await?;
            let hashes = hashers.into_iter().map(ContentHasher::finalize).collect();
            Ok(Input::Staged(staged, hashes))
        }
    }
}

async fn abort(staging: Option<Staging>) {
    if let Some(staging) = staging {
        staging.abort().await;
    }
}

/// The body's first part (all of it, if it fits) and its hashers; past one part, the
/// bytes go on to `staging`.
async fn fill(
    mut body: Body,
    capacity: usize,
    limit: usize,
    ring: &KeyRing,
    objects: &DataStore,
    staging: &mut Option<Staging>,
) -> Result<(Vec<u8>, Vec<ContentHasher>), ApiError> {
    let mut hashers: Vec<ContentHasher> = ring
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
                let mut started = objects.stage().await?;
                started
                    .write(objects, std::mem::take(&mut head).into())
                    .await?;
                started.write(objects, chunk).await?;
                *staging = Some(started);
            }
        }
    }
    Ok((head, hashers))
}
