//! Direct challenges over real WebSockets: a registered player challenges another by
//! name; accepting starts a private classic-2 table with both seated; declining,
//! taking it back, the challenger leaving and expiry end it and both hear why; the
//! limits and refusals name what was wrong.

use crate::common::{spawn_app, spawn_app_at, Ws};
use serde_json::{json, Value};

/// Each of `clients` hears that the challenge `id` ended for `reason`.
async fn all_hear_ended(clients: [&mut Ws; 2], id: &Value, reason: &str) {
    for ws in clients {
        let m = ws.recv_until(|m| m["t"] == "challenge_ended").await;
        assert_eq!(m["d"], json!({"id": id, "reason": reason}));
    }
}

#[tokio::test]
async fn an_accepted_challenge_starts_a_private_table_with_both_seated() {
    let app = spawn_app().await;
    let (ac, bc) = (app.register("ann").await, app.register("bob").await);
    let mut a = app.ws(Some(&ac)).await;
    let mut b = app.ws(Some(&bc)).await;

    let sent = a
        .challenge(
            "BOB",
            json!({"time": {"minutes": 5, "increment": 3}, "rated": true}),
        )
        .await;
    assert_eq!(sent["t"], "challenge", "{sent}");
    let id = sent["d"]["id"].as_str().unwrap().to_owned();
    assert_eq!(sent["d"]["from"]["name"], "ann");
    assert_eq!(sent["d"]["to"]["name"], "bob");
    let got = b.recv_until(|m| m["t"] == "challenge").await;
    assert_eq!(got["d"]["id"], id.as_str());
    assert_eq!(got["d"]["time"], json!({"minutes": 5, "increment": 3}));
    assert_eq!(got["d"]["rated"], true);

    // The challenger cannot accept their own challenge.
    a.send(json!({"t": "challenge_accept", "d": {"id": id}}))
        .await;
    a.expect_error("no_such_challenge").await;

    let table = &b.accept_challenge(&id, &mut a).await;

    // Both sit there (players come back without an invitation); the game is live.
    a.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = a.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live");
    assert_eq!(snap["d"]["variant"], "classic-2");
    assert_eq!(snap["d"]["rated"], true);
    assert_eq!(snap["d"]["private"], true);
    assert_eq!(snap["d"]["time"], json!({"minutes": 5, "increment": 3}));
    let mut names: Vec<&str> = snap["d"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"]["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, vec!["ann", "bob"]);
    b.send(json!({"t": "watch", "d": {"table": table}})).await;
    b.recv_until(|m| m["t"] == "table").await;

    // Not listed in the lobby, and the challenge is over.
    let listed = app.get_json("/api/tables", None).await;
    assert_eq!(listed["tables"], json!([]));
    b.send(json!({"t": "challenge_accept", "d": {"id": id}}))
        .await;
    b.expect_error("no_such_challenge").await;
}

#[tokio::test]
async fn declining_cancelling_and_leaving_end_a_challenge_for_both() {
    let app = spawn_app().await;
    let (ac, bc) = (app.register("ann").await, app.register("bob").await);
    let mut a = app.ws(Some(&ac)).await;
    let mut b = app.ws(Some(&bc)).await;

    let id = a.challenge("bob", json!({})).await["d"]["id"].clone();
    b.recv_until(|m| m["t"] == "challenge").await;
    b.send(json!({"t": "challenge_decline", "d": {"id": id}}))
        .await;
    all_hear_ended([&mut a, &mut b], &id, "declined").await;

    let id = a.challenge("bob", json!({})).await["d"]["id"].clone();
    b.recv_until(|m| m["t"] == "challenge").await;
    // Only the challenger takes it back.
    b.send(json!({"t": "challenge_cancel", "d": {"id": id}}))
        .await;
    b.expect_error("no_such_challenge").await;
    a.send(json!({"t": "challenge_cancel", "d": {"id": id}}))
        .await;
    all_hear_ended([&mut a, &mut b], &id, "cancelled").await;

    // Bob sees what waits for him when he opens the lobby.
    let id = a.challenge("bob", json!({})).await["d"]["id"].clone();
    let mut b2 = app.ws(Some(&bc)).await;
    b2.send(json!({"t": "lobby_subscribe"})).await;
    let list = b2.recv_until(|m| m["t"] == "challenges").await;
    assert_eq!(list["d"]["challenges"][0]["id"], id);

    // The challenger closes the page: both of Bob's connections hear it.
    drop(a);
    all_hear_ended([&mut b, &mut b2], &id, "left").await;
    b.send(json!({"t": "challenge_accept", "d": {"id": id}}))
        .await;
    b.expect_error("no_such_challenge").await;
}

#[tokio::test]
async fn refusals_name_what_was_wrong() {
    let app = spawn_app().await;
    let ac = app.register("ann").await;
    let mut a = app.ws(Some(&ac)).await;
    let mut users = Vec::new();
    for name in ["bob", "cid", "dan", "eve"] {
        let c = app.register(name).await;
        users.push(app.ws(Some(&c)).await);
    }
    let gc = app.guest().await;
    let mut g = app.ws(Some(&gc)).await;
    let _off = app.register("olga").await;

    let refused = |m: Value, code: &str| {
        assert_eq!(m["t"], "error", "{m}");
        assert_eq!(m["d"]["code"], code, "{m}");
        m["d"]["message"].as_str().unwrap().to_owned()
    };
    let e = refused(a.challenge("ann", json!({})).await, "cannot_challenge");
    assert!(e.contains("yourself"), "{e}");
    let e = refused(a.challenge("nobody", json!({})).await, "no_such_user");
    assert!(e.contains("nobody"), "{e}");
    let e = refused(a.challenge("olga", json!({})).await, "cannot_challenge");
    assert!(e.contains("not connected"), "{e}");
    let me = app.get_json("/api/me", Some(&gc)).await;
    let guest_name = me["user"]["name"].as_str().unwrap().to_owned();
    let e = refused(
        a.challenge(&guest_name, json!({})).await,
        "cannot_challenge",
    );
    assert!(e.contains("guest"), "{e}");
    let e = refused(g.challenge("ann", json!({})).await, "cannot_challenge");
    assert!(e.contains("registered"), "{e}");
    refused(
        a.challenge("bob", json!({"time": {"minutes": 0, "increment": 0}}))
            .await,
        "bad_time_control",
    );
    refused(
        a.challenge("bob", json!({"move_time": 7})).await,
        "bad_time_control",
    );

    // Three open challenges at once, one per person.
    for name in ["bob", "cid", "dan"] {
        assert_eq!(a.challenge(name, json!({})).await["t"], "challenge");
    }
    let e = refused(a.challenge("bob", json!({})).await, "cannot_challenge");
    assert!(e.contains("already"), "{e}");
    let e = refused(a.challenge("eve", json!({})).await, "too_many_challenges");
    assert!(e.contains('3'), "{e}");
    a.assert_alive().await;
}

#[tokio::test]
async fn an_unanswered_challenge_expires_after_three_minutes() {
    let (app, time) = spawn_app_at(5_000_000, None).await;
    let (ac, bc) = (app.register("ann").await, app.register("bob").await);
    let mut a = app.ws(Some(&ac)).await;
    let mut b = app.ws(Some(&bc)).await;
    let sent = a.challenge("bob", json!({})).await;
    assert_eq!(sent["d"]["expires_at"], 5_180_000);
    let id = sent["d"]["id"].clone();
    b.recv_until(|m| m["t"] == "challenge").await;
    time.advance(179_000);
    b.send(json!({"t": "lobby_subscribe"})).await;
    let list = b.recv_until(|m| m["t"] == "challenges").await;
    assert_eq!(list["d"]["challenges"][0]["id"], id, "still open");
    time.advance(1_000);
    all_hear_ended([&mut a, &mut b], &id, "expired").await;
    b.send(json!({"t": "challenge_accept", "d": {"id": id}}))
        .await;
    b.expect_error("no_such_challenge").await;
}
