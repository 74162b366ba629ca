//! Bot accounts over HTTP and real WebSockets: an account becomes a bot, makes an API
//! token shown once, connects with it, is marked as a bot at its tables, plays casual
//! games only and a bounded number at once; a revoked token ends its connection and
//! is refused from then on.

use crate::common::{spawn_app, TestApp, Ws};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Opens `/ws` with `Authorization: Bearer token`; the HTTP status when refused.
async fn bot_ws(app: &TestApp, token: &str) -> Result<Ws, u16> {
    let mut req = format!("ws://127.0.0.1:{}/ws", app.port)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Ok((stream, _)) => {
            let mut ws = Ws { stream };
            let hello = ws.recv().await;
            assert_eq!(hello["t"], "hello");
            assert_eq!(hello["d"]["user"]["bot"], true, "{hello}");
            Ok(ws)
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
        Err(e) => panic!("unexpected {e}"),
    }
}

/// The bot `robo`, connected with a token of its own, and the registered person `pat`,
/// connected too: their sockets.
async fn bot_robo_and_person_pat(app: &TestApp) -> (Ws, Ws) {
    let owner = app.register("robo").await;
    app.post("/api/bot", Some(&owner), json!({})).await;
    let made: Value = app
        .post("/api/tokens", Some(&owner), json!({"label": "t"}))
        .await
        .json()
        .await
        .unwrap();
    let bot = bot_ws(app, made["token"].as_str().unwrap()).await.unwrap();
    let person = app.register("pat").await;
    (bot, app.ws(Some(&person)).await)
}

async fn delete(app: &TestApp, path: &str, cookie: &str) -> u16 {
    app.http()
        .delete(format!("{}{path}", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_bot_plays_with_its_token_until_it_is_revoked() {
    let app = spawn_app().await;
    let owner = app.register("robo").await;

    // Tokens are for bot accounts; guests cannot become bots.
    let res = app
        .post("/api/tokens", Some(&owner), json!({"label": "x"}))
        .await;
    assert_eq!(res.status(), 403);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "not_a_bot");
    let guest = app.guest().await;
    assert_eq!(
        app.post("/api/bot", Some(&guest), json!({})).await.status(),
        403
    );
    assert_eq!(app.post("/api/bot", None, json!({})).await.status(), 401);

    let res = app.post("/api/bot", Some(&owner), json!({})).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["user"]["bot"], true);
    let res = app
        .post("/api/tokens", Some(&owner), json!({"label": " "}))
        .await;
    assert_eq!(res.status(), 400);
    let res = app
        .post(
            "/api/tokens",
            Some(&owner),
            json!({"label": "stella engine"}),
        )
        .await;
    assert_eq!(res.status(), 201);
    let made: Value = res.json().await.unwrap();
    let token = made["token"].as_str().unwrap().to_owned();
    let token_id = made["id"].as_str().unwrap().to_owned();
    assert!(token.len() >= 32);
    // Listed without the secret.
    let list = app.get_json("/api/tokens", Some(&owner)).await;
    assert_eq!(list["tokens"][0]["id"], token_id.as_str());
    assert_eq!(list["tokens"][0]["label"], "stella engine");
    assert!(list["tokens"][0].get("token").is_none());
    assert!(!list.to_string().contains(&token));

    // A wrong token is refused; the right one connects as the bot.
    assert_eq!(bot_ws(&app, "stb_nope").await.err(), Some(401));
    let mut bot = bot_ws(&app, &token).await.unwrap();

    // Casual only, marked as a bot at its table.
    bot.send(json!({"t": "create_table", "d": {"variant": "classic-2", "rated": true}}))
        .await;
    let e = bot.expect_error("rated_needs_accounts").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("bots"));
    let table = bot.create(json!({"variant": "classic-2"})).await;
    let person = app.register("pat").await;
    let mut p = app.ws(Some(&person)).await;
    p.send(json!({"t": "join", "d": {"table": table}})).await;
    let snap = p.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["seats"][0]["player"]["name"], "robo");
    assert_eq!(snap["d"]["seats"][0]["player"]["bot"], true);
    p.event("started").await;
    let listed = app.get_json("/api/tables", None).await;
    assert_eq!(listed["tables"][0]["seats"][0]["player"]["bot"], true);
    assert_eq!(listed["tables"][0]["seats"][1]["player"]["bot"], false);

    // A bounded number of games at once: this one and three more, not a fifth.
    for _ in 0..3 {
        bot.create(json!({"variant": "classic-2"})).await;
    }
    bot.send(json!({"t": "create_table", "d": {"variant": "classic-2"}}))
        .await;
    let e = bot.expect_error("too_many_tables").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("4 games"));

    // Revoking ends the live connection and refuses the token from then on.
    assert_eq!(
        delete(&app, &format!("/api/tokens/{token_id}"), &owner).await,
        204
    );
    bot.expect_error("session_ended").await;
    assert_eq!(bot_ws(&app, &token).await.err(), Some(401));
    assert_eq!(
        delete(&app, &format!("/api/tokens/{token_id}"), &owner).await,
        404
    );
    let list = app.get_json("/api/tokens", Some(&owner)).await;
    assert_eq!(list["tokens"], json!([]));
    // Someone else's session cannot revoke or list the bot's tokens.
    let other = app.get_json("/api/tokens", Some(&person)).await;
    assert_eq!(other["error"], "not_a_bot");
}

#[tokio::test]
async fn a_bot_cannot_be_challenged_to_a_rated_game() {
    let app = spawn_app().await;
    let (mut bot, mut p) = bot_robo_and_person_pat(&app).await;
    p.send(json!({"t": "challenge", "d": {"to": "robo", "rated": true}}))
        .await;
    p.expect_error("rated_needs_accounts").await;
    p.send(json!({"t": "challenge", "d": {"to": "robo"}})).await;
    let c = bot.recv_until(|m| m["t"] == "challenge").await;
    assert_eq!(c["d"]["to"]["bot"], true);
    bot.send(json!({"t": "challenge_accept", "d": {"id": c["d"]["id"]}}))
        .await;
    let m = p.recv_until(|m| m["t"] == "challenge_accepted").await;
    assert!(m["d"]["table"].is_string());
}

#[tokio::test]
async fn a_bot_sits_only_at_tables_that_invite_bots() {
    let app = spawn_app().await;
    let (mut bot, mut p) = bot_robo_and_person_pat(&app).await;

    let closed = p.create(json!({"variant": "classic-2"})).await;
    bot.send(json!({"t": "join", "d": {"table": closed}})).await;
    let e = bot.expect_error("bots_not_invited").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("bots"));
    p.send(
        json!({"t": "create_table", "d": {"variant": "classic-2", "rated": true, "bots": true}}),
    )
    .await;
    p.expect_error("rated_needs_accounts").await;

    let open = p
        .create(json!({"variant": "classic-2", "bots": true}))
        .await;
    let listed = app.get_json("/api/tables", None).await;
    let summary = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == open.as_str())
        .unwrap()
        .clone();
    assert_eq!(summary["bots"], true);
    bot.send(json!({"t": "join", "d": {"table": open}})).await;
    bot.event("started").await;
    p.event("started").await;
}
