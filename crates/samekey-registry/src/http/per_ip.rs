//! Open connections per client address (`--max-connections-per-ip`).

use std::sync::{Arc, Mutex};

/// Open connections per client address, when `--max-connections-per-ip` is set.
pub(crate) struct PerIp {
    limit: Option<usize>,
    open: Arc<Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

/// One connection's place in its address's count, given back when dropped.
pub(crate) struct PerIpHeld {
    ip: std::net::IpAddr,
    open: Arc<Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

impl PerIp {
    pub(crate) fn new(limit: Option<usize>) -> Self {
        PerIp {
            limit,
            open: Arc::default(),
        }
    }

    /// A place for a connection from `ip`, or `None` if it holds its limit already.
    pub(crate) fn admit(&self, ip: std::net::IpAddr) -> Option<Option<PerIpHeld>> {
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
