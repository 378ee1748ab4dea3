//! A SeaweedFS cluster of separate processes, as on separate hosts: a master, volume
//! servers (data replicated on two of them), a filer and the S3 gateway. The `weed`
//! binary is `SAMEKEY_WEED` (`just registry::test` builds it once, cached by version:
//! crates/samekey-registry/scripts/seaweedfs.sh). Every process is killed when the
//! cluster is dropped.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

pub struct Cluster {
    weed: PathBuf,
    dir: tempfile::TempDir,
    master: Child,
    pub volumes: Vec<Option<Child>>,
    filer: Child,
    gateway: Option<Child>,
    pub master_port: u16,
    pub filer_port: u16,
    pub s3_port: u16,
}

/// A port p with p + 10000 free too: SeaweedFS serves gRPC there. Both below Linux's
/// ephemeral range (32768 and up), so that no port the kernel hands out meanwhile (a
/// client's, another test's server on port 0) takes one between this check and the bind.
fn port_pair() -> u16 {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let start = 10000 + (std::process::id() % 100) as u16 * 100;
    let _ = NEXT.compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst);
    loop {
        let p = NEXT.fetch_add(1, Ordering::SeqCst);
        assert!(p < 20000, "no free port pair below 20000");
        let free = |port: u16| TcpListener::bind(("127.0.0.1", port)).is_ok();
        if free(p) && free(p + 10000) {
            return p;
        }
    }
}

fn spawn(weed: &Path, dir: &Path, name: &str, args: &[String]) -> Child {
    let log = std::fs::File::create(dir.join(format!("{name}.log"))).unwrap();
    Command::new(weed)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", weed.display()))
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

impl Cluster {
    /// Starts the cluster with `volumes` volume servers and waits until the gateway takes
    /// writes (a bucket made and an object written).
    pub async fn start(volumes: usize) -> Cluster {
        let weed = PathBuf::from(std::env::var("SAMEKEY_WEED").expect(
            "SAMEKEY_WEED must name SeaweedFS's weed binary (just registry::test builds it: \
             crates/samekey-registry/scripts/seaweedfs.sh)",
        ));
        let dir = tempfile::tempdir().unwrap();
        let master_port = port_pair();
        let mdir = dir.path().join("master");
        std::fs::create_dir(&mdir).unwrap();
        let master = spawn(
            &weed,
            dir.path(),
            "master",
            &[
                "master".into(),
                "-ip=127.0.0.1".into(),
                "-ip.bind=127.0.0.1".into(),
                format!("-port={master_port}"),
                format!("-mdir={}", mdir.display()),
                "-peers=none".into(),
                // Every object on two volume servers of the same rack.
                "-defaultReplication=001".into(),
                "-volumeSizeLimitMB=128".into(),
            ],
        );
        let mut cluster = Cluster {
            weed,
            master,
            volumes: Vec::new(),
            filer: Command::new("true").spawn().unwrap(),
            gateway: None,
            master_port,
            filer_port: 0,
            s3_port: 0,
            dir,
        };
        for i in 0..volumes {
            let child = cluster.start_volume(i);
            cluster.volumes.push(Some(child));
        }
        cluster.filer_port = port_pair();
        let fdir = cluster.dir.path().join("filer");
        std::fs::create_dir(&fdir).unwrap();
        kill(&mut cluster.filer);
        cluster.filer = spawn(
            &cluster.weed,
            &fdir,
            "filer",
            &[
                "filer".into(),
                "-ip=127.0.0.1".into(),
                "-ip.bind=127.0.0.1".into(),
                format!("-port={}", cluster.filer_port),
                format!("-master=127.0.0.1:{master_port}"),
            ],
        );
        cluster.s3_port = port_pair();
        cluster.start_gateway();
        cluster.wait_writable().await;
        cluster
    }

    fn start_volume(&self, i: usize) -> Child {
        let vdir = self.dir.path().join(format!("volume{i}"));
        std::fs::create_dir_all(&vdir).unwrap();
        let port = port_pair();
        spawn(
            &self.weed,
            self.dir.path(),
            &format!("volume{i}"),
            &[
                "volume".into(),
                "-ip=127.0.0.1".into(),
                "-ip.bind=127.0.0.1".into(),
                format!("-port={port}"),
                format!("-dir={}", vdir.display()),
                "-max=100".into(),
                "-preStopSeconds=0".into(),
                format!("-mserver=127.0.0.1:{}", self.master_port),
            ],
        )
    }

    /// The S3 gateway (again, after [`Cluster::stop_gateway`]), on the same port.
    pub fn start_gateway(&mut self) {
        self.gateway = Some(spawn(
            &self.weed,
            self.dir.path(),
            "s3",
            &[
                "s3".into(),
                "-ip.bind=127.0.0.1".into(),
                format!("-port={}", self.s3_port),
                format!("-filer=127.0.0.1:{}", self.filer_port),
            ],
        ));
    }

    /// The gateway killed: the object store is unreachable.
    pub fn stop_gateway(&mut self) {
        if let Some(mut g) = self.gateway.take() {
            kill(&mut g);
        }
    }

    /// Volume server `i` killed (kill -9).
    pub fn kill_volume(&mut self, i: usize) {
        if let Some(mut v) = self.volumes[i].take() {
            kill(&mut v);
        }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.s3_port)
    }

    /// The variables a registry or gc needs to reach the gateway (it accepts any key pair
    /// when no identities are configured).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "samekey-test".into()),
            ("AWS_SECRET_ACCESS_KEY", "samekey-test".into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
    }

    /// Makes bucket `name` (path-style `PUT /name`).
    pub async fn bucket(&self, name: &str) {
        let url = format!("{}/{name}", self.endpoint());
        let r = reqwest::Client::new().put(&url).send().await.unwrap();
        assert!(r.status().is_success(), "PUT {url}: {}", r.status());
    }

    /// Each object under `bucket/prefix`: (key, bytes).
    pub async fn objects(&self, bucket: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
        let client = reqwest::Client::new();
        let list = client
            .get(format!(
                "{}/{bucket}?list-type=2&prefix={prefix}",
                self.endpoint()
            ))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let mut out = Vec::new();
        for part in list.split("<Key>").skip(1) {
            let key = part.split("</Key>").next().unwrap().to_string();
            let bytes = client
                .get(format!("{}/{bucket}/{key}", self.endpoint()))
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap();
            out.push((key, bytes.to_vec()));
        }
        assert!(
            !list.contains("<IsTruncated>true"),
            "more than one page of objects"
        );
        out
    }

    /// Writes `bytes` at `bucket/key` behind the registry's back.
    pub async fn put(&self, bucket: &str, key: &str, bytes: Vec<u8>) {
        let url = format!("{}/{bucket}/{key}", self.endpoint());
        let r = reqwest::Client::new()
            .put(&url)
            .body(bytes)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "PUT {url}: {}", r.status());
    }

    pub async fn delete(&self, bucket: &str, key: &str) {
        let url = format!("{}/{bucket}/{key}", self.endpoint());
        let r = reqwest::Client::new().delete(&url).send().await.unwrap();
        assert!(r.status().is_success(), "DELETE {url}: {}", r.status());
    }

    /// Until an object can be written (volumes registered, replicas placed).
    async fn wait_writable(&self) {
        let started = Instant::now();
        let client = reqwest::Client::new();
        let probe = format!("{}/samekey-probe", self.endpoint());
        loop {
            let bucket = client.put(&probe).send().await;
            if bucket.is_ok_and(|r| r.status().is_success()) {
                let put = client.put(format!("{probe}/probe")).body("ok").send().await;
                if put.is_ok_and(|r| r.status().is_success()) {
                    return;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(90),
                "the SeaweedFS cluster took no write within 90 s; logs in {}",
                self.dir.path().display()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_gateway();
        kill(&mut self.filer);
        for v in self.volumes.iter_mut().flatten() {
            kill(v);
        }
        kill(&mut self.master);
        if std::thread::panicking() {
            // Keep the logs of a failed test.
            let kept = self.dir.path().to_path_buf();
            eprintln!("SeaweedFS logs kept in {}", kept.display());
            std::mem::forget(std::mem::replace(
                &mut self.dir,
                tempfile::tempdir().unwrap(),
            ));
        }
    }
}
