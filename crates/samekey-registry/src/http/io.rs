//! The connection's bodies and socket, wrapped to tell its clock what happens: answers
//! that keep the connection busy and wait for a slow reader, requests read to their end,
//! bytes in and out.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use hyper::body::Incoming;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::http::clock::{BusyGuard, ConnectionClock};
use crate::http::limits::MAX_UNSENT;

/// A response body that keeps its connection marked busy until it is dropped, and is
/// asked for more only while less than [`MAX_UNSENT`] of it waits for the socket.
pub(crate) struct GuardedBody {
    body: Body,
    busy: BusyGuard,
    /// Body bytes handed to the connection, and the connection's written count when the
    /// body started (the head's bytes, written later, count as body: a little slack).
    produced: u64,
    written_before: u64,
}

impl GuardedBody {
    pub(crate) fn new(body: Body, busy: BusyGuard) -> Self {
        let written_before = busy.0.written();
        GuardedBody {
            body,
            busy,
            produced: 0,
            written_before,
        }
    }

    pub(crate) fn unsent(&self) -> u64 {
        let sent = self.busy.0.written() - self.written_before;
        self.produced.saturating_sub(sent)
    }
}

impl http_body::Body for GuardedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        if self.unsent() >= MAX_UNSENT {
            *self.busy.0.body_waiting.lock().unwrap() = Some(cx.waker().clone());
            // A write may have finished between the check and the registration.
            if self.unsent() >= MAX_UNSENT {
                return Poll::Pending;
            }
        }
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &frame {
            if let Some(data) = frame.data_ref() {
                self.produced += data.len() as u64;
            }
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A request body that records whether it was read to its end.
pub(crate) struct ReadToEnd {
    pub(crate) body: Incoming,
    pub(crate) done: Arc<AtomicBool>,
}

impl http_body::Body for ReadToEnd {
    type Data = axum::body::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) || self.body.is_end_stream() {
            self.done.store(true, Ordering::Release);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// The socket, telling the connection's clock when bytes arrive and leave.
pub(crate) struct ClockedIo {
    pub(crate) inner: TcpStream,
    pub(crate) clock: Arc<ConnectionClock>,
}

impl Drop for ClockedIo {
    fn drop(&mut self) {
        if self.clock.reset.load(Ordering::Relaxed) {
            let _ = self.inner.set_zero_linger();
        }
    }
}

impl AsyncRead for ClockedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.clock.bytes_read();
        }
        result
    }
}

impl AsyncWrite for ClockedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.clock.write_polled(&result);
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.clock.write_polled(&result);
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
