//! Reading a server's Prometheus metrics in tests.
#![allow(dead_code, missing_docs)]

use super::TestApp;

impl TestApp {
    /// The server's `/metrics` text.
    pub async fn metrics(&self) -> String {
        let res = self.get("/metrics", None).await;
        assert!(res.status().is_success(), "/metrics: {}", res.status());
        res.text().await.expect("a metrics text")
    }
}

/// The value of the sample `name` (with its labels, if any) in a Prometheus text.
pub fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing from /metrics:\n{text}"))
}
