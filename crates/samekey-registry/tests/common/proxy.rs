//! A TCP forwarder between a client and a server that a test can cut or point elsewhere.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};

/// Forwards 127.0.0.1:port to 127.0.0.1:target; `cut` closes every connection open now,
/// `retarget` sends the next connections to another port (a server restarted elsewhere).
pub struct Proxy {
    pub port: u16,
    target: Arc<AtomicU16>,
    open: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(target: u16) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let target = Arc::new(AtomicU16::new(target));
        let accept = {
            let (open, target) = (open.clone(), target.clone());
            tokio::spawn(async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    let to = target.load(Ordering::SeqCst);
                    let task = tokio::spawn(async move {
                        if let Ok(mut server) =
                            tokio::net::TcpStream::connect(("127.0.0.1", to)).await
                        {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                        }
                    });
                    open.lock().unwrap().push(task.abort_handle());
                }
            })
        };
        Proxy {
            port,
            target,
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
