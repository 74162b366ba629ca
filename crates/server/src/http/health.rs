//! `GET /healthz`.

use axum::extract::State;
use axum::http::StatusCode;

use crate::state::AppState;

/// The server's metrics in Prometheus's text format (see [`crate::monitoring`]).
pub async fn metrics(
    State(state): State<AppState>,
) -> ([(axum::http::header::HeaderName, &'static str); 1], String) {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.storage.metrics().render(state.lobby.table_count()),
    )
}

/// 200 `ok` when the database (and, in a cluster, the message bus) answers, 503 with
/// the reason otherwise.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if !state.storage.ping().await {
        return (StatusCode::SERVICE_UNAVAILABLE, "database unreachable");
    }
    if let Some(why) = state.cluster().and_then(|node| node.trouble()) {
        return (StatusCode::SERVICE_UNAVAILABLE, why);
    }
    (StatusCode::OK, "ok")
}
