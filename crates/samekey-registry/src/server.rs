//! The HTTP/1.1 server loop under the router: a cap on open connections, a time limit on
//! each request head and on idle kept-alive connections, and a shutdown that finishes the
//! requests in flight but not longer than a deadline. (`axum::serve` has none of these.)

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::metrics::{Closed, Metrics};

/// The time limits and the connection cap of one server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// From the first byte of a request head to its end.
    pub header_timeout: Duration,
    /// From accepting a connection to its first byte (at most `header_timeout`).
    pub first_byte_timeout: Duration,
    /// Connections one client address may hold open at once; more are closed at accept.
    pub max_connections_per_ip: Option<usize>,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// How long a write may wait for a client that does not read its answer.
    pub send_timeout: Duration,
    /// Bytes per second a client must take while an answer waits for it, measured over
    /// [`RATE_WINDOW`]; 0 turns the check off.
    pub min_send_rate: u64,
    pub max_connections: usize,
    /// From the shutdown signal until connections still open are dropped.
    pub shutdown_timeout: Duration,
    /// Hard bounds of the HTTP layer; smaller heads are judged by the router (431 with a
    /// problem body), larger ones get the HTTP layer's bare 431 and the connection closes.
    pub max_head_bytes: usize,
    pub max_headers: usize,
}

/// Serves `app` on `listener` until `signal` resolves, then stops accepting, lets the
/// connections finish their requests (idle ones close at once), and after
/// `shutdown_timeout` drops those still open. Returns that deadline.
pub async fn run(
    listener: TcpListener,
    app: Router,
    limits: Limits,
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
        let signals = Signals {
            shutdown: shutdown_rx.clone(),
            drain: drain_rx.clone(),
        };
        connections.spawn(async move {
            let closed_by = serve_connection(stream, &http, app, limits, signals).await;
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

/// The span over which `min_send_rate` is measured: a reader slower than it on average
/// over this long, while the server has bytes waiting for it, is cut.
pub const RATE_WINDOW: Duration = Duration::from_secs(10);

/// Bytes of an answer's body that may wait in the connection's buffers beyond what the
/// socket has taken: the body is asked for more only below it, so a reader that does not
/// keep up holds this much (and the chunk being read), not the answer.
pub const MAX_UNSENT: u64 = 128 * 1024;

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

/// Drives one connection; returns why the server closed it, if the server did.
async fn serve_connection(
    stream: TcpStream,
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    limits: Limits,
    mut signals: Signals,
) -> Option<Closed> {
    let clock = Arc::new(ConnectionClock::new());
    let io = TokioIo::new(ClockedIo {
        inner: stream,
        clock: clock.clone(),
    });
    let service_clock = clock.clone();
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
        async move {
            let mut response = response.await?;
            // Answered before its body was read (a 401, 413, 415 or invalid_query before the
            // body, a 408): the connection cannot carry another request, and the client is
            // told so instead of finding out on its next request.
            if has_body && !read_to_end.load(Ordering::Acquire) {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            // The connection stays busy until hyper has written (and dropped) the body.
            Ok::<_, Infallible>(response.map(|body| Body::new(GuardedBody::new(body, busy))))
        }
    });
    let connection = http.serve_connection(io, service);
    tokio::pin!(connection);
    let watchdog = clock.watchdog(limits);
    tokio::pin!(watchdog);
    let mut draining = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
                return None;
            }
            changed = signals.shutdown.changed(), if !draining => {
                draining = true;
                if changed.is_ok() {
                    connection.as_mut().graceful_shutdown();
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

/// What a connection is doing, for its watchdog.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Accepted at the given time; no byte yet. Timed by the first-byte timeout (a client
    /// that connects and sends nothing is a slowloris too), and the first closed to make
    /// room at the cap.
    Fresh(Instant),
    /// Waiting for the next request after answering one; no byte of it yet.
    Idle(Instant),
    /// Part of a request head arrived at the given time; the head is not complete.
    Head(Instant),
    /// This many requests are being answered (more than one when pipelined).
    Busy(usize),
}

#[derive(Default)]
struct Writes {
    /// Since when a write has been waiting for the client to read.
    blocked: Option<Instant>,
    /// Bytes written.
    total: u64,
    /// The window being measured for the send rate: it starts when a write first has to
    /// wait, with the count then.
    window: Option<(Instant, u64)>,
}

struct ConnectionClock {
    phase: Mutex<Phase>,
    /// The socket's writes, changed together on every write (one lock).
    writes: Mutex<Writes>,
    /// Wakes the watchdog when a deadline may have come closer.
    changed: Notify,
    /// The answer's body, waiting for the socket to take what is queued ([`MAX_UNSENT`]).
    body_waiting: Mutex<Option<std::task::Waker>>,
    /// Set when the server cuts the connection for not reading: it is then reset, so the
    /// kernel drops what it still holds for the client instead of sending it on.
    reset: AtomicBool,
}

impl ConnectionClock {
    fn new() -> Self {
        ConnectionClock {
            phase: Mutex::new(Phase::Fresh(Instant::now())),
            writes: Mutex::default(),
            changed: Notify::new(),
            body_waiting: Mutex::new(None),
            reset: AtomicBool::new(false),
        }
    }

    fn write_polled(&self, result: &Poll<io::Result<usize>>) {
        let mut writes = self.writes.lock().unwrap();
        match result {
            Poll::Pending => {
                let now = Instant::now();
                writes.blocked.get_or_insert(now);
                let total = writes.total;
                writes.window.get_or_insert((now, total));
                self.changed.notify_waiters();
            }
            Poll::Ready(result) => {
                writes.blocked = None;
                if let Ok(n) = result {
                    writes.total += *n as u64;
                    if let Some(body) = self.body_waiting.lock().unwrap().take() {
                        body.wake();
                    }
                }
            }
        }
    }

    fn written(&self) -> u64 {
        self.writes.lock().unwrap().total
    }

    /// At the end of a rate window: whether the client, still behind (a write waits for
    /// it), took too few bytes in the window. If not, the next window starts now if it is
    /// still behind, or when it next is; a client with nothing waiting is never too slow.
    fn too_slow(&self, limits: &Limits) -> bool {
        let mut writes = self.writes.lock().unwrap();
        let behind = writes.blocked.is_some();
        let Some((since, at_start)) = writes.window else {
            return false;
        };
        let wanted = limits
            .min_send_rate
            .saturating_mul(since.elapsed().as_secs());
        if behind && writes.total - at_start < wanted {
            return true;
        }
        writes.window = behind.then(|| (Instant::now(), writes.total));
        false
    }

    fn set_phase(&self, next: impl FnOnce(Phase) -> Option<Phase>) {
        let mut phase = self.phase.lock().unwrap();
        if let Some(next) = next(*phase) {
            *phase = next;
            self.changed.notify_waiters();
        }
    }

    /// Bytes arrived: while idle, they start a request head.
    fn bytes_read(&self) {
        self.set_phase(|p| match p {
            Phase::Fresh(_) | Phase::Idle(_) => Some(Phase::Head(Instant::now())),
            _ => None,
        });
    }

    fn request_started(&self) {
        self.set_phase(|p| match p {
            Phase::Busy(n) => Some(Phase::Busy(n + 1)),
            _ => Some(Phase::Busy(1)),
        });
    }

    fn request_done(&self) {
        self.set_phase(|p| match p {
            Phase::Busy(n) if n > 1 => Some(Phase::Busy(n - 1)),
            _ => Some(Phase::Idle(Instant::now())),
        });
    }

    fn is_idle(&self) -> bool {
        matches!(*self.phase.lock().unwrap(), Phase::Idle(_))
    }

    /// Accepted at least `age` ago and not one byte read since.
    fn is_silent_for(&self, age: Duration) -> bool {
        matches!(*self.phase.lock().unwrap(), Phase::Fresh(since) if since.elapsed() >= age)
    }

    /// The next deadline and what its passing means. A busy connection has none unless a
    /// write is blocked: its body is timed by the handler, its work by the database's.
    fn deadline(&self, limits: &Limits) -> Option<(Instant, Closed)> {
        let writes = self.writes.lock().unwrap();
        let rate = match writes.window {
            Some((since, _)) if limits.min_send_rate > 0 => {
                Some((since + RATE_WINDOW, Closed::SlowReader))
            }
            _ => None,
        };
        if let Some(since) = writes.blocked {
            let send = (since + limits.send_timeout, Closed::SendTimeout);
            return Some(rate.map_or(send, |r| if r.0 < send.0 { r } else { send }));
        }
        drop(writes);
        if rate.is_some() {
            return rate;
        }
        match *self.phase.lock().unwrap() {
            Phase::Fresh(since) => Some((
                since + limits.first_byte_timeout.min(limits.header_timeout),
                Closed::HeaderTimeout,
            )),
            Phase::Head(since) => Some((since + limits.header_timeout, Closed::HeaderTimeout)),
            Phase::Idle(since) => Some((since + limits.idle_timeout, Closed::IdleTimeout)),
            Phase::Busy(_) => None,
        }
    }

    /// Resolves when the head, idle or send time runs out.
    async fn watchdog(&self, limits: Limits) -> Closed {
        loop {
            // Registered before the state is read, so that no change is missed.
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(&limits) {
                Some((at, Closed::SlowReader)) if at <= Instant::now() => {
                    if self.too_slow(&limits) {
                        return Closed::SlowReader;
                    }
                }
                Some((at, reason)) if at <= Instant::now() => return reason,
                Some((at, _)) => {
                    tokio::select! {
                        _ = tokio::time::sleep_until(at) => {}
                        _ = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// Marks the connection busy for as long as it lives.
struct BusyGuard(Arc<ConnectionClock>);

impl BusyGuard {
    fn new(clock: Arc<ConnectionClock>) -> Self {
        clock.request_started();
        BusyGuard(clock)
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.request_done();
    }
}

/// A response body that keeps its connection marked busy until it is dropped, and is
/// asked for more only while less than [`MAX_UNSENT`] of it waits for the socket.
struct GuardedBody {
    body: Body,
    busy: BusyGuard,
    /// Body bytes handed to the connection, and the connection's written count when the
    /// body started (the head's bytes, written later, count as body: a little slack).
    produced: u64,
    written_before: u64,
}

impl GuardedBody {
    fn new(body: Body, busy: BusyGuard) -> Self {
        let written_before = busy.0.written();
        GuardedBody {
            body,
            busy,
            produced: 0,
            written_before,
        }
    }

    fn unsent(&self) -> u64 {
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
struct ReadToEnd {
    body: Incoming,
    done: Arc<AtomicBool>,
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
struct ClockedIo {
    inner: TcpStream,
    clock: Arc<ConnectionClock>,
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

/// Open connections per client address, when `--max-connections-per-ip` is set.
struct PerIp {
    limit: Option<usize>,
    open: Arc<Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

/// One connection's place in its address's count, given back when dropped.
struct PerIpHeld {
    ip: std::net::IpAddr,
    open: Arc<Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

impl PerIp {
    fn new(limit: Option<usize>) -> Self {
        PerIp {
            limit,
            open: Arc::default(),
        }
    }

    /// A place for a connection from `ip`, or `None` if it holds its limit already.
    fn admit(&self, ip: std::net::IpAddr) -> Option<Option<PerIpHeld>> {
        let Some(limit) = self.limit else {
            return Some(None);
        };
        let mut open = self.open.lock().unwrap();
        let n = open.entry(ip).or_insert(0);
        if *n >= limit {
            return None;
        }
        *n += 1;
        Some(Some(PerIpHeld {
            ip,
            open: self.open.clone(),
        }))
    }
}

impl Drop for PerIpHeld {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap();
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
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
