//! `/metrics` in the Prometheus text format (version 0.0.4): registrations created vs found,
//! errors by code, request latency by route, requests in flight, connections, and the
//! database pools.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::store::PoolState;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

#[derive(Default)]
struct Histogram {
    /// Observations at or below each bucket's bound (not cumulative; summed when written).
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// Why the server closed a connection itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Closed {
    HeaderTimeout,
    IdleTimeout,
    /// Idle, closed to make room for a new connection at the cap.
    MadeRoom,
    /// The client did not read its answer.
    SendTimeout,
    /// The client read its answer slower than `--min-send-rate`.
    SlowReader,
    /// Its address held `--max-connections-per-ip` connections already.
    PerIpLimit,
    ShutdownDeadline,
}

impl Closed {
    fn label(self) -> &'static str {
        match self {
            Closed::HeaderTimeout => "header_timeout",
            Closed::IdleTimeout => "idle_timeout",
            Closed::MadeRoom => "made_room",
            Closed::SendTimeout => "send_timeout",
            Closed::SlowReader => "slow_reader",
            Closed::PerIpLimit => "per_ip_limit",
            Closed::ShutdownDeadline => "shutdown_deadline",
        }
    }
}

#[derive(Default)]
pub struct Metrics {
    created: AtomicU64,
    found: AtomicU64,
    in_flight: AtomicI64,
    connections_open: AtomicI64,
    connections_accepted: AtomicU64,
    connections_max: AtomicU64,
    errors: Mutex<BTreeMap<&'static str, u64>>,
    closed: Mutex<BTreeMap<Closed, u64>>,
    latency: Mutex<BTreeMap<String, Histogram>>,
}

impl Metrics {
    pub fn registered(&self, created: bool) {
        if created { &self.created } else { &self.found }.fetch_add(1, Relaxed);
    }

    /// A request begins; it counts as in flight until the guard is dropped (also when
    /// the client leaves and its handler is cancelled).
    pub fn request_started(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Relaxed);
        InFlight(self.clone())
    }

    /// A request answered: its route (the matched pattern, never the raw path, so the
    /// number of series stays bounded), how long it took, and its error code if any.
    pub fn request_finished(&self, route: &str, took: Duration, error: Option<&'static str>) {
        if let Some(code) = error {
            *self.errors.lock().unwrap().entry(code).or_default() += 1;
        }
        let secs = took.as_secs_f64();
        let mut latency = self.latency.lock().unwrap();
        // The route's text is copied once, when the route is first seen.
        if !latency.contains_key(route) {
            latency.insert(route.to_string(), Histogram::default());
        }
        let h = latency.get_mut(route).expect("inserted above");
        if let Some(i) = BUCKETS.iter().position(|&b| secs <= b) {
            h.counts[i] += 1;
        }
        h.count += 1;
        h.sum += secs;
    }

    pub fn set_connection_limit(&self, max: usize) {
        self.connections_max.store(max as u64, Relaxed);
    }

    pub fn connection_opened(&self) {
        self.connections_accepted.fetch_add(1, Relaxed);
        self.connections_open.fetch_add(1, Relaxed);
    }

    pub fn connection_closed(&self, by_server: Option<Closed>) {
        self.connections_open.fetch_sub(1, Relaxed);
        if let Some(reason) = by_server {
            *self.closed.lock().unwrap().entry(reason).or_default() += 1;
        }
    }

    /// The exposition text.
    /// The exposition; `ring` is this process's key ring, `schemes` each scheme's state in
    /// the database (left out when the database did not answer).
    pub fn render(
        &self,
        pools: &[PoolState],
        ring: &samekey::KeyRing,
        schemes: Option<&[(samekey::Scheme, crate::store::schemes::State)]>,
    ) -> String {
        let mut out = Exposition::default();
        out.family(
            "samekey_registry_ring",
            "gauge",
            "This process's key ring: 1 for each scheme, by role (primary or accepted).",
        );
        for s in ring.accepted() {
            let role = if *s == ring.primary() {
                "primary"
            } else {
                "accepted"
            };
            out.sample(&format!("{{scheme=\"{s}\",role=\"{role}\"}}"), 1);
        }
        if let Some(schemes) = schemes {
            out.family(
                "samekey_registry_scheme_state",
                "gauge",
                "1 for each scheme's state in the database: required, retired or optional.",
            );
            for (s, state) in schemes {
                out.sample(
                    &format!("{{scheme=\"{s}\",state=\"{}\"}}", state.as_str()),
                    1,
                );
            }
        }
        out.family(
            "samekey_registry_registrations_total",
            "counter",
            "Registrations answered, by outcome: created (201) or found (200).",
        );
        out.sample("{outcome=\"created\"}", self.created.load(Relaxed));
        out.sample("{outcome=\"found\"}", self.found.load(Relaxed));
        out.family(
            "samekey_registry_errors_total",
            "counter",
            "Error responses, by samekey error code.",
        );
        for (code, n) in self.errors.lock().unwrap().iter() {
            out.sample(&format!("{{code=\"{code}\"}}"), n);
        }
        out.family(
            "samekey_registry_requests_in_flight",
            "gauge",
            "Requests being handled now.",
        );
        out.sample("", self.in_flight.load(Relaxed));
        out.family(
            "samekey_registry_connections_open",
            "gauge",
            "Client connections open now.",
        );
        out.sample("", self.connections_open.load(Relaxed));
        out.family(
            "samekey_registry_connections_max",
            "gauge",
            "Client connections allowed at once (--max-connections, within the open-files limit).",
        );
        out.sample("", self.connections_max.load(Relaxed));
        out.family(
            "samekey_registry_connections_accepted_total",
            "counter",
            "Client connections accepted.",
        );
        out.sample("", self.connections_accepted.load(Relaxed));
        out.family(
            "samekey_registry_connections_closed_total",
            "counter",
            "Connections the server closed itself, by reason.",
        );
        for (reason, n) in self.closed.lock().unwrap().iter() {
            out.sample(&format!("{{reason=\"{}\"}}", reason.label()), n);
        }
        out.family(
            "samekey_registry_db_connections",
            "gauge",
            "Database connections by pool and state.",
        );
        for p in pools {
            let idle = p.idle as u32;
            let busy = p.open.saturating_sub(idle);
            out.sample(&format!("{{pool=\"{}\",state=\"idle\"}}", p.name), idle);
            out.sample(&format!("{{pool=\"{}\",state=\"busy\"}}", p.name), busy);
        }
        out.family(
            "samekey_registry_db_connections_max",
            "gauge",
            "Largest size of each database pool.",
        );
        for p in pools {
            out.sample(&format!("{{pool=\"{}\"}}", p.name), p.max);
        }
        out.family(
            "samekey_registry_request_duration_seconds",
            "histogram",
            "Time from the request head to the response head, by route.",
        );
        for (route, h) in self.latency.lock().unwrap().iter() {
            let mut cumulative = 0;
            for (bound, n) in BUCKETS.iter().zip(h.counts) {
                cumulative += n;
                out.suffixed(
                    "_bucket",
                    &format!("{{route=\"{route}\",le=\"{bound}\"}}"),
                    cumulative,
                );
            }
            out.suffixed(
                "_bucket",
                &format!("{{route=\"{route}\",le=\"+Inf\"}}"),
                h.count,
            );
            out.suffixed("_sum", &format!("{{route=\"{route}\"}}"), h.sum);
            out.suffixed("_count", &format!("{{route=\"{route}\"}}"), h.count);
        }
        out.text
    }
}

pub struct InFlight(Arc<Metrics>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Relaxed);
    }
}

/// Writes families one after the other: HELP and TYPE, then that family's samples.
#[derive(Default)]
struct Exposition {
    text: String,
    name: &'static str,
}

impl Exposition {
    fn family(&mut self, name: &'static str, kind: &str, help: &str) {
        self.name = name;
        let _ = writeln!(self.text, "# HELP {name} {help}\n# TYPE {name} {kind}");
    }

    fn sample(&mut self, labels: &str, value: impl std::fmt::Display) {
        self.suffixed("", labels, value);
    }

    fn suffixed(&mut self, suffix: &str, labels: &str, value: impl std::fmt::Display) {
        let _ = writeln!(self.text, "{}{suffix}{labels} {value}", self.name);
    }
}
