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

/// 200 `ok` when the database answers, 503 otherwise.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if state.storage.ping().await {
        (StatusCode::OK, "ok")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
    }
}
