//! What one server allows a connection: its time limits, its rate floor, its caps. The
//! connection clock and I/O below the server loop read them.

use std::time::Duration;

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

/// The span over which `min_send_rate` is measured: a reader slower than it on average
/// over this long, while the server has bytes waiting for it, is cut.
pub const RATE_WINDOW: Duration = Duration::from_secs(10);

/// Bytes of an answer's body that may wait in the connection's buffers beyond what the
/// socket has taken: the body is asked for more only below it, so a reader that does not
/// keep up holds this much (and the chunk being read), not the answer.
pub const MAX_UNSENT: u64 = 128 * 1024;
