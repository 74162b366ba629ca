//! Limits around logging in: the bound on concurrent password hashing, per-account
//! throttling, the trusted proxy's client address, and the Origin check against the
//! configured public origin.

mod common;

use common::{spawn_app_with, Options, TestApp};
use serde_json::{json, Value};

async fn login(app: &TestApp, name: &str, password: &str) -> reqwest::Response {
    app.post(
        "/api/login",
        None,
        json!({"username": name, "password": password}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_logins_queues_boundedly_and_the_rest_are_told_to_retry() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.auth_burst = 1_000;
            c.hash_concurrency = 1;
            c.hash_queue = 2;
        }),
        ..Options::default()
    })
    .await;
    app.register("alice").await;
    let mut tasks = Vec::new();
    for _ in 0..30 {
        let http = app.http();
        let url = format!("{}/api/login", app.base);
        tasks.push(tokio::spawn(async move {
            http.post(url)
                .json(&json!({"username": "alice", "password": "wrong horse"}))
                .send()
                .await
                .expect("request")
        }));
    }
    let (mut refused, mut busy) = (0, 0);
    for t in tasks {
        let res = t.await.expect("task");
        match res.status().as_u16() {
            401 => refused += 1,
            503 => {
                assert_eq!(res.headers()["retry-after"], "1");
                let v: Value = res.json().await.expect("json");
                assert_eq!(v["error"], "busy", "{v}");
                busy += 1;
            }
            other => panic!("status {other}"),
        }
    }
    assert!(busy > 0, "some attempts must be turned away");
    assert!(refused >= 1, "the running and queued ones are checked");
    assert_eq!(refused + busy, 30);
    // Once the burst is over, the server checks passwords again.
    let ok = login(&app, "alice", "correct horse").await;
    assert_eq!(ok.status(), 200);
}
