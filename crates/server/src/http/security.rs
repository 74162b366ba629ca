//! Security middleware: response headers on everything, and an Origin check on every
//! state-changing request and WebSocket upgrade (CSRF and cross-site WebSocket
//! hijacking defence, on top of the SameSite=Lax cookie).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::origin_of;
use crate::error::ApiError;
use crate::state::AppState;

/// The Content-Security-Policy of every response: same-origin everything, WebAssembly
/// allowed, inline styles allowed (SVG board), no framing.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every response.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    res
}

fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Whether `origin` is one the server is reached at or an allowed one. The request's
/// own `Host` is not consulted: a client chooses it freely.
fn origin_allowed(origin: &str, public: &[String], allowed: &[String]) -> bool {
    let origin = origin_of(origin);
    public.iter().chain(allowed).any(|a| origin_of(a) == origin)
}

/// Refuses state-changing requests (anything but GET, HEAD, OPTIONS) and WebSocket
/// upgrades whose `Origin` is another site, or whose `Sec-Fetch-Site` says
/// `cross-site`. Requests without either header (non-browser clients) pass.
pub async fn origin_check(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if safe && !is_upgrade(req.headers()) {
        return next.run(req).await;
    }
    let headers = req.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let ok = origin
            .to_str()
            .is_ok_and(|o| origin_allowed(o, &state.public_origins, &state.config.allowed_origins));
        if !ok {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "bad_origin",
                "cross-site request refused: the Origin is not this server",
            )
            .into_response();
        }
    } else if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site")
    {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "bad_origin",
            "cross-site request refused",
        )
        .into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_and_listed_origins_pass() {
        let public = vec!["http://127.0.0.1:8080".to_owned()];
        assert!(origin_allowed("http://127.0.0.1:8080", &public, &[]));
        assert!(!origin_allowed("https://127.0.0.1:8080", &public, &[]));
        assert!(!origin_allowed("http://evil.example", &public, &[]));
        assert!(origin_allowed(
            "http://evil.example",
            &public,
            &["http://evil.example/".into()]
        ));
    }
}
