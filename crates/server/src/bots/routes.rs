//! `/api/bot` and `/api/tokens`: a logged-in account becomes a bot account and
//! manages its API tokens (made and shown once, listed, revoked).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::MAX_TOKENS;
use crate::accounts::hash_token;
use crate::error::ApiError;
use crate::http::MaybeUser;
use crate::ids::{random_id, session_token};
use crate::state::AppState;
use crate::storage::UserRow;

/// The bot routes (mounted under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/bot", post(become_bot))
        .route("/tokens", post(create_token).get(list_tokens))
        .route("/tokens/{id}", delete(revoke_token))
}

fn registered(current: MaybeUser) -> Result<UserRow, ApiError> {
    let user = current
        .user
        .ok_or_else(|| ApiError::unauthorized("log in to the account first"))?;
    if user.guest() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_registered",
            "guest accounts cannot be bots; register an account for the bot",
        ));
    }
    Ok(user)
}

fn bot(current: MaybeUser) -> Result<UserRow, ApiError> {
    let user = registered(current)?;
    if !user.bot() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_a_bot",
            "API tokens are for bot accounts; make this account a bot with POST /api/bot",
        ));
    }
    Ok(user)
}

/// `POST /api/bot`: makes the logged-in account a bot account, for good (its games
/// from now on are marked as a bot's).
async fn become_bot(
    State(state): State<AppState>,
    current: MaybeUser,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = registered(current)?;
    state.storage.make_bot(&user.id).await?;
    Ok(Json(json!({
        "user": {"id": user.id, "name": user.username, "guest": false, "bot": true}
    })))
}

/// The body of `POST /api/tokens`.
#[derive(Debug, Deserialize)]
struct NewToken {
    /// What the token is for, 1 to 40 characters.
    label: String,
}

/// `POST /api/tokens {"label"}`: a new token, shown in this answer only.
async fn create_token(
    State(state): State<AppState>,
    current: MaybeUser,
    body: Result<Json<NewToken>, JsonRejection>,
) -> Result<Response, ApiError> {
    let user = bot(current)?;
    let Json(body) = body.map_err(|e| ApiError::bad_request("bad_request", e.body_text()))?;
    let label = body.label.trim();
    if label.is_empty() || label.chars().count() > 40 || label.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "bad_label",
            "the label must be 1 to 40 characters of text",
        ));
    }
    if state.storage.tokens(&user.id).await?.len() >= MAX_TOKENS {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "too_many_tokens",
            format!("a bot has at most {MAX_TOKENS} tokens; revoke one first"),
        ));
    }
    let id = random_id(12);
    let token = format!("stb_{}", session_token());
    let now = state.time.now_ms();
    state
        .storage
        .create_token(&id, &user.id, &hash_token(&token), label, now)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "label": label, "token": token, "created_ms": now})),
    )
        .into_response())
}

/// `GET /api/tokens`: the live tokens, without their secret.
async fn list_tokens(
    State(state): State<AppState>,
    current: MaybeUser,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = bot(current)?;
    Ok(Json(
        json!({"tokens": state.storage.tokens(&user.id).await?}),
    ))
}

/// `DELETE /api/tokens/{id}`: revokes a token; connections opened with it end now.
async fn revoke_token(
    State(state): State<AppState>,
    current: MaybeUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let user = bot(current)?;
    let hash = state
        .storage
        .revoke_token(&user.id, &id, state.time.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no live token {id:?} of yours")))?;
    state.sessions.end(&hash);
    Ok(StatusCode::NO_CONTENT)
}
