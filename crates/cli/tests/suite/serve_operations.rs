//! `stella serve` configured only by environment variables, logging JSON, serving
//! `/metrics`, and stopping cleanly on SIGTERM.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use stella_test_support::free_port;

use crate::common::STELLA;

#[tokio::test]
async fn serve_takes_its_options_from_the_environment_logs_json_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("from-env.db");
    let port = free_port();
    let mut child = Command::new(STELLA)
        .arg("serve")
        .env("STELLA_LISTEN", format!("127.0.0.1:{port}"))
        .env("STELLA_DB", &db)
        .env("STELLA_LOG_FORMAT", "json")
        .env("STELLA_COMMIT_MAX_MOVES", "32")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stella serve starts");

    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let metrics = loop {
        if let Ok(r) = http
            .get(format!("http://127.0.0.1:{port}/metrics"))
            .send()
            .await
        {
            break r;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("stella serve did not listen on the port from STELLA_LISTEN");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(metrics.status(), 200);
    let text = metrics.text().await.unwrap();
    assert!(text.contains("stella_moves_total 0"), "{text}");
    assert!(
        db.exists(),
        "the database named by STELLA_DB was not created"
    );

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("stella serve did not stop within 30 s of SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(exit.success(), "exit status {exit}");

    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let messages: Vec<&str> = lines.iter().filter_map(|l| l["message"].as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("listening on http://127.0.0.1:")),
        "{log}"
    );
    assert!(
        messages.contains(&"stopping") && messages.contains(&"stopped"),
        "{log}"
    );
    assert!(lines
        .iter()
        .all(|l| l["level"].is_string() && l["timestamp"].is_string()));
}

#[test]
fn bad_values_from_flags_or_the_environment_are_named_and_help_lists_the_variables() {
    let out = Command::new(STELLA)
        .args(["serve", "--commit-max-moves", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--commit-max-moves"), "{err}");

    let out = Command::new(STELLA)
        .args(["serve"])
        .env("STELLA_LOG_FORMAT", "xml")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("xml") && err.contains("--log-format"), "{err}");

    let (ok, help, _) = crate::common::stella(&["serve", "--help"]);
    assert!(ok);
    for var in [
        "STELLA_LISTEN",
        "STELLA_DB",
        "STELLA_LOG_FORMAT",
        "STELLA_COMMIT_WINDOW_US",
    ] {
        assert!(help.contains(var), "{var} missing from --help:\n{help}");
    }
}
