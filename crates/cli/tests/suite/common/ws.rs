//! A WebSocket client of a server under test.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a client waits for the next message before the test fails.
const RECV_TIMEOUT: Duration = Duration::from_secs(60);

/// A WebSocket client.
pub struct Ws(WebSocketStream<MaybeTlsStream<TcpStream>>);

impl Ws {
    /// Connects to the server on `port` with the session `cookie` and reads its `hello`.
    pub async fn connect(port: u16, cookie: &str) -> Ws {
        let mut req = format!("ws://127.0.0.1:{port}/ws")
            .into_client_request()
            .unwrap();
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
        let (stream, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("ws connects");
        let mut ws = Ws(stream);
        assert_eq!(ws.recv().await["t"], "hello");
        ws
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, msg: Value) {
        self.0
            .send(Message::Text(msg.to_string().into()))
            .await
            .expect("ws send");
    }

    /// The next JSON message (other frames are skipped).
    pub async fn recv(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(RECV_TIMEOUT, self.0.next())
                .await
                .expect("a message within 60 s")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = frame {
                return serde_json::from_str(t.as_str()).expect("JSON");
            }
        }
    }

    /// Skips messages until one matches; fails the test when none has within
    /// 60 s, even while other messages keep coming.
    pub async fn recv_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + RECV_TIMEOUT;
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
            assert!(
                Instant::now() < deadline,
                "a matching message within 60 s; the last was {m}"
            );
        }
    }

    /// Sends a move until the server acknowledges it; `unavailable` (the table is
    /// moving, or a part is down) is retried for 30 s, any other refusal fails the test.
    pub async fn play(&mut self, table: &str, path: &str, ack: &mut u64) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            *ack += 1;
            let a = *ack;
            self.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": a}}))
                .await;
            let answer = self
                .recv_until(|m| (m["t"] == "ack" && m["d"]["ack"] == a) || m["t"] == "error")
                .await;
            if answer["t"] == "ack" {
                return;
            }
            assert_eq!(answer["d"]["code"], "unavailable", "{path}: {answer}");
            assert!(Instant::now() < deadline, "{path} taken within 30 s");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}
