//! `GET /api/games/{id}/review`: the server's review of a finished game.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;
use crate::storage::ReviewRow;

/// The review route (mounted under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new().route("/games/{id}/review", get(review))
}

/// 200 with `{"depth", "nodes", "paths": [move…], "moves": [judgement…]}` when done; 202
/// `{"status": "pending"}` while a worker has it; 404 `no_review` when there is none
/// (not finished, not reviewed yet, or reviews are off); 422 `review_failed` with why.
async fn review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if id.len() > 64 {
        return Err(ApiError::not_found("no such game"));
    }
    match state.storage.review(&id).await? {
        Some(ReviewRow::Done(json)) => Ok((
            [
                (header::CONTENT_TYPE, "application/json"),
                // A finished game's review does not change.
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            json,
        )
            .into_response()),
        Some(ReviewRow::Pending) => Ok((
            StatusCode::ACCEPTED,
            axum::Json(serde_json::json!({"status": "pending"})),
        )
            .into_response()),
        Some(ReviewRow::Failed(why)) => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "review_failed",
            format!("this game could not be reviewed: {why}"),
        )),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_review",
            "this game has no review on the server (yet)",
        )),
    }
}
