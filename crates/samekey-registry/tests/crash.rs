//! kill -9 in the middle of a load of distinct registrations: every acknowledged revision
//! survives, nothing is duplicated, the database passes its integrity check.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{client, fresh_db, get_json, post, Backend, Server};

fn payload(i: usize) -> String {
    format!(r#"{{"item":{i},"note":"crash test"}}"#)
}

async fn acknowledged_revisions_survive_kill_9(backend: Backend) {
    let db = fresh_db(backend).await;
    let server = Server::start(&db, &[]);
    let client = client();
    let sent = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let acked: Arc<Mutex<Vec<(usize, serde_json::Value)>>> = Arc::default();
    let workers: Vec<_> = (0..16)
        .map(|_| {
            let (client, url, sent, acked) = (
                client.clone(),
                server.url("/v1/revisions"),
                sent.clone(),
                acked.clone(),
            );
            tokio::spawn(async move {
                loop {
                    let i = sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Ok(r) = client
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(payload(i))
                        .send()
                        .await
                    else {
                        break;
                    };
                    let status = r.status().as_u16();
                    // Acknowledged = a complete 201/200 answer reached the client.
                    let Ok(body) = r.json::<serde_json::Value>().await else {
                        break;
                    };
                    assert!(status == 201 || status == 200, "status {status}: {body}");
                    acked.lock().unwrap().push((i, body));
                }
            })
        })
        .collect();
    while acked.lock().unwrap().len() < 150 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill9();
    for w in workers {
        w.await.unwrap();
    }
    let acked = std::mem::take(&mut *acked.lock().unwrap());
    let attempted = sent.load(std::sync::atomic::Ordering::SeqCst);

    let problems = {
        let d = db.open().await;
        let p = d.integrity_problems().await.unwrap();
        d.close().await;
        p
    };
    assert!(problems.is_empty(), "integrity: {problems:?}");
    let (rows, contents) = db.counts().await;
    eprintln!(
        "{backend:?}: killed with {} acknowledged of {attempted} sent; {rows} rows after restart",
        acked.len()
    );
    assert!(
        rows as usize >= acked.len() && rows as usize <= attempted,
        "{rows} rows, {} acked, {attempted} attempted",
        acked.len()
    );
    assert_eq!(rows, contents);

    let server = Server::start(&db, &[]);
    for (i, body) in &acked {
        let stored = get_json(
            &client,
            &server,
            &format!("/v1/revisions/{}", body["key"].as_str().unwrap()),
        )
        .await;
        assert_eq!(
            &stored, body,
            "acknowledged revision {i} is there, unchanged"
        );
    }
    // Every payload sent, once more: the ones stored are found, the others created; no
    // payload ends up twice.
    for i in 0..attempted {
        let r = post(
            &client,
            &server.url("/v1/revisions"),
            "application/json",
            payload(i),
        )
        .await;
        assert!(r.status().as_u16() == 200 || r.status().as_u16() == 201);
    }
    assert_eq!(db.counts().await, (attempted as i64, attempted as i64));
}

on_both_backends!(acknowledged_revisions_survive_kill_9);
