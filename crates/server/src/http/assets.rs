//! The web client, embedded in the binary from `web/dist` at build time. Unknown GET
//! paths outside `/api`, `/ws` and `/healthz` get `index.html`, so the single-page
//! client can route `/lobby`, `/rules`, `/offline`...

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::ApiError;
use crate::puzzles::{PuzzleSet, PuzzleSetError};

/// The built web client.
#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct WebAssets;

fn asset(path: &str) -> Option<Response> {
    let file = WebAssets::get(path)?;
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    Some(
        (
            [
                (header::CONTENT_TYPE, mime.as_ref().to_owned()),
                (header::CACHE_CONTROL, cache.to_owned()),
            ],
            file.data.into_owned(),
        )
            .into_response(),
    )
}

/// Serves an embedded file, or `index.html` for client routes.
pub async fn static_asset(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "method not allowed",
        )
        .into_response();
    }
    if path.starts_with("api/") || path == "api" || path == "ws" {
        return ApiError::not_found(format!("no route {}", uri.path())).into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(res) = asset(path) {
        return res;
    }
    let last = path.rsplit('/').next().unwrap_or(path);
    if last.contains('.') {
        return ApiError::not_found(format!("no file {}", uri.path())).into_response();
    }
    asset("index.html").unwrap_or_else(|| {
        ApiError::not_found("the web client is not built into this server (build web/ first)")
            .into_response()
    })
}

/// The puzzle set to serve: the file at `path`, checked, or else the `puzzles.json`
/// built into the web client (an empty set when the client is not built in).
pub fn puzzle_set(path: Option<&std::path::Path>) -> Result<PuzzleSet, PuzzleSetError> {
    if let Some(path) = path {
        return PuzzleSet::load(path).map_err(|e| match e {
            PuzzleSetError::Read(_) => e,
            other => PuzzleSetError::Read(format!("{}: {other}", path.display())),
        });
    }
    match WebAssets::get("puzzles.json") {
        Some(file) => PuzzleSet::parse(&String::from_utf8_lossy(&file.data))
            .map_err(|e| PuzzleSetError::Read(format!("the built-in puzzles.json: {e}"))),
        None => Ok(PuzzleSet::empty()),
    }
}
