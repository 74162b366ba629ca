//! Private tables over real WebSockets: absent from the lobby, refused without the
//! invitation, open to whoever holds it.

use crate::common::spawn_app;
use serde_json::json;

#[tokio::test]
async fn a_private_table_is_hidden_and_needs_its_invitation() {
    let app = spawn_app().await;
    let host = app.guest().await;
    let friend = app.guest().await;
    let stranger = app.guest().await;
    let mut lobby = app.ws(Some(&stranger)).await;
    lobby.send(json!({"t": "lobby_subscribe"})).await;
    lobby.recv_until(|m| m["t"] == "lobby").await;

    let mut h = app.ws(Some(&host)).await;
    h.send(json!({"t": "create_table", "d": {"variant": "classic-2", "private": true}}))
        .await;
    let created = h.recv_until(|m| m["t"] == "table_created").await;
    let table = created["d"]["table"].as_str().unwrap().to_owned();
    let invite = created["d"]["invite"].as_str().unwrap().to_owned();
    assert!(invite.len() >= 16, "an unguessable invitation");
    let snap = h.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["private"], true);

    // Not in the lobby, live or by HTTP.
    let public = h.create(json!({"variant": "classic-3"})).await;
    let update = lobby.recv_until(|m| m["t"] == "lobby_update").await;
    assert_eq!(
        update["d"]["id"],
        public.as_str(),
        "the private one was never listed"
    );
    let listed = app.get_json("/api/tables", None).await;
    let ids: Vec<&str> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![public.as_str()]);

    // Without the invitation (or with a wrong one) nobody watches or sits.
    let mut s = app.ws(Some(&stranger)).await;
    s.send(json!({"t": "watch", "d": {"table": table}})).await;
    let e = s.expect_error("invitation_required").await;
    assert!(e["d"]["message"].as_str().unwrap().contains("invitation"));
    s.send(json!({"t": "join", "d": {"table": table, "invite": "nope"}}))
        .await;
    s.expect_error("invitation_required").await;
    let mut anon = app.ws(None).await;
    anon.send(json!({"t": "watch", "d": {"table": table}}))
        .await;
    anon.expect_error("invitation_required").await;

    // With it, a friend sits down and the game starts.
    let mut f = app.ws(Some(&friend)).await;
    f.send(json!({"t": "join", "d": {"table": table, "invite": invite}}))
        .await;
    f.event("started").await;
    h.event("started").await;
    // Players come back without the link; spectators need it.
    f.send(json!({"t": "watch", "d": {"table": table}})).await;
    f.recv_until(|m| m["t"] == "table").await;
    anon.send(json!({"t": "watch", "d": {"table": table, "invite": invite}}))
        .await;
    let snap = anon.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live");
}
