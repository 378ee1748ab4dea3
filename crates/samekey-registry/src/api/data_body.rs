//! A revision's data as a response body read from the database a chunk at a time, each
//! chunk only when the connection has written the one before: memory per reader is one
//! chunk, however large the revision and however slow the reader.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http_body::{Frame, SizeHint};

use tokio::sync::Semaphore;

use crate::store::{DataRef, Db};

/// Bytes read from the database at a time: what a reader may hold (with the connection's
/// MAX_UNSENT). On SQLite each read walks the data's overflow pages from the start, so
/// the cost of a whole answer grows as size^2 / CHUNK: 512 KiB reads an 8 MiB revision in
/// about twice the time of one whole read, 128 KiB took ten times as long.
pub const CHUNK: usize = 512 * 1024;

type Read = Pin<Box<dyn Future<Output = Result<Vec<u8>, sqlx::Error>> + Send>>;

pub struct DataBody {
    db: Db,
    /// `--cpu-jobs` permits: a chunk read is CPU work on a blocking thread, and this many
    /// at once leave the async workers their share of the CPU.
    cpu: Arc<Semaphore>,
    data: DataRef,
    /// Bytes handed to the connection so far.
    sent: u64,
    /// The first chunk, read before the answer's head so that a failing database is a 503.
    first: Option<Vec<u8>>,
    reading: Option<Read>,
}

impl DataBody {
    pub fn new(db: Db, cpu: Arc<Semaphore>, data: DataRef, first: Vec<u8>) -> DataBody {
        DataBody {
            db,
            cpu,
            data,
            sent: 0,
            first: Some(first),
            reading: None,
        }
    }

    fn size(&self) -> u64 {
        self.data.size.max(0) as u64
    }
}

impl http_body::Body for DataBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        let chunk = if let Some(first) = this.first.take() {
            first
        } else {
            if this.sent >= this.size() {
                return Poll::Ready(None);
            }
            let read = this.reading.get_or_insert_with(|| {
                let (db, cpu, data, at) = (
                    this.db.clone(),
                    this.cpu.clone(),
                    this.data.clone(),
                    this.sent,
                );
                Box::pin(async move {
                    let _permit = cpu.acquire_owned().await;
                    db.data_chunk(&data, at, CHUNK).await
                })
            });
            match read.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(result) => {
                    this.reading = None;
                    match result {
                        // The connection is cut: the client sees fewer bytes than the
                        // Content-Length it was promised, never other bytes.
                        Err(e) => return Poll::Ready(Some(Err(axum::Error::new(e)))),
                        Ok(chunk) => chunk,
                    }
                }
            }
        };
        if chunk.is_empty() && this.sent < this.size() {
            return Poll::Ready(Some(Err(axum::Error::new(format!(
                "{}: no data at {} of {}",
                this.data.content_hash,
                this.sent,
                this.size()
            )))));
        }
        this.sent += chunk.len() as u64;
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(chunk)))))
    }

    fn is_end_stream(&self) -> bool {
        self.first.is_none() && self.sent >= self.size()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.size() - self.sent)
    }
}
