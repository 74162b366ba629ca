//! Only bound SQL parameters: text that would change a query built by string
//! concatenation reaches the database as plain data.

use crate::common::spawn_app;
use serde_json::{json, Value};

#[tokio::test]
async fn injected_text_is_data_not_sql() {
    let app = spawn_app().await;
    let cookie = app.register("carol").await;

    // Login: a classic always-true clause in the name and the password.
    for (name, password) in [
        ("carol' OR '1'='1", "x' OR '1'='1"),
        ("carol'--", "anything at all"),
        ("\" OR \"\"=\"", "\" OR \"\"=\""),
    ] {
        let res = app
            .post(
                "/api/login",
                None,
                json!({"username": name, "password": password}),
            )
            .await;
        assert_eq!(res.status(), 401, "{name}");
        assert_eq!(
            res.json::<Value>().await.unwrap()["error"],
            "bad_credentials"
        );
    }

    // Path parameters that would end or extend a query.
    for path in [
        "/api/games/1'%20OR%20'1'='1",
        "/api/games/1;%20DROP%20TABLE%20users;--",
        "/api/users/carol'%20OR%20'1'='1/games",
        "/api/users/x';%20DELETE%20FROM%20users;--/ratings",
        "/api/leaderboard/classic-2'%20OR%20'1'='1",
    ] {
        let status = app.get(path, None).await.status().as_u16();
        assert!(matches!(status, 400 | 404), "{path}: {status}");
    }

    // Nothing was dropped or deleted: the account still logs in, its games list answers.
    let res = app
        .post(
            "/api/login",
            Some(&cookie),
            json!({"username": "carol", "password": "correct horse"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.get("/api/users/carol/games", None).await.status(), 200);
}
