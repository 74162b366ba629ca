//! No password or session token ever reaches the server's logs, even at TRACE level.

#[path = "suite/common/mod.rs"]
mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::{session_cookie, spawn_app};
use serde_json::json;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn passwords_and_tokens_stay_out_of_the_logs() {
    let captured = Captured::default();
    let writer = captured.clone();
    // Everything at TRACE except the test's own client libraries (which print the
    // requests they send).
    let filter = tracing_subscriber::EnvFilter::new(
        "trace,tungstenite::handshake::client=off,reqwest=off,hyper_util::client=off",
    );
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();

    let app = spawn_app().await;
    let password = "sekrit-horse-battery";
    let res = app
        .post(
            "/api/register",
            None,
            json!({"username": "erin", "password": password}),
        )
        .await;
    assert_eq!(res.status(), 201);
    let first = session_cookie(&res).unwrap();
    let res = app
        .post(
            "/api/login",
            Some(&first),
            json!({"username": "erin", "password": password}),
        )
        .await;
    let second = session_cookie(&res).unwrap();
    let bad = app
        .post(
            "/api/login",
            None,
            json!({"username": "erin", "password": "wrong-password-here"}),
        )
        .await;
    assert_eq!(bad.status(), 401);
    let mut ws = app.ws(Some(&second)).await;
    ws.create(json!({"variant": "classic-2"})).await;
    app.post("/api/logout", Some(&second), json!({})).await;

    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("/api/login"),
        "the capture works: requests are logged"
    );
    for secret in [
        password,
        "wrong-password-here",
        first.trim_start_matches("stella_session="),
        second.trim_start_matches("stella_session="),
    ] {
        if let Some(line) = logs.lines().find(|l| l.contains(secret)) {
            panic!("a secret reached the logs: {line}");
        }
    }
}
