//! What one connection of the server is doing, and since when: the clock its watchdog
//! reads to close slow heads, idle and silent connections, and readers too slow to take
//! their answer.

use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::http::limits::{Limits, RATE_WINDOW};
use crate::metrics::Closed;

/// What a connection is doing, for its watchdog.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Phase {
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
pub(crate) struct Writes {
    /// Since when a write has been waiting for the client to read.
    blocked: Option<Instant>,
    /// Bytes written.
    total: u64,
    /// The window being measured for the send rate: it starts when a write first has to
    /// wait, with the count then.
    window: Option<(Instant, u64)>,
}

pub(crate) struct ConnectionClock {
    phase: Mutex<Phase>,
    /// The socket's writes, changed together on every write (one lock).
    writes: Mutex<Writes>,
    /// Wakes the watchdog when a deadline may have come closer.
    changed: Notify,
    /// The answer's body, waiting for the socket to take what is queued ([`MAX_UNSENT`]).
    pub(crate) body_waiting: Mutex<Option<std::task::Waker>>,
    /// Set when the server cuts the connection for not reading: it is then reset, so the
    /// kernel drops what it still holds for the client instead of sending it on.
    pub(crate) reset: AtomicBool,
}

impl ConnectionClock {
    pub(crate) fn new() -> Self {
        ConnectionClock {
            phase: Mutex::new(Phase::Fresh(Instant::now())),
            writes: Mutex::default(),
            changed: Notify::new(),
            body_waiting: Mutex::new(None),
            reset: AtomicBool::new(false),
        }
    }

    pub(crate) fn write_polled(&self, result: &Poll<io::Result<usize>>) {
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

    pub(crate) fn written(&self) -> u64 {
        self.writes.lock().unwrap().total
    }

    /// At the end of a rate window: whether the client, still behind (a write waits for
    /// it), took too few bytes in the window. If not, the next window starts now if it is
    /// still behind, or when it next is; a client with nothing waiting is never too slow.
    pub(crate) fn too_slow(&self, limits: &Limits) -> bool {
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

    pub(crate) fn set_phase(&self, next: impl FnOnce(Phase) -> Option<Phase>) {
        let mut phase = self.phase.lock().unwrap();
        if let Some(next) = next(*phase) {
            *phase = next;
            self.changed.notify_waiters();
        }
    }

    /// Bytes arrived: while idle, they start a request head.
    pub(crate) fn bytes_read(&self) {
        self.set_phase(|p| match p {
            Phase::Fresh(_) | Phase::Idle(_) => Some(Phase::Head(Instant::now())),
            _ => None,
        });
    }

    pub(crate) fn request_started(&self) {
        self.set_phase(|p| match p {
            Phase::Busy(n) => Some(Phase::Busy(n + 1)),
            _ => Some(Phase::Busy(1)),
        });
    }

    pub(crate) fn request_done(&self) {
        self.set_phase(|p| match p {
            Phase::Busy(n) if n > 1 => Some(Phase::Busy(n - 1)),
            _ => Some(Phase::Idle(Instant::now())),
        });
    }

    pub(crate) fn is_idle(&self) -> bool {
        matches!(*self.phase.lock().unwrap(), Phase::Idle(_))
    }

    /// Accepted at least `age` ago and not one byte read since.
    pub(crate) fn is_silent_for(&self, age: Duration) -> bool {
        matches!(*self.phase.lock().unwrap(), Phase::Fresh(since) if since.elapsed() >= age)
    }

    /// The next deadline and what its passing means. A busy connection has none unless a
    /// write is blocked: its body is timed by the handler, its work by the database's.
    pub(crate) fn deadline(&self, limits: &Limits) -> Option<(Instant, Closed)> {
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
    pub(crate) async fn watchdog(&self, limits: Limits) -> Closed {
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
pub(crate) struct BusyGuard(pub(crate) Arc<ConnectionClock>);

impl BusyGuard {
    pub(crate) fn new(clock: Arc<ConnectionClock>) -> Self {
        clock.request_started();
        BusyGuard(clock)
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.request_done();
    }
}
