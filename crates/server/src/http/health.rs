//! `GET /healthz`.

use axum::extract::State;
use axum::http::StatusCode;

use crate::state::AppState;

/// 200 `ok` when the database answers, 503 otherwise.
pub async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if state.storage.ping().await {
        (StatusCode::OK, "ok")
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
    }
}
