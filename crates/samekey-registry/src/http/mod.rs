//! The HTTP/1.1 server loop under the router: a cap on open connections, a time limit on
//! each request head and on idle kept-alive connections, and a shutdown that finishes the
//! requests in flight but not longer than a deadline. (`axum::serve` has none of these.)

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

mod clock;
pub mod cors;
mod io;
mod limits;
mod per_ip;
pub mod tls;

use crate::metrics::{Closed, Metrics};
use clock::{BusyGuard, ConnectionClock};
use io::{ClockedIo, GuardedBody, ReadToEnd};
pub use limits::{Limits, MAX_UNSENT, RATE_WINDOW};
use per_ip::PerIp;
use tls::Tls;

/// Serves `app` on `listener` until `signal` resolves, then stops accepting, lets the
/// connections finish their requests (idle ones close at once), and after
/// `shutdown_timeout` drops those still open. Returns that deadline.
pub async fn run(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<Arc<Tls>>,
    metrics: Arc<Metrics>,
    signal: impl Future<Output = ()>,
) -> Instant {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        // Our watchdog times heads and idle time separately; hyper's timer would start
        // the head's clock while the connection is still idle.
        .header_read_timeout(None)
        // A client that sends its request and closes its side (or leaves) does not cancel
        // the request: hyper would otherwise drop the handler at the EOF. Its answer is
        // lost, its registration is not (see `Registrar::register`).
        .half_close(true)
        .max_buf_size(limits.max_head_bytes.max(8192 + 4096 * 100))
        .max_header_size(limits.max_head_bytes)
        .max_headers(limits.max_headers);
    let http = Arc::new(http);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    // Ticks when the cap is reached: idle kept-alive connections close to make room
    // (as nginx reuses its idle connections), so new clients do not wait for their timeout.
    let (drain_tx, drain_rx) = watch::channel(0u64);
    let mut connections = JoinSet::new();
    let per_ip = PerIp::new(limits.max_connections_per_ip);
    tokio::pin!(signal);
    'accept: loop {
        // At the cap, stop accepting: the kernel's backlog holds new connections until
        // one closes. Idle kept-alive connections and silent ones (not a byte sent yet)
        // are asked to make room, again and again while the cap holds, so that a flood
        // of silent connections cannot keep an honest client in the backlog.
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => loop {
                drain_tx.send_modify(|tick| *tick += 1);
                tokio::select! {
                    _ = &mut signal => break 'accept,
                    slot = slots.clone().acquire_owned() => break slot.expect("the semaphore is never closed"),
                    _ = tokio::time::sleep(DRAIN_EVERY) => {}
                }
            },
        };
        // Finished connections are reaped here (their slots are back already).
        while connections.try_join_next().is_some() {}
        let (stream, peer) = tokio::select! {
            _ = &mut signal => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors or similar: wait a little, never spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        metrics.connection_opened();
        let Some(held) = per_ip.admit(peer.ip()) else {
            // Over its address's share: closed at once, before any work.
            drop(stream);
            metrics.connection_closed(Some(Closed::PerIpLimit));
            continue;
        };
        let (http, app, metrics) = (http.clone(), app.clone(), metrics.clone());
        // The certificate in use now, for the whole connection.
        let acceptor = tls.as_ref().map(|t| t.acceptor());
        let signals = Signals {
            shutdown: shutdown_rx.clone(),
            drain: drain_rx.clone(),
        };
        connections.spawn(async move {
            let closed_by = serve_connection(stream, acceptor, &http, app, limits, signals).await;
            metrics.connection_closed(closed_by);
            drop(held);
            drop(slot);
        });
    }
    drop(listener);
    tracing::info!(
        open = connections.len(),
        "shutting down: finishing requests in flight"
    );
    let _ = shutdown_tx.send(true);
    let deadline = Instant::now() + limits.shutdown_timeout;
    while !connections.is_empty() {
        match tokio::time::timeout_at(deadline, connections.join_next()).await {
            Ok(_) => {}
            Err(_) => {
                tracing::warn!(
                    dropped = connections.len(),
                    "shutdown deadline reached: dropping connections still open"
                );
                for _ in 0..connections.len() {
                    metrics.connection_closed(Some(Closed::ShutdownDeadline));
                }
                connections.abort_all();
                break;
            }
        }
    }
    deadline
}

/// How long a connection must have been silent (accepted, not one byte read) before it
/// may be closed to make room at the cap: long enough for an honest client's request,
/// which is usually waiting in the socket when it is accepted, to be read.
const SILENT_BEFORE_EVICTION: Duration = Duration::from_millis(100);

/// While the cap holds, how often connections are asked again to make room.
const DRAIN_EVERY: Duration = Duration::from_millis(100);

/// What the accept loop tells every connection.
struct Signals {
    /// Finish the request in flight, then close.
    shutdown: watch::Receiver<bool>,
    /// The cap is reached: close if idle.
    drain: watch::Receiver<u64>,
}

/// Drives one connection, after its TLS handshake when `acceptor` is given; returns why
/// the server closed it, if the server did.
async fn serve_connection(
    stream: TcpStream,
    acceptor: Option<TlsAcceptor>,
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    limits: Limits,
    signals: Signals,
) -> Option<Closed> {
    let clock = Arc::new(ConnectionClock::new());
    let io = ClockedIo {
        inner: stream,
        clock: clock.clone(),
    };
    let Some(acceptor) = acceptor else {
        return drive(io, clock, http, app, limits, signals).await;
    };
    // The handshake has the time a request head has; a client that does not finish it
    // (or speaks plain HTTP to the TLS port) is closed.
    match tokio::time::timeout(limits.header_timeout, acceptor.accept(io)).await {
        Ok(Ok(tls)) => drive(tls, clock, http, app, limits, signals).await,
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "TLS handshake failed");
            None
        }
        Err(_) => Some(Closed::HeaderTimeout),
    }
}

/// Serves the requests of one connection's byte stream (plain or TLS) until it ends.
async fn drive<I>(
    io: I,
    clock: Arc<ConnectionClock>,
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    limits: Limits,
    mut signals: Signals,
) -> Option<Closed>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service_clock = clock.clone();
    // Set when an answer left its request's body unread: the close then lingers.
    let body_unread = Arc::new(AtomicBool::new(false));
    let unread = body_unread.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let busy = BusyGuard::new(service_clock.clone());
        let has_body = !http_body::Body::is_end_stream(request.body());
        let read_to_end = Arc::new(AtomicBool::new(false));
        let request = request.map(|body| {
            Body::new(ReadToEnd {
                body,
                done: read_to_end.clone(),
            })
        });
        let response = app.clone().oneshot(request);
        let unread = unread.clone();
        // Boxed so that the connection is Unpin and can give its socket back at the end.
        Box::pin(async move {
            let mut response = response.await?;
            // Answered before its body was read (a 401, 413, 415 or invalid_query before the
            // body, a 408): the connection cannot carry another request, and the client is
            // told so instead of finding out on its next request.
            if has_body && !read_to_end.load(Ordering::Acquire) {
                unread.store(true, Ordering::Release);
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            // The connection stays busy until hyper has written (and dropped) the body.
            Ok::<_, Infallible>(response.map(|body| Body::new(GuardedBody::new(body, busy))))
        })
    });
    let mut connection = http.serve_connection(TokioIo::new(io), service);
    let watchdog = clock.watchdog(limits);
    tokio::pin!(watchdog);
    let mut draining = false;
    loop {
        tokio::select! {
            result = std::future::poll_fn(|cx| connection.poll_without_shutdown(cx)) => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended with an error");
                    return None;
                }
                let io = connection.into_parts().io.into_inner();
                close(io, body_unread.load(Ordering::Acquire), limits).await;
                return None;
            }
            changed = signals.shutdown.changed(), if !draining => {
                draining = true;
                if changed.is_ok() {
                    std::pin::Pin::new(&mut connection).graceful_shutdown();
                }
            }
            Ok(()) = signals.drain.changed() => {
                if clock.is_idle() || clock.is_silent_for(SILENT_BEFORE_EVICTION) {
                    return Some(Closed::MadeRoom);
                }
            }
            reason = &mut watchdog => {
                tracing::debug!(?reason, "closing a connection");
                if matches!(reason, Closed::SlowReader | Closed::SendTimeout) {
                    clock.reset.store(true, Ordering::Relaxed);
                }
                return Some(reason);
            }
        }
    }
}

/// How long a close may linger reading what the client still sends, in all and between
/// reads (nginx's `lingering_time` and `lingering_timeout`, shorter: a slot is held).
const LINGER_FOR: Duration = Duration::from_secs(10);
const LINGER_IDLE: Duration = Duration::from_secs(2);

/// Ends a connection hyper is done with. After an answer that left its request's body
/// unread, the server's side is shut first (the answer is all sent) and what the client
/// still sends is read and dropped for a while, as nginx's lingering close does: closing
/// with unread bytes would reset the connection, and a client still writing its body
/// would see a broken pipe instead of the 413 or 401 it was sent.
async fn close<I: AsyncRead + AsyncWrite + Unpin>(mut io: I, body_unread: bool, limits: Limits) {
    if tokio::time::timeout(limits.send_timeout, io.shutdown())
        .await
        .map_or(true, |r| r.is_err())
        || !body_unread
    {
        return;
    }
    let until = Instant::now() + LINGER_FOR;
    let mut sink = vec![0u8; 64 * 1024];
    loop {
        let next = until.min(Instant::now() + LINGER_IDLE);
        match tokio::time::timeout_at(next, io.read(&mut sink)).await {
            Ok(Ok(n)) if n > 0 => {}
            _ => return,
        }
    }
}

/// Raises the soft limit of open files to the hard limit (as Go's runtime does at start)
/// and returns the connections that fit under it, keeping `reserved` descriptors for the
/// database, logs and the listener.
pub fn connections_within_open_files(wanted: usize, reserved: usize) -> usize {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            let raised = rustix::process::Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                limit = raised;
            }
        }
        match limit.current {
            Some(n) => wanted.min((n as usize).saturating_sub(reserved).max(1)),
            None => wanted,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = reserved;
        wanted
    }
}
