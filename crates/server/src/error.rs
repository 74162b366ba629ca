//! HTTP errors: one enum mapped to a status and a JSON body
//! `{"error": code, "message": text}`. Internal details are logged, never shown.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An HTTP error answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// A stable code for programs.
    pub code: &'static str,
    /// What was wrong, for people.
    pub message: String,
    /// Seconds to wait, for 429 and 503 answers.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with a status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 400 with a code.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 401.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "not_logged_in", message)
    }

    /// 429 for `seconds`.
    pub fn too_many(seconds: u64) -> Self {
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "too many attempts from this address; wait a minute",
            )
        }
    }

    /// 503 for `seconds`: the server is at a limit of what it runs at once.
    pub fn busy(seconds: u64, message: impl Into<String>) -> Self {
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message)
        }
    }

    /// 500, logging the cause.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error; try again",
        )
    }
}

impl From<crate::storage::StorageError> for ApiError {
    fn from(e: crate::storage::StorageError) -> Self {
        ApiError::internal(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (
            self.status,
            Json(serde_json::json!({"error": self.code, "message": self.message})),
        )
            .into_response();
        if let Some(s) = self.retry_after {
            if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        res
    }
}
