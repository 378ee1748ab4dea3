//! A TCP forwarder between a client and a server that a test can cut, slow down or point
//! elsewhere.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Forwards 127.0.0.1:port to 127.0.0.1:target; `cut` closes every connection open now,
/// `retarget` sends the next connections to another port (a server restarted elsewhere),
/// `throttle` caps each direction of each connection at so many bytes a second.
pub struct Proxy {
    pub port: u16,
    target: Arc<AtomicU16>,
    /// Bytes per second each way; 0 is no cap.
    rate: Arc<AtomicU64>,
    open: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

/// Copies `from` to `to`, at most `rate` bytes a second when it is not 0, until either ends.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    rate: Arc<AtomicU64>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let cap = rate.load(Ordering::Relaxed);
        let want = if cap == 0 {
            buf.len()
        } else {
            buf.len().min((cap / 10).max(1) as usize)
        };
        match from.read(&mut buf[..want]).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).await.is_err() {
                    break;
                }
                if cap > 0 {
                    tokio::time::sleep(Duration::from_secs_f64(n as f64 / cap as f64)).await;
                }
            }
        }
    }
    let _ = to.shutdown().await;
}

impl Proxy {
    pub async fn start(target: u16) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let target = Arc::new(AtomicU16::new(target));
        let rate = Arc::new(AtomicU64::new(0));
        let accept = {
            let (open, target, rate) = (open.clone(), target.clone(), rate.clone());
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    let to = target.load(Ordering::SeqCst);
                    let rate = rate.clone();
                    let task = tokio::spawn(async move {
                        if let Ok(server) = tokio::net::TcpStream::connect(("127.0.0.1", to)).await
                        {
                            let (cr, cw) = client.into_split();
                            let (sr, sw) = server.into_split();
                            tokio::join!(pipe(cr, sw, rate.clone()), pipe(sr, cw, rate));
                        }
                    });
                    open.lock().unwrap().push(task.abort_handle());
                }
            })
        };
        Proxy {
            port,
            target,
            rate,
            open,
            accept,
        }
    }

    /// Closes every connection through the proxy; how many were open.
    pub fn cut(&self) -> usize {
        let open = std::mem::take(&mut *self.open.lock().unwrap());
        let n = open.iter().filter(|t| !t.is_finished()).count();
        for t in open {
            t.abort();
        }
        n
    }

    /// Each direction of every connection, open or new, at most `bytes_per_second` from
    /// now on (0: as fast as it goes).
    pub fn throttle(&self, bytes_per_second: u64) {
        self.rate.store(bytes_per_second, Ordering::Relaxed);
    }

    /// New connections go to `target` from now on.
    pub fn retarget(&self, target: u16) {
        self.target.store(target, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}
