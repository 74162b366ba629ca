//! `/api/puzzles`: the puzzle set with today's daily puzzle, a player's puzzle rating,
//! and rated attempts checked from the moves played.

use std::collections::BTreeMap;

use axum::body::{Body, Bytes};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::check::check_attempt;
use super::rating::{rate_attempt, PuzzleRating};
use super::set::MAX_PUZZLES;
use crate::error::ApiError;
use crate::http::MaybeUser;
use crate::state::AppState;
use crate::storage::UserRow;

/// The puzzle routes (mounted under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/puzzles", get(puzzle_set))
        .route("/puzzles/me", get(my_record))
        .route("/puzzles/{id}/attempt", post(attempt))
}

/// `GET /api/puzzles`: the served puzzle file with `"daily": {"day", "id"}` added,
/// the daily puzzle of the server's UTC day (null for an empty set).
async fn puzzle_set(State(state): State<AppState>) -> Response {
    let set = &state.puzzles;
    let daily = serde_json::to_string(&set.daily(state.time.now_ms())).expect("serialises");
    // The file is a JSON object: the daily entry goes in front of its fields. The file's
    // bytes are shared, not copied, however many answers are under way.
    let head = Bytes::from(format!("{{\"daily\":{daily},"));
    let tail = set.json().slice(1..);
    let body = Body::from_stream(futures_util::stream::iter([
        Ok::<_, std::convert::Infallible>(head),
        Ok(tail),
    ]));
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

fn registered(current: MaybeUser) -> Result<UserRow, ApiError> {
    let user = current
        .user
        .ok_or_else(|| ApiError::unauthorized("log in to keep a puzzle rating"))?;
    if user.guest() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_registered",
            "puzzle ratings are kept for registered accounts; a guest's stays in the browser",
        ));
    }
    Ok(user)
}

fn rating_json(r: &PuzzleRating) -> serde_json::Value {
    json!({"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility})
}

/// `GET /api/puzzles/me`: the player's puzzle rating, counts, and the puzzles tried
/// (`{"tried": {"ID": solved}}`).
async fn my_record(
    State(state): State<AppState>,
    current: MaybeUser,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = registered(current)?;
    let record = state.storage.puzzle_record(&user.id).await?;
    let tried: BTreeMap<String, bool> = state
        .storage
        .puzzles_tried(&user.id, MAX_PUZZLES as i64)
        .await?
        .into_iter()
        .collect();
    Ok(Json(json!({
        "rating": rating_json(&record.rating),
        "attempts": record.attempts,
        "solved": record.solved,
        "tried": tried,
    })))
}

/// The body of an attempt: the moves played from the puzzle's position.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    moves: Vec<String>,
}

/// `POST /api/puzzles/{id}/attempt {"moves": ["h12-h13", …]}`: the server replays the
/// moves; the first attempt of a player at a puzzle moves both ratings, later ones are
/// only judged. Answers `{"solved", "rated", "rating", "puzzle_rating"}`.
async fn attempt(
    State(state): State<AppState>,
    current: MaybeUser,
    Path(id): Path<String>,
    body: Result<Json<Attempt>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = registered(current)?;
    let puzzle = state.puzzles.get(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_puzzle",
            format!(
                "no puzzle {:?} in this server's set",
                id.chars().take(64).collect::<String>()
            ),
        )
    })?;
    let Json(body) = body.map_err(|e| ApiError::bad_request("bad_request", e.body_text()))?;
    let solved = check_attempt(puzzle, &body.moves)
        .map_err(|e| ApiError::bad_request("bad_moves", e.to_string()))?;
    let rated = state
        .storage
        .rate_puzzle_attempt(
            &user.id,
            &puzzle.id,
            PuzzleRating::new_puzzle(puzzle.rating),
            solved,
            state.time.now_ms(),
            |player, p| rate_attempt(player, p, solved),
        )
        .await?;
    let (rating, puzzle_rating, before) = match rated {
        Some(r) => (r.after, Some(r.puzzle.rating), Some(r.before.rating)),
        None => (
            state.storage.puzzle_record(&user.id).await?.rating,
            None,
            None,
        ),
    };
    Ok(Json(json!({
        "solved": solved,
        "rated": before.is_some(),
        "rating_before": before,
        "rating": rating_json(&rating),
        "puzzle_rating": puzzle_rating,
    })))
}
