//! Accounts and HTTP security: validation, sessions, rotation, logout, Origin checks,
//! headers, limits.

use crate::common::{session_cookie, spawn_app, spawn_app_with, Options};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test]
async fn health_and_security_headers() {
    let app = spawn_app().await;
    let res = app.get("/healthz", None).await;
    assert_eq!(res.status(), 200);
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("default-src 'self'"));
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert_eq!(res.headers()["x-frame-options"], "DENY");
    assert_eq!(res.text().await.unwrap(), "ok");
    let api404 = app.get("/api/nothing-here", None).await;
    assert_eq!(api404.status(), 404);
    assert_eq!(api404.headers()["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn spa_routes_get_the_client_or_a_clear_404() {
    let app = spawn_app().await;
    for path in ["/lobby", "/rules", "/offline"] {
        let res = app.get(path, None).await;
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        match status {
            200 => assert!(text.to_lowercase().contains("<html") || text.contains("<!doctype")),
            404 => assert!(text.contains("web client is not built")),
            other => panic!("{path}: status {other}"),
        }
    }
    assert_eq!(app.get("/missing.js", None).await.status(), 404);
}

#[tokio::test]
async fn registration_is_validated_with_clear_messages() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"username": "al", "password": "correct horse"}),
            400,
            "invalid_username",
        ),
        (
            json!({"username": "9lives", "password": "correct horse"}),
            400,
            "invalid_username",
        ),
        (
            json!({"username": "guesty", "password": "correct horse"}),
            400,
            "invalid_username",
        ),
        (
            json!({"username": "alice", "password": "short"}),
            400,
            "invalid_password",
        ),
        (json!({"username": "alice"}), 422, "bad_request"),
    ];
    for (body, status, code) in cases {
        let res = app.post("/api/register", None, body.clone()).await;
        assert_eq!(res.status(), status, "{body}");
        let v: Value = res.json().await.unwrap();
        assert_eq!(v["error"], code, "{body}: {v}");
        assert!(!v["message"].as_str().unwrap().is_empty());
    }
    app.register("alice").await;
    let res = app
        .post(
            "/api/register",
            None,
            json!({"username": "ALICE", "password": "another one"}),
        )
        .await;
    assert_eq!(res.status(), 409);
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["error"], "username_taken");
}

#[tokio::test]
async fn login_rotates_the_session_and_logout_invalidates_it() {
    let app = spawn_app().await;
    let first = app.register("carol").await;
    let res = app
        .post(
            "/api/login",
            Some(&first),
            json!({"username": "carol", "password": "wrong horse"}),
        )
        .await;
    assert_eq!(res.status(), 401);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"],
        "bad_credentials"
    );
    let res = app
        .post(
            "/api/login",
            Some(&first),
            json!({"username": "nobody", "password": "wrong horse"}),
        )
        .await;
    assert_eq!(res.status(), 401);

    let res = app
        .post(
            "/api/login",
            Some(&first),
            json!({"username": "Carol", "password": "correct horse"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let set = res.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Lax"),
        "{set}"
    );
    let second = session_cookie(&res).unwrap();
    assert_ne!(first, second, "a new session id at login");
    assert_eq!(
        app.get("/api/me", Some(&first)).await.status(),
        401,
        "the old session ended"
    );
    let me = app.get_json("/api/me", Some(&second)).await;
    assert_eq!(me["user"]["name"], "carol");

    let res = app.post("/api/logout", Some(&second), json!({})).await;
    assert_eq!(res.status(), 204);
    assert!(res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .contains("Max-Age=0"));
    assert_eq!(app.get("/api/me", Some(&second)).await.status(), 401);
    // The WebSocket no longer knows the user either.
    let mut ws = app.ws(Some(&second)).await;
    ws.send(json!({"t": "create_table", "d": {"variant": "classic-2"}}))
        .await;
    ws.expect_error("not_logged_in").await;
}

#[tokio::test]
async fn guests_get_generated_names() {
    let app = spawn_app().await;
    let g = app.guest().await;
    let me = app.get_json("/api/me", Some(&g)).await;
    assert!(me["user"]["name"].as_str().unwrap().starts_with("Guest-"));
    assert_eq!(me["user"]["guest"], true);
    // Guests cannot log in with a password.
    let name = me["user"]["name"].as_str().unwrap();
    let res = app
        .post(
            "/api/login",
            None,
            json!({"username": name, "password": ""}),
        )
        .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn cross_site_requests_are_refused() {
    let app = spawn_app().await;
    let evil = app
        .post_guest_with(&[("origin", "http://evil.example")])
        .await;
    assert_eq!(evil.status(), 403);
    assert_eq!(evil.json::<Value>().await.unwrap()["error"], "bad_origin");
    let sneaky = app
        .post_guest_with(&[("sec-fetch-site", "cross-site")])
        .await;
    assert_eq!(sneaky.status(), 403);
    let own = app.post_guest_with(&[("origin", &app.base)]).await;
    assert_eq!(own.status(), 201);
    // Cross-site WebSocket hijacking is refused at the handshake.
    let mut req = format!("ws://127.0.0.1:{}/ws", app.port)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
}

#[tokio::test]
async fn login_attempts_are_rate_limited_per_address() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.auth_burst = 3;
            c.auth_per_minute = 1;
        }),
        ..Options::default()
    })
    .await;
    for _ in 0..3 {
        let res = app
            .post(
                "/api/login",
                None,
                json!({"username": "dave", "password": "guess guess"}),
            )
            .await;
        assert_eq!(res.status(), 401);
    }
    let res = app
        .post(
            "/api/login",
            None,
            json!({"username": "dave", "password": "guess guess"}),
        )
        .await;
    assert_eq!(res.status(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(res.json::<Value>().await.unwrap()["error"], "rate_limited");
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = spawn_app().await;
    let res = app
        .post(
            "/api/register",
            None,
            json!({"username": "x".repeat(100_000), "password": "correct horse"}),
        )
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(app.get("/healthz", None).await.status(), 200);
}
