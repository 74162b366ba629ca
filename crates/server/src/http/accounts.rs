//! `/api/register`, `/api/login`, `/api/logout`, `/api/guest`, `/api/me`.

use std::net::SocketAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::MaybeUser;
use crate::accounts::{
    clear_cookie, guest_name, hash_password_with, hash_token, session_cookie, validate_password,
    validate_username, verify_password_with, HashMemory, SESSION_TTL_MS,
};
use crate::error::ApiError;
use crate::ids::{random_id, session_token};
use crate::limits::GateError;
use crate::protocol::UserInfo;
use crate::state::AppState;
use crate::storage::StorageError;

/// The account routes (mounted under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/register", post(register))
        .route("/login", post(login))
        .route("/logout", post(logout))
        .route("/guest", post(guest))
        .route("/me", get(me))
}

/// A username and password.
#[derive(Debug, Deserialize)]
struct Credentials {
    username: String,
    password: String,
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))
}

fn limit(state: &AppState, addr: SocketAddr, headers: &HeaderMap) -> Result<(), ApiError> {
    if state.allow_auth_attempt(state.client_ip(addr.ip(), headers)) {
        Ok(())
    } else {
        Err(ApiError::too_many(60))
    }
}

/// Runs a password hash through the server's hashing gate: `503 busy` with
/// `Retry-After` when too many are running and waiting already.
async fn hashing<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut HashMemory) -> T + Send + 'static,
) -> Result<T, ApiError> {
    state.hashing.run(f).await.map_err(|e| match e {
        GateError::Busy => ApiError::busy(
            1,
            "the server is checking too many passwords at once; try again in a second",
        ),
        GateError::Failed => ApiError::internal(e),
    })
}

/// Ends the session of `token`: deletes it and closes every socket opened with it.
async fn end_session(state: &AppState, token: &str) -> Result<(), ApiError> {
    let hash = hash_token(token);
    state.storage.delete_session(&hash).await?;
    state.sessions.end(&hash);
    Ok(())
}

/// Opens a new session for `user_id` and answers with its cookie and the user.
async fn open_session(
    state: &AppState,
    status: StatusCode,
    user: UserInfo,
) -> Result<Response, ApiError> {
    let token = session_token();
    let now = state.time.now_ms();
    state
        .storage
        .create_session(&hash_token(&token), &user.id, now, now + SESSION_TTL_MS)
        .await?;
    Ok((
        status,
        [(
            header::SET_COOKIE,
            session_cookie(&token, state.config.secure_cookies),
        )],
        Json(serde_json::json!({ "user": user })),
    )
        .into_response())
}

async fn register(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    current: MaybeUser,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = json_body(body)?;
    limit(&state, addr, &headers)?;
    validate_username(&c.username)
        .map_err(|e| ApiError::bad_request("invalid_username", e.to_string()))?;
    validate_password(&c.username, &c.password)
        .map_err(|e| ApiError::bad_request("invalid_password", e.to_string()))?;
    let password = c.password;
    let hash = hashing(&state, move |memory| hash_password_with(&password, memory)).await?;
    let id = random_id(12);
    match state
        .storage
        .create_user(&id, &c.username, Some(&hash), state.time.now_ms())
        .await
    {
        Err(StorageError::Conflict) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "username_taken",
                format!("the username {:?} is taken", c.username),
            ))
        }
        other => other?,
    }
    if let Some(old) = current.token {
        end_session(&state, &old).await?;
    }
    let user = UserInfo {
        id,
        name: c.username,
        guest: false,
        bot: false,
    };
    open_session(&state, StatusCode::CREATED, user).await
}

/// A real argon2id hash of a random password, checked when the username is unknown so
/// both failures take the same time.
fn dummy_hash(memory: &mut HashMemory) -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| hash_password_with(&random_id(24), memory))
        .clone()
}

async fn login(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    current: MaybeUser,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = json_body(body)?;
    limit(&state, addr, &headers)?;
    if let Err(ms) = state
        .login_throttle
        .attempt(&c.username, state.time.now_ms())
    {
        let seconds = (ms as u64).div_ceil(1000);
        return Err(ApiError {
            retry_after: Some(seconds),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "account_throttled",
                format!("too many wrong passwords for this account; try again in {seconds} s"),
            )
        });
    }
    let user = state.storage.user_by_name(&c.username).await?;
    let phc = user.as_ref().and_then(|u| u.password_hash.clone());
    let password = c.password;
    let ok = hashing(&state, move |memory| {
        let phc = phc.unwrap_or_else(|| dummy_hash(memory));
        verify_password_with(&password, &phc, memory)
    })
    .await?;
    let user = match (ok, user) {
        (true, Some(u)) if !u.guest() => {
            state.login_throttle.succeeded(&c.username);
            u
        }
        _ => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "bad_credentials",
                "wrong username or password",
            ))
        }
    };
    // Rotation: the session presented with the login (if any) ends; a new one starts.
    if let Some(old) = current.token {
        end_session(&state, &old).await?;
    }
    let info = UserInfo {
        bot: user.bot(),
        id: user.id,
        name: user.username,
        guest: false,
    };
    open_session(&state, StatusCode::OK, info).await
}

async fn logout(State(state): State<AppState>, current: MaybeUser) -> Result<Response, ApiError> {
    if let Some(token) = current.token {
        end_session(&state, &token).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(
            header::SET_COOKIE,
            clear_cookie(state.config.secure_cookies),
        )],
    )
        .into_response())
}

async fn guest(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    current: MaybeUser,
) -> Result<Response, ApiError> {
    limit(&state, addr, &headers)?;
    let id = random_id(12);
    let mut created = None;
    for _ in 0..8 {
        let name = guest_name();
        match state
            .storage
            .create_user(&id, &name, None, state.time.now_ms())
            .await
        {
            Ok(()) => {
                created = Some(name);
                break;
            }
            Err(StorageError::Conflict) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    let name = created.ok_or_else(|| ApiError::internal("no free guest name after 8 tries"))?;
    if let Some(old) = current.token {
        end_session(&state, &old).await?;
    }
    open_session(
        &state,
        StatusCode::CREATED,
        UserInfo {
            id,
            name,
            guest: true,
            bot: false,
        },
    )
    .await
}

async fn me(current: MaybeUser) -> Result<Json<serde_json::Value>, ApiError> {
    match current.info() {
        Some(user) => Ok(Json(serde_json::json!({ "user": user }))),
        None => Err(ApiError::unauthorized("not logged in")),
    }
}
