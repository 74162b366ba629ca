//! A bot's WebSocket names its account with `Authorization: Bearer TOKEN`.

use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;

use crate::accounts::hash_token;
use crate::error::ApiError;
use crate::protocol::UserInfo;
use crate::state::AppState;

/// The token of an `Authorization: Bearer ...` header, if the request has one.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_owned())
}

/// The bot account of a live API token, with the token's stored hash; 401 when the
/// token is unknown, revoked, or no longer a bot's.
pub async fn token_user(state: &AppState, token: &str) -> Result<(UserInfo, String), ApiError> {
    let refused = || {
        ApiError::unauthorized("unknown or revoked API token; make a new one with POST /api/tokens")
    };
    if token.is_empty() || token.len() > 128 {
        return Err(refused());
    }
    let hash = hash_token(token);
    let row = state
        .storage
        .token_user(&hash, state.time.now_ms())
        .await?
        .ok_or_else(refused)?;
    Ok((
        UserInfo {
            id: row.id,
            name: row.username,
            guest: false,
            bot: true,
        },
        hash,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_bearer_token() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer_token(&h), None);
        h.insert(AUTHORIZATION, "Bearer abc123".parse().unwrap());
        assert_eq!(bearer_token(&h).as_deref(), Some("abc123"));
        h.insert(AUTHORIZATION, "bearer  xyz ".parse().unwrap());
        assert_eq!(bearer_token(&h).as_deref(), Some("xyz"));
        h.insert(AUTHORIZATION, "Basic abc".parse().unwrap());
        assert_eq!(bearer_token(&h), None);
    }
}
