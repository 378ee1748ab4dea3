//! A client that is refused before its body was read, and goes on writing that body,
//! still gets its answer: the server shuts its side after the answer and reads what
//! follows for a while before it closes, instead of resetting the connection under a
//! client that would then see a broken pipe rather than its 413 or 401 (the refusal of a
//! 17 MiB JSON body to an object-store registry failed so in CI).

mod common;

use common::{client, fresh_db, problem_of, token_file, Backend, Server};

/// Many rounds, because a reset loses the answer only when it wins a race with the
/// client's read; 8 MiB bodies, far past what socket buffers hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_writing_a_refused_body_gets_its_answer_not_a_broken_pipe() {
    let db = fresh_db(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let tokens = token_file(&dir, "tokens", "secret\n");
    let server = Server::start(&db, &["--token-file", &tokens, "--body-limit", "1024"]);
    let c = client();
    let body = vec![7u8; 8 << 20];
    for round in 0..20 {
        for (token, json, status, code) in [
            (true, false, 413, "payload_too_large"),
            (true, true, 413, "payload_too_large"),
            (false, false, 401, "unauthorized"),
        ] {
            let mut request = c
                .post(server.url("/v1/revisions"))
                .header(
                    "content-type",
                    if json {
                        "application/json"
                    } else {
                        "application/octet-stream"
                    },
                )
                .body(body.clone());
            if token {
                request = request.bearer_auth("secret");
            }
            let response = request
                .send()
                .await
                .unwrap_or_else(|e| panic!("round {round}, expecting {status}: no answer: {e:?}"));
            let (got, got_code) = problem_of(response).await;
            assert_eq!((got, got_code.as_str()), (status, code), "round {round}");
        }
    }
}
