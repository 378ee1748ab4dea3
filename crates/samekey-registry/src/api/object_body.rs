//! A revision's data as a response body streamed from the object store and checked as it
//! streams: its size and its content hash. The last bytes are held back until both are
//! right, so an object deleted or altered behind the registry's back reaches the client as
//! a cut answer (fewer bytes than its Content-Length), never as a complete wrong one.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use http_body::{Frame, SizeHint};
use samekey::{ContentHash, ContentHasher};

pub struct ObjectBody {
    stream: BoxStream<'static, object_store::Result<Bytes>>,
    /// The revision's key and content hash, named by the error of a wrong object.
    key: String,
    expected: ContentHash,
    hasher: Option<ContentHasher>,
    size: u64,
    /// Bytes read from the store so far.
    read: u64,
    /// The last piece read, not yet handed on.
    held: Option<Bytes>,
}

impl ObjectBody {
    pub fn new(
        key: String,
        expected: ContentHash,
        size: u64,
        stream: BoxStream<'static, object_store::Result<Bytes>>,
    ) -> ObjectBody {
        let hasher = ContentHasher::new(expected.scheme()).ok();
        ObjectBody {
            stream,
            key,
            expected,
            hasher,
            size,
            read: 0,
            held: None,
        }
    }

    fn corrupt(&self, why: String) -> axum::Error {
        axum::Error::new(format!(
            "data_corrupt: the data of {} in the object store {why}",
            self.key
        ))
    }
}

impl http_body::Body for ObjectBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        loop {
            let Some(hasher) = this.hasher.as_mut() else {
                // Checked and ended: the held piece went out with the check.
                return Poll::Ready(None);
            };
            match this.stream.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(axum::Error::new(e)))),
                Poll::Ready(Some(Ok(piece))) => {
                    this.read += piece.len() as u64;
                    if this.read > this.size {
                        let why = format!("is longer than its {} bytes", this.size);
                        return Poll::Ready(Some(Err(this.corrupt(why))));
                    }
                    hasher.update(&piece);
                    if let Some(previous) = this.held.replace(piece) {
                        return Poll::Ready(Some(Ok(Frame::data(previous))));
                    }
                }
                Poll::Ready(None) => {
                    let got = this.hasher.take().map(ContentHasher::finalize);
                    if this.read != this.size {
                        let why = format!("ended at {} of its {} bytes", this.read, this.size);
                        return Poll::Ready(Some(Err(this.corrupt(why))));
                    }
                    if got.as_ref() != Some(&this.expected) {
                        let why = format!("does not hash to {}", this.expected);
                        return Poll::Ready(Some(Err(this.corrupt(why))));
                    }
                    return Poll::Ready(this.held.take().map(|last| Ok(Frame::data(last))));
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.size == 0 && self.hasher.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        let sent = self.read - self.held.as_ref().map_or(0, |h| h.len() as u64);
        SizeHint::with_exact(self.size - sent)
    }
}
