//! Hostile and careless clients against a real server process over raw sockets on
//! 127.0.0.1: uploads without a token, slowloris, slow bodies, idle connections, the
//! connection cap, `Expect: 100-continue`, huge declared lengths, SIGTERM with a
//! half-sent request, large JSON next to health checks, and clients that leave.
//! Every load is bounded in count and time and stops by itself. The tests of this file
//! run one at a time, so that their timings and memory readings are their own.

mod common;

use std::time::{Duration, Instant};

use common::{client, fresh_db, get_text, memory, post, problem, token_file, Backend, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Held for a whole test (an async lock: each test has a runtime of its own).
async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

async fn connect(server: &Server) -> TcpStream {
    TcpStream::connect(server.addr()).await.unwrap()
}

/// One response read from a raw socket: status, head, body (`None` if the server closed
/// the connection first). A `100 Continue` is returned as status 100.
async fn response<R: AsyncReadExt + Unpin>(s: &mut R) -> Option<(u16, String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let status = head.get(9..12)?.parse().ok()?;
            let length = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            while buf.len() < end + 4 + length {
                let n = s.read(&mut chunk).await.ok()?;
                if n == 0 {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Some((status, head, buf[end + 4..end + 4 + length].to_vec()));
        }
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

async fn response_within<R: AsyncReadExt + Unpin>(
    s: &mut R,
    limit: Duration,
) -> Option<(u16, String, Vec<u8>)> {
    tokio::time::timeout(limit, response(s))
        .await
        .unwrap_or_else(|_| panic!("no answer within {limit:?}"))
}

/// The problem code of a raw response.
fn code_of(head: &str, body: &[u8]) -> String {
    let mut headers = axum::http::HeaderMap::new();
    for line in head.lines().skip(1) {
        let (name, value) = line.split_once(':').unwrap();
        headers.insert(
            name.trim().parse::<axum::http::HeaderName>().unwrap(),
            value.trim().parse().unwrap(),
        );
    }
    let status = head[9..12].parse().unwrap();
    problem(status, &headers, body).1
}

/// How long the server takes to close `s`; fails if it does not within `limit`.
async fn time_until_closed(s: &mut TcpStream, limit: Duration) -> Duration {
    let t = Instant::now();
    assert!(closed_within(s, limit).await, "not closed within {limit:?}");
    t.elapsed()
}

/// A connection that has had one `/healthz` answered and is kept alive.
async fn kept_alive(server: &Server) -> TcpStream {
    let mut s = connect(server).await;
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (status, ..) = response_within(&mut s, Duration::from_secs(2))
        .await
        .unwrap();
    assert_eq!(status, 200);
    s
}

/// `samekey_registry_connections_closed_total{reason}` as the server reports it now.
async fn closed_by_server(client: &reqwest::Client, server: &Server, reason: &str) -> u64 {
    let metrics = get_text(client, server, "/metrics").await;
    let series = format!("samekey_registry_connections_closed_total{{reason=\"{reason}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&series))
        .map_or(0, |n| n.parse().unwrap())
}

/// Whether the server closed the connection (EOF or reset) within `limit`.
async fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    let mut byte = [0u8; 1];
    matches!(
        tokio::time::timeout(limit, s.read(&mut byte)).await,
        Ok(Ok(0)) | Ok(Err(_))
    )
}

/// 64 clients without a token each start a 16 MiB upload: each gets 401 without the
/// server reading the body, and the server's memory does not grow with the uploads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokenless_uploads_are_refused_before_their_body() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "t", "s3cret\n");
    let server = Server::start(&db, &["--token-file", &tokens]);
    let (_, peak_before) = memory(server.pid());
    let mut clients = Vec::new();
    for _ in 0..64 {
        let s = connect(&server).await;
        clients.push(tokio::spawn(async move {
            let (mut r, mut w) = s.into_split();
            let head = "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16777216\r\n\r\n";
            w.write_all(head.as_bytes()).await.unwrap();
            let writer = tokio::spawn(async move {
                // The upload goes on until the server closes the connection.
                let chunk = vec![b' '; 64 * 1024];
                for _ in 0..16 {
                    if w.write_all(&chunk).await.is_err() {
                        break;
                    }
                }
                w
            });
            let answer = response_within(&mut r, Duration::from_secs(5)).await;
            writer.abort();
            answer
        }));
    }
    for c in clients {
        let (status, head, body) = c
            .await
            .unwrap()
            .expect("an answer before the connection closed");
        assert_eq!(status, 401, "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("www-authenticate: bearer"),
            "{head}"
        );
        assert_eq!(code_of(&head, &body), "unauthorized");
    }
    let (_, peak_after) = memory(server.pid());
    let grown = peak_after.saturating_sub(peak_before);
    assert!(
        grown < 32 << 20,
        "64 uploads of 1 MiB each raised the peak RSS by {} MiB",
        grown >> 20
    );
    assert_eq!(db.counts().await, (0, 0));
}

/// `Expect: 100-continue` gets the refusal instead of `100 Continue`, a declared length
/// over the limit is refused at once, and a good request still gets its 100.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_come_before_100_continue_and_before_the_body() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "t", "s3cret\n");
    let server = Server::start(&db, &["--token-file", &tokens, "--body-limit", "1024"]);
    let head = |auth: bool, expect: bool, length: u64| {
        format!(
            "POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n{}{}\r\n",
            if auth { "Authorization: Bearer s3cret\r\n" } else { "" },
            if expect { "Expect: 100-continue\r\n" } else { "" },
        )
    };
    for (auth, expect, length, status, code) in [
        (false, true, 2, 401, "unauthorized"),
        (true, true, 1 << 30, 413, "payload_too_large"),
        (true, false, 1 << 30, 413, "payload_too_large"),
    ] {
        let mut s = connect(&server).await;
        s.write_all(head(auth, expect, length).as_bytes())
            .await
            .unwrap();
        if !expect {
            s.write_all(b"{}").await.unwrap();
        }
        let (got, h, body) = response_within(&mut s, Duration::from_secs(2))
            .await
            .unwrap();
        assert_eq!((got, code_of(&h, &body).as_str()), (status, code), "{h}");
    }
    let mut s = connect(&server).await;
    s.write_all(head(true, true, 2).as_bytes()).await.unwrap();
    let (status, ..) = response_within(&mut s, Duration::from_secs(2))
        .await
        .unwrap();
    assert_eq!(status, 100);
    s.write_all(b"{}").await.unwrap();
    let (status, ..) = response_within(&mut s, Duration::from_secs(2))
        .await
        .unwrap();
    assert_eq!(status, 201);
}

/// 1,000 connections send their heads a byte at a time: an honest client still
/// registers within a second each time, and the server closes every slow connection
/// when its head time runs out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_is_cut_off_and_honest_clients_still_register() {
    let _serial = serial().await;
    const SLOW: usize = 1000;
    assert!(common::raise_open_files() > 2 * SLOW + 100);
    let db = fresh_db(Backend::Sqlite).await;
    let header_timeout = Duration::from_secs(2);
    let server = Server::start(&db, &["--header-timeout", "2s"]);
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..SLOW {
        let mut s = connect(&server).await;
        slow.push(tokio::spawn(async move {
            let opened = Instant::now();
            if s.write_all(b"POST /v1/revisions HTTP/1.1\r\nX-Slow: ")
                .await
                .is_err()
            {
                return Some(opened.elapsed());
            }
            // A byte every 100 ms, for at most 8 s.
            for _ in 0..80 {
                if closed_within(&mut s, Duration::from_millis(100)).await
                    || s.write_all(b"a").await.is_err()
                {
                    return Some(opened.elapsed());
                }
            }
            None
        }));
    }
    let honest = client();
    for i in 0..5 {
        let t = Instant::now();
        let url = server.url("/v1/revisions");
        let r = post(
            &honest,
            &url,
            "application/json",
            format!(r#"{{"honest":{i}}}"#),
        )
        .await;
        assert_eq!(r.status(), 201);
        let took = t.elapsed();
        assert!(
            took < Duration::from_secs(1),
            "registration {i} took {took:?} under slowloris"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut closed = 0;
    for task in slow {
        if let Some(after) = task.await.unwrap() {
            assert!(
                after < header_timeout + Duration::from_millis(1500),
                "closed after {after:?}"
            );
            closed += 1;
        }
    }
    assert_eq!(
        closed, SLOW,
        "every slow connection was closed by the server"
    );
    assert!(started.elapsed() < Duration::from_secs(12));
    let n = closed_by_server(&honest, &server, "header_timeout").await;
    assert!(n >= SLOW as u64, "{n} closed at the head timeout");
}

/// A body that does not arrive within --body-timeout gets 408.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_gets_408() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--body-timeout", "1s"]);
    let mut s = connect(&server).await;
    s.write_all(b"POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":").await.unwrap();
    let t = Instant::now();
    let (status, head, body) = response_within(&mut s, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(
        (status, code_of(&head, &body).as_str()),
        (408, "request_timeout")
    );
    assert!(
        t.elapsed() >= Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(db.counts().await, (0, 0));
}

/// A kept-alive connection is closed after --idle-timeout without a request, and a
/// connection that never sends a byte after --header-timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_silent_connections_are_closed() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--idle-timeout", "1s", "--header-timeout", "2s"]);
    let mut kept = kept_alive(&server).await;
    let idle = time_until_closed(&mut kept, Duration::from_secs(4)).await;
    assert!(
        (Duration::from_millis(900)..Duration::from_millis(2500)).contains(&idle),
        "{idle:?}"
    );
    let mut silent = connect(&server).await;
    let silent_for = time_until_closed(&mut silent, Duration::from_secs(5)).await;
    assert!(
        (Duration::from_millis(1900)..Duration::from_millis(3500)).contains(&silent_for),
        "{silent_for:?}"
    );
}

/// A client that asks for 8 MiB and never reads them is closed after --send-timeout
/// instead of holding its connection and the answer's memory for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_its_answer_is_closed() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--send-timeout", "1s", "--body-limit", "20000000"]);
    let client = client();
    let url = server.url("/v1/revisions");
    let r = post(
        &client,
        &url,
        "application/octet-stream",
        vec![7u8; 8 << 20],
    )
    .await;
    let key = r.json::<serde_json::Value>().await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    // A fixed small receive buffer: autotuning could otherwise take the whole answer in.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(16 * 1024).unwrap();
    let mut s = socket
        .connect(server.addr().parse().unwrap())
        .await
        .unwrap();
    s.write_all(format!("GET /v1/revisions/{key}/data HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    while closed_by_server(&client, &server, "send_timeout").await != 1 {
        assert!(Instant::now() < until, "not closed for its unread answer");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // What was buffered before the close can still be read; then the stream ends early.
    let mut got = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut got)).await;
    assert!(
        got.len() < 8 << 20,
        "the answer was cut short ({} bytes)",
        got.len()
    );
}

/// 64 clients read a 16 MiB revision at 2 KiB/s through 4 KiB receive buffers while an
/// honest client reads it whole: the server holds about a chunk per slow reader, not the
/// revision (its memory grew by 1.2 GB before chunked reads), the honest client gets
/// every byte, and each slow reader is cut once it has read slower than
/// --min-send-rate over the rate window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_readers_cost_a_chunk_each_and_are_cut() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--body-limit", "20000000"]);
    let client = client();
    let (key, data) = large_revision(&client, &server, 16 << 20).await;
    let (before, _) = memory(server.pid());
    let started = Instant::now();
    let readers: Vec<_> = (0..64)
        .map(|_| {
            let (addr, key) = (server.addr(), key.clone());
            tokio::spawn(async move {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.set_recv_buffer_size(4096).unwrap();
                let mut s = socket.connect(addr.parse().unwrap()).await.unwrap();
                s.write_all(
                    format!("GET /v1/revisions/{key}/data HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
                )
                .await
                .unwrap();
                let mut got = 0usize;
                let mut buf = [0u8; 2048];
                while started.elapsed() < Duration::from_secs(25) {
                    match s.read(&mut buf).await {
                        Ok(0) | Err(_) => return (got, started.elapsed()),
                        Ok(n) => got += n,
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                (got, started.elapsed())
            })
        })
        .collect();
    let honest = client
        .get(server.url(&format!("/v1/revisions/{key}/data")))
        .send()
        .await
        .unwrap();
    assert_eq!(honest.status(), 200);
    assert!(
        honest.bytes().await.unwrap() == data,
        "the honest reader got other bytes"
    );
    let mut peak = 0;
    while !readers.iter().all(|r| r.is_finished()) {
        peak = peak.max(memory(server.pid()).0);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut cut_after = Duration::ZERO;
    for r in readers {
        let (got, at) = r.await.unwrap();
        assert!(got < 1 << 20, "a slow reader read {got} bytes");
        cut_after = cut_after.max(at);
    }
    let grown = peak.saturating_sub(before) as f64 / 1048576.0;
    eprintln!(
        "64 slow readers of 16 MiB: RSS {:.1} MiB before, peak {:.1} MiB (+{grown:.1}), all cut within {cut_after:?}",
        before as f64 / 1048576.0,
        peak as f64 / 1048576.0
    );
    assert!(grown < 64.0, "the server's memory grew by {grown:.1} MiB");
    assert!(peak < 100 << 20, "the server's RSS reached {peak} bytes");
    assert!(
        cut_after < Duration::from_secs(20),
        "the last slow reader was cut after {cut_after:?}"
    );
    assert_eq!(closed_by_server(&client, &server, "slow_reader").await, 64);
}

fn says_close(head: &str) -> bool {
    head.lines().any(|l| {
        l.split_once(':').is_some_and(|(name, value)| {
            name.eq_ignore_ascii_case("connection") && value.trim().eq_ignore_ascii_case("close")
        })
    })
}

/// An answer given before the request's body was read (401, 415, 413 and invalid_query,
/// each to a POST whose 7-byte body follows its head 20 ms later) says `Connection: close`
/// and the connection closes; an answer after the whole body keeps it open and says
/// nothing of the kind. (Before, such answers closed without saying so, and a pooling
/// client's next request on the connection failed.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn early_answers_say_connection_close() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", "secret\n");
    let server = Server::start(&db, &["--token-file", &tokens, "--body-limit", "4"]);
    let auth = "Authorization: Bearer secret\r\n";
    for (path, extra, status) in [
        (
            "/v1/revisions",
            "Content-Type: application/octet-stream\r\n",
            401,
        ),
        (
            "/v1/revisions",
            "Content-Type: text/plain\r\nAuthorization: Bearer secret\r\n",
            415,
        ),
        (
            "/v1/revisions",
            "Content-Type: application/octet-stream\r\nAuthorization: Bearer secret\r\n",
            413,
        ),
        (
            "/v1/revisions?parnet=x",
            "Content-Type: application/octet-stream\r\nAuthorization: Bearer secret\r\n",
            400,
        ),
    ] {
        let mut s = connect(&server).await;
        s.write_all(
            format!("POST {path} HTTP/1.1\r\nHost: x\r\n{extra}Content-Length: 7\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let _ = s.write_all(b"abcdefg").await;
        let (got, head, _) = response_within(&mut s, Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(got, status, "{path} {extra:?}: {head}");
        assert!(
            says_close(&head),
            "{status} without Connection: close: {head}"
        );
        assert!(
            closed_within(&mut s, Duration::from_secs(2)).await,
            "{status}: the connection stayed open"
        );
    }
    let mut s = connect(&server).await;
    s.write_all(
        format!(
            "POST /v1/revisions HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/octet-stream\r\nContent-Length: 3\r\n\r\nabc"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let (got, head, _) = response_within(&mut s, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(got, 201, "{head}");
    assert!(
        !says_close(&head),
        "a complete request was answered with close: {head}"
    );
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (got, _, _) = response_within(&mut s, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(
        got, 200,
        "the kept-alive connection serves the next request"
    );
}

/// 4,500 clients that connect, send nothing and reconnect as soon as they are closed
/// keep the server at its connection cap (4,096): an honest client on a new connection
/// still registers, five times, in a median under 1 s and each under 3 s (starved, it
/// took 7-8.5 s), because connections that have not sent a byte are the first closed
/// at the cap. Bounded: the flood stops itself after 20 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_silent_flood_does_not_starve_honest_clients() {
    let _serial = serial().await;
    const FLOOD: usize = 4500;
    assert!(common::raise_open_files() > 2 * FLOOD + 200);
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &[]);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let until = Instant::now() + Duration::from_secs(20);
    let addr = server.addr();
    let flood: Vec<_> = (0..FLOOD)
        .map(|_| {
            let (stop, addr) = (stop.clone(), addr.clone());
            tokio::spawn(async move {
                let mut connections = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && Instant::now() < until {
                    let Ok(Ok(mut s)) =
                        tokio::time::timeout(Duration::from_secs(1), TcpStream::connect(&addr))
                            .await
                    else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    connections += 1;
                    // Silent until the server closes it, then again.
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) && Instant::now() < until
                    {
                        if closed_within(&mut s, Duration::from_millis(200)).await {
                            break;
                        }
                    }
                }
                connections
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    // The honest client runs on its own thread and runtime, as a real one would: on the
    // test's runtime, the 4,500 flooders' tasks delayed its request past the server's
    // 100 ms silence limit, four times in a row on a loaded machine (the test starving
    // its own client, not the server starving it).
    let url = server.url("/v1/revisions");
    let honest_run = move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mut took = Vec::new();
            for i in 0..5 {
                let honest = reqwest::Client::builder()
                    .pool_max_idle_per_host(0)
                    .build()
                    .unwrap();
                let t = Instant::now();
                // A connection the server closes before its first byte arrived (at the cap, the
                // silent ones go first, and a new connection is silent until its request is read)
                // is an error the client retries, as registrations are meant to be retried: the
                // same body is the same revision. What is bounded is the time to an answer (3 s,
                // below), not the tries.
                let register = async {
                    let mut errors = Vec::new();
                    loop {
                        let sent = honest
                            .post(url.as_str())
                            .header("content-type", "application/json")
                            .body(format!(r#"{{"honest":{i}}}"#))
                            .send()
                            .await;
                        match sent {
                            Ok(answer) => break (answer, errors),
                            Err(e) if t.elapsed() < Duration::from_secs(3) => {
                                errors.push(e.to_string())
                            }
                            Err(e) => panic!("registration {i} failed for 3 s: {errors:?}, {e}"),
                        }
                    }
                };
                let (answer, errors) = tokio::time::timeout(Duration::from_secs(15), register)
                    .await
                    .expect("no answer within 15 s");
                took.push(t.elapsed());
                if !errors.is_empty() {
                    eprintln!(
                        "registration {i} retried {} times, first after {:?}",
                        errors.len(),
                        errors[0]
                    );
                }
                assert_eq!(answer.status(), 201);
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            took
        })
    };
    let took = tokio::task::spawn_blocking(honest_run)
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut connections = 0;
    for f in flood {
        connections += f.await.unwrap();
    }
    eprintln!(
        "honest registrations during a silent flood ({connections} flood connections): {took:?}"
    );
    assert!(
        connections as usize >= FLOOD,
        "the flood made {connections} connections"
    );
    // Starved, an honest client waited 7-8.5 s (before connections silent at the cap were
    // closed first); served fairly, 5-290 ms. On 2 cores that also run the 4,500 flooders,
    // one of five has taken 1.3 s (a CI run): the median must stay under 1 s, and none
    // may come near starvation.
    let mut sorted = took.clone();
    sorted.sort();
    assert!(
        sorted[took.len() / 2] < Duration::from_secs(1),
        "the median registration took {:?} during the flood: {took:?}",
        sorted[took.len() / 2]
    );
    for (i, t) in took.iter().enumerate() {
        assert!(
            *t < Duration::from_secs(3),
            "registration {i} took {t:?} during the flood: {took:?}"
        );
    }
}

/// With --max-connections-per-ip 3, a fourth connection from the same address is closed
/// as soon as it is accepted; once one of the three closes, a new one is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_capped_when_asked() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--max-connections-per-ip", "3"]);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(kept_alive(&server).await);
    }
    let mut fourth = connect(&server).await;
    assert!(
        closed_within(&mut fourth, Duration::from_secs(2)).await,
        "a fourth connection was kept"
    );
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = kept_alive(&server).await;
    again
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (status, _, body) = response_within(&mut again, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(status, 200);
    let metrics = String::from_utf8(body).unwrap();
    assert!(
        metrics.contains("samekey_registry_connections_closed_total{reason=\"per_ip_limit\"} 1"),
        "{metrics}"
    );
}

/// At --max-connections, a new connection waits until one closes; idle kept-alive
/// connections close to make room instead of making it wait for their timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_cap_holds_and_idle_connections_make_room() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--max-connections", "4", "--header-timeout", "30s"]);
    let mut busy = Vec::new();
    for _ in 0..4 {
        let mut s = connect(&server).await;
        s.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
        busy.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut fifth = connect(&server).await;
    fifth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let waited = tokio::time::timeout(Duration::from_millis(700), response(&mut fifth)).await;
    assert!(
        waited.is_err(),
        "the fifth connection is not served while four heads are pending"
    );
    drop(busy.pop());
    assert_eq!(
        response_within(&mut fifth, Duration::from_secs(2))
            .await
            .unwrap()
            .0,
        200
    );
    drop(busy);
    drop(fifth);
    tokio::time::sleep(Duration::from_millis(200)).await;

    let mut idle = Vec::new();
    for _ in 0..4 {
        let s = kept_alive(&server).await;
        idle.push(s);
    }
    let t = Instant::now();
    let r = client().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "served after {:?}",
        t.elapsed()
    );
    let mut made_room = 0;
    for mut s in idle {
        made_room += usize::from(closed_within(&mut s, Duration::from_millis(500)).await);
    }
    assert!(made_room >= 1, "an idle connection was closed to make room");
}

/// SIGTERM while a client holds a half-sent request: the server exits 0 once
/// --shutdown-timeout has passed, not whenever the client pleases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_with_a_half_sent_request_exits_by_the_deadline() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let mut server = Server::start(&db, &["--shutdown-timeout", "1s"]);
    let mut s = connect(&server).await;
    s.write_all(b"POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"half\":").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    server.sigterm();
    let status = server
        .wait_for(Duration::from_secs(5))
        .expect("the server exits");
    assert!(status.success(), "{status:?}");
    let took = t.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert!(closed_within(&mut s, Duration::from_secs(1)).await);
}

/// `count` objects of about 60 bytes: JSON of `count * 60` bytes that takes real work to
/// canonicalize (its keys are out of order).
fn large_json(tag: usize, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 100);
    s.push('[');
    let mut i = 0;
    while s.len() < bytes {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"tag":{tag},"name":"item-{i}","id":{i},"score":1.50,"ok":true}}"#
        ));
        i += 1;
    }
    s.push(']');
    s
}

/// Four 16 MiB JSON bodies hashed at once: /healthz keeps answering within 50 ms (p99).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_stays_fast_while_large_json_is_hashed() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--body-limit", "20000000"]);
    let bodies: Vec<String> = (0..4).map(|t| large_json(t, 16 << 20)).collect();
    let client = client();
    let started = Instant::now();
    let uploads: Vec<_> = bodies
        .into_iter()
        .map(|body| {
            let (client, url) = (client.clone(), server.url("/v1/revisions"));
            tokio::spawn(async move {
                post(&client, &url, "application/json", body)
                    .await
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let latencies = probe_healthz_while(&server, &uploads, started).await;
    for u in uploads {
        assert_eq!(u.await.unwrap(), 201);
    }
    assert_p99_under_50ms(&latencies, "4 x 16 MiB JSON uploads", started);
    assert_eq!(db.counts().await, (4, 4));
}

/// A revision of `size` bytes of varied data registered on `server`: its key and data.
async fn large_revision(client: &reqwest::Client, server: &Server, size: u32) -> (String, Vec<u8>) {
    let data: Vec<u8> = (0..size)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let r = post(
        client,
        &server.url("/v1/revisions"),
        "application/octet-stream",
        data.clone(),
    )
    .await;
    assert_eq!(r.status(), 201);
    let key = r.json::<serde_json::Value>().await.unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    (key, data)
}

/// `/healthz` latencies, sorted, probed every 10 ms while any of `tasks` runs (at most
/// 60 s from `started`).
async fn probe_healthz_while<T>(
    server: &Server,
    tasks: &[tokio::task::JoinHandle<T>],
    started: Instant,
) -> Vec<Duration> {
    let probe = reqwest::Client::new();
    let mut latencies = Vec::new();
    while tasks.iter().any(|t| !t.is_finished()) && started.elapsed() < Duration::from_secs(60) {
        let t = Instant::now();
        let r = probe.get(server.url("/healthz")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        r.bytes().await.unwrap();
        latencies.push(t.elapsed());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    latencies.sort();
    latencies
}

/// Prints the latencies' spread and fails unless there were at least 20 probes with a
/// p99 under 50 ms.
fn assert_p99_under_50ms(latencies: &[Duration], during: &str, started: Instant) {
    let p99 = latencies[(latencies.len() - 1) * 99 / 100];
    eprintln!(
        "healthz during {during} ({:?}): {} probes, p50 {:?}, p99 {p99:?}, max {:?}",
        started.elapsed(),
        latencies.len(),
        latencies[latencies.len() / 2],
        latencies.last().unwrap()
    );
    assert!(latencies.len() >= 20, "{during}: too short to probe");
    assert!(p99 < Duration::from_millis(50), "{during}: p99 {p99:?}");
}

/// 32 clients download an 8 MiB revision at once, four times each: `/healthz`, probed
/// every 10 ms meanwhile, answers with p99 < 50 ms (answers are produced a chunk at a
/// time as their sockets take them, not serialized whole on the async workers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_stays_fast_while_large_answers_are_sent() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--body-limit", "20000000"]);
    let client = client();
    let (key, _) = large_revision(&client, &server, 8 << 20).await;
    let started = Instant::now();
    let downloads: Vec<_> = (0..32)
        .map(|_| {
            let url = server.url(&format!("/v1/revisions/{key}/data"));
            tokio::spawn(async move {
                // A client each, so the 32 answers are produced at once on 32 connections.
                let client = reqwest::Client::new();
                let mut bytes = 0;
                for _ in 0..4 {
                    bytes += client
                        .get(&url)
                        .send()
                        .await
                        .unwrap()
                        .bytes()
                        .await
                        .unwrap()
                        .len();
                }
                bytes
            })
        })
        .collect();
    let latencies = probe_healthz_while(&server, &downloads, started).await;
    for d in downloads {
        assert_eq!(d.await.unwrap(), 4 * (8 << 20));
    }
    assert_p99_under_50ms(&latencies, "32 x 4 downloads of 8 MiB", started);
}

/// The peak memory one 16 MiB JSON registration adds stays within 4x its size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_json_costs_at_most_four_times_its_size_in_memory() {
    let _serial = serial().await;
    let db = fresh_db(Backend::Sqlite).await;
    let server = Server::start(&db, &["--body-limit", "20000000"]);
    let body = large_json(0, 16 << 20);
    let size = body.len() as u64;
    let (_, before) = memory(server.pid());
    let r = post(
        &client(),
        &server.url("/v1/revisions"),
        "application/json",
        body,
    )
    .await;
    assert_eq!(r.status(), 201);
    let (_, after) = memory(server.pid());
    let ratio = (after - before) as f64 / size as f64;
    eprintln!(
        "peak RSS grew by {:.1} MiB for {:.1} MiB of JSON: {ratio:.2}x",
        (after - before) as f64 / 1048576.0,
        size as f64 / 1048576.0
    );
    assert!(ratio <= 4.0, "{ratio:.2}x");
}

/// A client that sends its whole body and leaves at once: the registration completes,
/// and its retry finds it.
async fn a_registration_completes_after_its_client_leaves(backend: Backend) {
    let _serial = serial().await;
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &["--body-limit", "20000000"]);
    let body = large_json(7, 4 << 20);
    let mut s = connect(&server).await;
    let head = format!("POST /v1/revisions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    drop(s);
    let until = Instant::now() + Duration::from_secs(20);
    while db.counts().await != (1, 1) {
        assert!(Instant::now() < until, "the registration did not complete");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let r = post(
        &client(),
        &server.url("/v1/revisions"),
        "application/json",
        body,
    )
    .await;
    assert_eq!(r.status(), 200, "the retry finds it");
}

on_both_backends!(a_registration_completes_after_its_client_leaves);
