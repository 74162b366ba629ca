//! Measures what a running `stella serve` holds under three abuse patterns, reading its
//! resident memory (VmRSS, and the peak VmHWM) from `/proc/PID/status` before and after
//! each:
//!
//! ```text
//! cargo run -p stella-server --example limits_lab -- URL PID logins N
//! cargo run -p stella-server --example limits_lab -- URL PID tables N
//! cargo run -p stella-server --example limits_lab -- URL PID churn SECONDS
//! ```
//!
//! `logins`: N wrong logins sent at once, for N different usernames (so the per-account
//! throttle does not stop them before the password check), from 127.1.x.y source
//! addresses, ten per address (inside the per-address limit). `tables`: one guest asks
//! for N classic-6 tables on one connection. `churn`: one guest creates a table and
//! leaves it, over and over on one connection, for SECONDS.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn memory(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or("?".to_owned(), |kb| {
                format!("{:.1} MiB", kb as f64 / 1024.0)
            })
    };
    format!("VmRSS {} (peak VmHWM {})", field("VmRSS:"), field("VmHWM:"))
}

fn source(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 1, (i / 250) as u8, (i % 250) as u8 + 1))
}

async fn guest(base: &str, from: IpAddr) -> String {
    let http = reqwest::Client::builder()
        .local_address(from)
        .build()
        .expect("client");
    let res = http
        .post(format!("{base}/api/guest"))
        .send()
        .await
        .expect("guest");
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("stella_session="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        .expect("a session cookie")
}

async fn connect(base: &str, cookie: &str) -> Socket {
    let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
    let mut req = url.into_client_request().expect("request");
    req.headers_mut()
        .insert("cookie", cookie.parse().expect("cookie"));
    tokio_tungstenite::connect_async(req).await.expect("ws").0
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("send");
}

/// The next message whose `t` is one of `kinds`.
async fn until(ws: &mut Socket, kinds: &[&str]) -> Value {
    loop {
        let frame = ws.next().await.expect("open").expect("frame");
        if let Message::Text(t) = frame {
            let v: Value = serde_json::from_str(t.as_str()).expect("json");
            if kinds.iter().any(|k| v["t"] == *k) {
                return v;
            }
        }
    }
}

async fn logins(base: &str, n: usize) {
    let mut tasks = Vec::new();
    let started = Instant::now();
    for i in 0..n {
        let http = reqwest::Client::builder()
            .local_address(source(i / 10))
            .build()
            .expect("client");
        let url = format!("{base}/api/login");
        tasks.push(tokio::spawn(async move {
            let res = http
                .post(url)
                .json(&json!({"username": format!("nobody{i}"), "password": "wrong horse"}))
                .send()
                .await;
            match res {
                Ok(r) => r.status().as_u16().to_string(),
                Err(_) => "error".to_owned(),
            }
        }));
    }
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for t in tasks {
        *answers.entry(t.await.expect("task")).or_default() += 1;
    }
    println!(
        "{n} wrong logins in {:.1} s, answers by status: {answers:?}",
        started.elapsed().as_secs_f64()
    );
}

async fn tables(base: &str, n: usize) {
    let cookie = guest(base, source(5_000)).await;
    let mut ws = connect(base, &cookie).await;
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..n {
        send(
            &mut ws,
            json!({"t": "create_table", "d": {"variant": "classic-6"}}),
        )
        .await;
        let m = until(&mut ws, &["table_created", "error"]).await;
        let key = if m["t"] == "error" {
            m["d"]["code"].as_str().unwrap_or("?").to_owned()
        } else {
            "created".to_owned()
        };
        *answers.entry(key).or_default() += 1;
        // Stay under the per-connection message limit (20 per second): a message over
        // it is dropped unanswered.
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    println!("{n} table requests by one guest: {answers:?}");
}

async fn churn(base: &str, pid: u32, secs: u64) {
    let cookie = guest(base, source(5_001)).await;
    let mut ws = connect(base, &cookie).await;
    let started = Instant::now();
    let mut loops = 0u64;
    let mut next_report = 60;
    while started.elapsed() < Duration::from_secs(secs) {
        send(
            &mut ws,
            json!({"t": "create_table", "d": {"variant": "classic-6"}}),
        )
        .await;
        let m = until(&mut ws, &["table_created", "error"]).await;
        if m["t"] == "error" {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let table = m["d"]["table"].clone();
        send(&mut ws, json!({"t": "leave", "d": {"table": table}})).await;
        loop {
            let e = until(&mut ws, &["event", "error"]).await;
            if e["t"] == "error" || e["d"]["type"] == "closed" {
                break;
            }
        }
        loops += 1;
        // Stay under the per-connection message limit (20 per second).
        tokio::time::sleep(Duration::from_millis(150)).await;
        if started.elapsed().as_secs() >= next_report {
            println!(
                "  {next_report} s: {loops} create/leave loops, {}",
                memory(pid)
            );
            next_report += 60;
        }
    }
    println!(
        "{loops} create/leave loops on one connection in {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, pid, what, n] = args.as_slice() else {
        eprintln!("usage: limits_lab URL PID logins|tables|churn N");
        std::process::exit(2);
    };
    let base = base.trim_end_matches('/');
    let pid: u32 = pid.parse().expect("PID");
    let n: usize = n.parse().expect("N");
    println!("before: {}", memory(pid));
    match what.as_str() {
        "logins" => logins(base, n).await,
        "tables" => tables(base, n).await,
        "churn" => churn(base, pid, n as u64).await,
        other => panic!("unknown measurement {other}"),
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!("after:  {}", memory(pid));
}
