//! An HTTP client of one local server: readiness, accounts and JSON answers.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::ws::Ws;

/// An HTTP client of the server on a loopback port.
pub struct Http {
    pub client: reqwest::Client,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub port: u16,
}

impl Http {
    /// A client of the server on `port`.
    pub fn local(port: u16) -> Http {
        Http {
            client: reqwest::Client::new(),
            base: format!("http://127.0.0.1:{port}"),
            port,
        }
    }

    /// Sends `method path` with the session `cookie` and the JSON `body`, if any.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(c) = cookie {
            req = req.header("cookie", c);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        req.send().await.expect("the server answers")
    }

    /// The JSON answer of `GET path`; null when the answer is not JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        self.send(reqwest::Method::GET, path, None, None)
            .await
            .json()
            .await
            .unwrap_or(Value::Null)
    }

    /// Waits until `GET /healthz` answers 200, for 60 s at most.
    pub async fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self
            .client
            .get(format!("{}/healthz", self.base))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(
                Instant::now() < deadline,
                "server on port {} not ready within 60 s",
                self.port
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Registers `name` and returns its session cookie.
    pub async fn register(&self, name: &str) -> String {
        let res = self
            .send(
                reqwest::Method::POST,
                "/api/register",
                None,
                Some(json!({"username": name, "password": "correct horse"})),
            )
            .await;
        assert_eq!(res.status(), 201, "register {name}");
        session_cookie(&res)
    }

    /// A guest session cookie.
    pub async fn guest(&self) -> String {
        let res = self
            .send(reqwest::Method::POST, "/api/guest", None, None)
            .await;
        assert!(res.status().is_success(), "guest: {}", res.status());
        session_cookie(&res)
    }

    /// A WebSocket client of the session `cookie`, after its `hello`.
    pub async fn ws(&self, cookie: &str) -> Ws {
        Ws::connect(self.port, cookie).await
    }
}

/// The `stella_session=...` pair of a response's Set-Cookie.
fn session_cookie(res: &reqwest::Response) -> String {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.split(';')
                .next()
                .filter(|p| p.starts_with("stella_session="))
        })
        .expect("a session cookie")
        .to_owned()
}
