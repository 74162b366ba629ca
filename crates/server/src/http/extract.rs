//! The session of a request, from its cookie.

use axum::extract::FromRequestParts;
use axum::http::header::COOKIE;
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::accounts::{hash_token, SESSION_COOKIE};
use crate::error::ApiError;
use crate::protocol::UserInfo;
use crate::state::AppState;
use crate::storage::UserRow;

/// The session token and user of a request, if it has a live session.
#[derive(Debug, Clone, Default)]
pub struct MaybeUser {
    /// The raw session token from the cookie (even if the session is dead).
    pub token: Option<String>,
    /// The session's user.
    pub user: Option<UserRow>,
}

impl MaybeUser {
    /// The user as the protocol shows it.
    pub fn info(&self) -> Option<UserInfo> {
        self.user.as_ref().map(|u| UserInfo {
            id: u.id.clone(),
            name: u.username.clone(),
            guest: u.guest(),
            bot: u.bot(),
        })
    }
}

/// The value of the session cookie in `headers`.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Some(token) = session_token(&parts.headers) else {
            return Ok(MaybeUser::default());
        };
        let user = state
            .storage
            .session_user(&hash_token(&token), state.time.now_ms())
            .await?;
        Ok(MaybeUser {
            token: Some(token),
            user,
        })
    }
}
