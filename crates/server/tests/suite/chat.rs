//! Table chat over real WebSockets: players and spectators, stored with the game and
//! shown in the replay, rate-limited, and spectators' lines kept from the players of a
//! rated game.

use crate::common::{spawn_app, TestApp, Ws};
use serde_json::{json, Value};

async fn say(ws: &mut Ws, table: &str, text: &str) {
    ws.send(json!({"t": "chat", "d": {"table": table, "text": text}}))
        .await;
}

/// The next chat event, skipping everything else.
async fn chat_event(ws: &mut Ws) -> Value {
    ws.event("chat").await["d"].clone()
}

/// A started classic-2 table of two people and a spectator watching it.
async fn table_of_two(app: &TestApp, rated: bool) -> (String, Ws, Ws, Ws) {
    let (ca, cb, cs) = if rated {
        (
            app.register("ana").await,
            app.register("boris").await,
            app.register("sofia").await,
        )
    } else {
        (app.guest().await, app.guest().await, app.guest().await)
    };
    let mut a = app.ws(Some(&ca)).await;
    let mut b = app.ws(Some(&cb)).await;
    let mut s = app.ws(Some(&cs)).await;
    let table = a
        .create(json!({"variant": "classic-2", "rated": rated}))
        .await;
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    a.event("started").await;
    b.event("started").await;
    s.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = s.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["chat"], json!([]));
    (table, a, b, s)
}

#[tokio::test]
async fn chat_reaches_players_and_spectators_and_is_kept_in_the_replay() {
    let app = spawn_app().await;
    let (table, mut a, mut b, mut s) = table_of_two(&app, false).await;

    say(&mut a, &table, "  good <b>luck</b>\n").await;
    for ws in [&mut a, &mut b, &mut s] {
        let line = chat_event(ws).await;
        assert_eq!(line["text"], "good <b>luck</b>", "plain text, trimmed");
        assert_eq!(line["spectator"], false);
        assert!(!line["from"]["name"].as_str().unwrap().is_empty());
        assert!(!line["from"]["id"].as_str().unwrap().is_empty());
        assert!(line["at"].as_i64().unwrap() > 0);
    }
    // A casual game's spectators talk to everyone.
    say(&mut s, &table, "have fun").await;
    for ws in [&mut a, &mut b, &mut s] {
        let line = chat_event(ws).await;
        assert_eq!(line["text"], "have fun");
        assert_eq!(line["spectator"], true);
    }
    // Bad lines name what was wrong.
    say(&mut a, &table, "   ").await;
    a.expect_error("bad_chat").await;
    say(&mut a, &table, &"x".repeat(281)).await;
    let e = a.expect_error("bad_chat").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("280"));
    // Anonymous connections can only read.
    let mut anon = app.ws(None).await;
    say(&mut anon, &table, "hi").await;
    anon.expect_error("not_logged_in").await;

    // A late watcher gets the chat in its snapshot.
    let late = app.guest().await;
    let mut late = app.ws(Some(&late)).await;
    late.send(json!({"t": "watch", "d": {"table": table}}))
        .await;
    let snap = late.recv_until(|m| m["t"] == "table").await;
    let texts: Vec<&str> = snap["d"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["good <b>luck</b>", "have fun"]);

    b.send(json!({"t": "resign", "d": {"table": table}})).await;
    a.event("ended").await;
    let replay = app.get_json(&format!("/api/games/{table}"), None).await;
    let chat = replay["chat"].as_array().unwrap();
    assert_eq!(chat.len(), 2);
    assert_eq!(chat[0]["text"], "good <b>luck</b>");
    assert_eq!(chat[1]["spectator"], true);
}

#[tokio::test]
async fn chat_is_rate_limited_per_person() {
    let app = spawn_app().await;
    let (table, mut a, mut b, _s) = table_of_two(&app, false).await;
    for i in 0..5 {
        say(&mut a, &table, &format!("line {i}")).await;
        assert_eq!(chat_event(&mut a).await["text"], format!("line {i}"));
    }
    say(&mut a, &table, "one too many").await;
    let e = a.expect_error("rate_limited").await;
    assert!(e["d"]["message"]
        .as_str()
        .unwrap()
        .contains("chatting too fast"));
    // The other player is not limited by it.
    say(&mut b, &table, "my turn to talk").await;
    b.recv_until(|m| m["t"] == "event" && m["d"]["text"] == "my turn to talk")
        .await;
    let replay = app.get_json(&format!("/api/games/{table}"), None).await;
    assert_eq!(replay["chat"].as_array().unwrap().len(), 6);
}

#[tokio::test]
async fn spectators_are_not_heard_by_the_players_of_a_rated_game() {
    let app = spawn_app().await;
    let (table, mut a, mut b, mut s) = table_of_two(&app, true).await;

    say(&mut s, &table, "white should push the left flank").await;
    let own = chat_event(&mut s).await;
    assert_eq!(own["spectator"], true);
    assert_eq!(own["hidden_from_players"], true);
    // The players get a placeholder that keeps the numbering, never the text.
    for ws in [&mut a, &mut b] {
        let withheld = ws.event("withheld").await;
        assert_eq!(withheld["d"]["v"], own["v"]);
        assert!(withheld["d"].get("text").is_none());
    }
    // Players still talk to everyone.
    say(&mut a, &table, "gl hf").await;
    for ws in [&mut a, &mut b, &mut s] {
        assert_eq!(chat_event(ws).await["text"], "gl hf");
    }
    // A player's snapshot leaves the spectator's line out; the spectator's has it.
    a.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = a.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["chat"].as_array().unwrap().len(), 1);
    assert_eq!(snap["d"]["chat"][0]["text"], "gl hf");
    s.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = s.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["chat"].as_array().unwrap().len(), 2);
    // Nor can a player read it in the replay data while the game is played.
    let live = app.get_json(&format!("/api/games/{table}"), None).await;
    assert_eq!(live["chat"].as_array().unwrap().len(), 1);

    // After the game the replay shows everything.
    a.send(json!({"t": "resign", "d": {"table": table}})).await;
    b.event("ended").await;
    let replay = app.get_json(&format!("/api/games/{table}"), None).await;
    let chat = replay["chat"].as_array().unwrap();
    assert_eq!(chat.len(), 2);
    assert_eq!(chat[0]["text"], "white should push the left flank");
    assert_eq!(chat[0]["hidden_from_players"], true);
}
