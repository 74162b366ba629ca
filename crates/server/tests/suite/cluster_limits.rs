//! The per-user table limits hold across nodes under concurrency: many creations by
//! one user at once, spread over two nodes, never pass the limit (the check is one
//! atomic step in Redis for every node), and once the tables close the user can
//! create again.
//!
//! Redis is found (or the tests skipped) as in `common::cluster`.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{json, Value};

use crate::common::cluster::two_node_cluster;
use crate::common::{TestApp, Ws};

/// How many connections per node ask at once.
const PER_NODE: usize = 6;

/// Sends one `create_table` on every connection at once; returns the tables made and
/// the error codes of the refusals.
async fn create_at_once(clients: &mut [Ws], d: &Value) -> (Vec<String>, Vec<String>) {
    let answers = join_all(clients.iter_mut().map(|ws| ws.try_create(d.clone()))).await;
    let mut made = Vec::new();
    let mut refused = Vec::new();
    for m in answers {
        match m["d"]["table"].as_str() {
            Some(t) if m["t"] == "table_created" => made.push(t.to_owned()),
            _ => refused.push(m["d"]["code"].as_str().unwrap_or("").to_owned()),
        }
    }
    (made, refused)
}

/// [`create_at_once`], checking that exactly `limit` tables are made and every other
/// request is refused with `code`: the tables made.
async fn create_up_to_the_limit(
    clients: &mut [Ws],
    d: &Value,
    limit: usize,
    code: &str,
) -> Vec<String> {
    let (made, refused) = create_at_once(clients, d).await;
    assert_eq!(made.len(), limit, "made {made:?}, refused {refused:?}");
    assert!(refused.iter().all(|c| c == code), "{refused:?}");
    made
}

/// Open and live tables created by `user` in the database.
async fn unfinished_of(app: &TestApp, user: &str) -> usize {
    app.state
        .storage
        .unfinished_games()
        .await
        .unwrap()
        .iter()
        .filter(|g| g.created_by.as_deref() == Some(user))
        .count()
}

/// Waits until neither node lists any of `tables`.
async fn unlisted(nodes: [&TestApp; 2], tables: &[String]) {
    let deadline = Instant::now() + Duration::from_secs(8);
    while nodes
        .iter()
        .any(|n| n.state.lobby.list().iter().any(|t| tables.contains(&t.id)))
    {
        assert!(
            Instant::now() < deadline,
            "the closed tables leave both lobbies"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Creates one table of `d` on `ws`, asking again while the limit still counts tables
/// that closed (for at most 8 s); returns it.
async fn create_when_allowed(ws: &mut Ws, d: &Value, code: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(8);
    loop {
        let (made, refused) = create_at_once(std::slice::from_mut(ws), d).await;
        if let Some(t) = made.into_iter().next() {
            return t;
        }
        assert_eq!(refused, [code]);
        assert!(Instant::now() < deadline, "allowed again within 8 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Both nodes and `PER_NODE` connections of the session `cookie` on each.
async fn clients(n1: &TestApp, n2: &TestApp, cookie: &str) -> Vec<Ws> {
    let mut all = Vec::new();
    for node in [n1, n2] {
        for _ in 0..PER_NODE {
            all.push(node.ws(Some(cookie)).await);
        }
    }
    all
}

#[tokio::test]
async fn creations_at_once_on_two_nodes_never_pass_the_open_tables_limit() {
    let test = "creations_at_once_on_two_nodes_never_pass_the_open_tables_limit";
    let Some((_redis, n1, n2)) = two_node_cluster(test).await else {
        return;
    };
    let limit = n1.state.config.max_open_tables;
    assert!(
        2 * PER_NODE > 2 * limit,
        "more requests than two nodes' worth"
    );
    let cookie = n1.register("eager").await;
    let me = n1.user_id(&cookie).await;
    let mut all = clients(&n1, &n2, &cookie).await;
    let open = json!({"variant": "classic-3"});

    let made = create_up_to_the_limit(&mut all, &open, limit, "too_many_tables").await;
    assert_eq!(unfinished_of(&n1, &me).await, limit);
    // Asking again on either node is refused too.
    for i in [0, PER_NODE] {
        let (more, refused) = create_at_once(&mut all[i..=i], &open).await;
        assert!(more.is_empty(), "{more:?}");
        assert_eq!(refused, ["too_many_tables"]);
    }

    // The user leaves every table (each closes, nobody is left): they count no more.
    for t in &made {
        all[0].send(json!({"t": "leave", "d": {"table": t}})).await;
    }
    unlisted([&n1, &n2], &made).await;
    assert_eq!(unfinished_of(&n1, &me).await, 0);
    let first = create_when_allowed(&mut all[PER_NODE], &open, "too_many_tables").await;
    let (again, _) = create_at_once(&mut all, &open).await;
    assert_eq!(again.len() + 1, limit, "{first} and {again:?}");
    assert_eq!(unfinished_of(&n2, &me).await, limit);
}

#[tokio::test]
async fn computer_tables_at_once_on_two_nodes_never_pass_their_limit() {
    let test = "computer_tables_at_once_on_two_nodes_never_pass_their_limit";
    let Some((_redis, n1, n2)) = two_node_cluster(test).await else {
        return;
    };
    let limit = n1.state.config.max_computer_tables;
    let guest = n2.guest().await;
    let me = n2.user_id(&guest).await;
    let mut all = clients(&n1, &n2, &guest).await;
    let vs_computer = json!({"variant": "classic-2", "seats": ["me", {"computer": 1}]});

    let made =
        create_up_to_the_limit(&mut all, &vs_computer, limit, "too_many_computer_tables").await;
    assert_eq!(unfinished_of(&n1, &me).await, limit);

    // Resigning ends the games; then the user may play the computer again.
    for t in &made {
        all[0].send(json!({"t": "resign", "d": {"table": t}})).await;
    }
    unlisted([&n1, &n2], &made).await;
    let first = create_when_allowed(&mut all[0], &vs_computer, "too_many_computer_tables").await;
    let (again, _) = create_at_once(&mut all, &vs_computer).await;
    assert_eq!(again.len() + 1, limit, "{first} and {again:?}");
}

#[tokio::test]
async fn the_tables_of_a_node_gone_away_stop_counting_on_their_own() {
    let test = "the_tables_of_a_node_gone_away_stop_counting_on_their_own";
    let Some((_redis, n1, n2)) = two_node_cluster(test).await else {
        return;
    };
    let limit = n1.state.config.max_open_tables;
    let cookie = n1.register("stranded").await;
    let mut on_n1 = vec![n1.ws(Some(&cookie)).await];
    let mut on_n2 = vec![n2.ws(Some(&cookie)).await];
    let open = json!({"variant": "classic-3"});
    let mut made = Vec::new();
    for _ in 0..limit {
        made.extend(create_at_once(&mut on_n2, &open).await.0);
    }
    assert_eq!(made.len(), limit);
    let (none, refused) = create_at_once(&mut on_n1, &open).await;
    assert!(
        none.is_empty() && refused == ["too_many_tables"],
        "{refused:?}"
    );

    // The node goes away and writes nothing more to Redis: what it wrote lapses by
    // itself (5 s), and the user creates again on the other node.
    drop(on_n2);
    let gone = Instant::now();
    n2.stop().await;
    unlisted([&n1, &n1], &made).await;
    create_when_allowed(&mut on_n1[0], &open, "too_many_tables").await;
    assert!(
        gone.elapsed() < Duration::from_secs(8),
        "{:?}",
        gone.elapsed()
    );
}
