//! TLS without a proxy (`--tls-cert`, `--tls-key`): PEM files read by rustls on ring (no
//! OpenSSL), TLS 1.2 and 1.3 only, reloaded on SIGHUP or when either file changes (checked
//! every second), so a renewed certificate needs no restart. A connection keeps the
//! certificate it was accepted with; a reload that fails keeps the one in use and says why.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use tokio_rustls::TlsAcceptor;

/// How often the files are looked at for a change.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// The certificate in use and where it came from.
pub struct Tls {
    cert: PathBuf,
    key: PathBuf,
    config: RwLock<Arc<ServerConfig>>,
    /// The files as they were when last loaded.
    loaded: Mutex<Option<Stamp>>,
}

impl Tls {
    /// Reads both files; every problem is an error naming the flag and the file.
    pub fn load(cert: &Path, key: &Path) -> Result<Arc<Tls>, String> {
        let stamp = stamp(cert, key);
        let config = server_config(cert, key)?;
        Ok(Arc::new(Tls {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            config: RwLock::new(Arc::new(config)),
            loaded: Mutex::new(stamp),
        }))
    }

    /// An acceptor with the certificate in use now.
    pub fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(self.config.read().unwrap().clone())
    }

    /// Reads the files again, as they were at `seen`; on success new connections get the
    /// new certificate.
    fn reload(&self, seen: Option<Stamp>) -> Result<(), String> {
        let config = server_config(&self.cert, &self.key)?;
        *self.config.write().unwrap() = Arc::new(config);
        *self.loaded.lock().unwrap() = seen;
        Ok(())
    }

    /// Reloads on SIGHUP and when the files change, for as long as the server runs.
    pub fn watch(self: Arc<Self>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut hangups = hangups();
            let mut tick = tokio::time::interval(WATCH_EVERY);
            // The files as they were when a reload of them failed: not tried again until
            // they change (a renewal half written is retried when it is finished).
            let mut failed = None;
            loop {
                let asked = tokio::select! {
                    _ = tick.tick() => false,
                    Some(()) = next_hangup(&mut hangups) => true,
                };
                let seen = stamp(&self.cert, &self.key);
                let unchanged = seen.is_none() || seen == *self.loaded.lock().unwrap();
                if !asked && (unchanged || seen == failed) {
                    continue;
                }
                match self.reload(seen) {
                    Ok(()) => {
                        failed = None;
                        tracing::info!(cert = %self.cert.display(), signal = asked, "TLS certificate reloaded");
                    }
                    Err(e) => {
                        failed = seen;
                        tracing::error!(error = %e, "TLS certificate not reloaded; the previous one stays in use");
                    }
                }
            }
        })
    }
}

/// The modified time and length of the certificate file and of the key file.
type Stamp = [(SystemTime, u64); 2];

fn stamp(cert: &Path, key: &Path) -> Option<Stamp> {
    let one = |p: &Path| {
        let m = std::fs::metadata(p).ok()?;
        Some((m.modified().ok()?, m.len()))
    };
    Some([one(cert)?, one(key)?])
}

/// TLS 1.2 and 1.3 with the certificate chain and key of these PEM files, HTTP/1.1 by ALPN.
fn server_config(cert: &Path, key: &Path) -> Result<ServerConfig, String> {
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| format!("--tls-cert {}: {}", cert.display(), pem_error(e)))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--tls-cert {}: {}", cert.display(), pem_error(e)))?;
    if chain.is_empty() {
        return Err(format!(
            "--tls-cert {} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
            cert.display()
        ));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        format!(
            "--tls-key {}: no PEM private key (PKCS#8, PKCS#1 or SEC1): {}",
            key.display(),
            pem_error(e)
        )
    })?;
    // ring: deprecated by rustls for lacking post-quantum key exchange; aws-lc-rs has it,
    // at the price of cmake and a C toolchain for every release target (Windows, macOS).
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            format!(
                "--tls-key {} does not go with --tls-cert {}: {e}",
                key.display(),
                cert.display()
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// A PEM error in words (the library's own names its markers as byte lists).
fn pem_error(e: rustls::pki_types::pem::Error) -> String {
    use rustls::pki_types::pem::Error;
    match e {
        Error::MissingSectionEnd { end_marker } => format!(
            "a PEM block has no end line (-----END {}-----)",
            String::from_utf8_lossy(&end_marker)
        ),
        Error::IllegalSectionStart { line } => format!(
            "a malformed PEM begin line: {}",
            String::from_utf8_lossy(&line)
        ),
        Error::NoItemsFound => "it holds no PEM block of that kind".into(),
        other => other.to_string(),
    }
}

#[cfg(unix)]
type Hangups = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
type Hangups = ();

#[cfg(unix)]
fn hangups() -> Hangups {
    use tokio::signal::unix::{signal, SignalKind};
    signal(SignalKind::hangup())
        .map_err(|e| tracing::warn!(error = %e, "no SIGHUP handler; TLS files are still watched"))
        .ok()
}

#[cfg(not(unix))]
fn hangups() -> Hangups {}

#[cfg(unix)]
async fn next_hangup(h: &mut Hangups) -> Option<()> {
    match h {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

#[cfg(not(unix))]
async fn next_hangup(_: &mut Hangups) -> Option<()> {
    std::future::pending().await
}
