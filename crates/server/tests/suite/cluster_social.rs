//! The social side of a cluster: quick pairing between players on different nodes,
//! per-user table limits counted over every node, logging out on one node closing the
//! sockets on the others, and the open tables of a node that died leaving the lobby.
//!
//! Redis is found (or the tests skipped) by `common::cluster::redis`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::json;
use stella_engine::{Game, Variant};

use crate::common::cluster::{
    cluster_node, redis, two_node_cluster, two_player_cluster, TwoPlayers,
};
use crate::common::play::{next_greedy, play};
use crate::common::{listing, TestApp, Ws};

/// Asks for quick pairing at `minutes`+`increment`. Each test pairs at a time control
/// of its own, so that tests sharing one Redis (`STELLA_TEST_REDIS`) pair nobody
/// across them.
async fn quick_pair_at(ws: &mut Ws, (minutes, increment): (i64, i64)) {
    ws.send(json!({"t": "quick_pair", "d": {"minutes": minutes, "increment": increment}}))
        .await;
}

/// The table of the next `paired`.
async fn paired(ws: &mut Ws) -> String {
    let m = ws
        .recv_until(|m| m["t"] == "paired" || m["t"] == "error")
        .await;
    assert_eq!(m["t"], "paired", "{m}");
    m["d"]["table"].as_str().unwrap().to_owned()
}

/// Checks that nothing but other traffic comes before the answer to a ping: no
/// `paired` and no error.
async fn nothing_more(ws: &mut Ws) {
    ws.send(json!({"t": "ping", "d": {"n": 7}})).await;
    loop {
        let m = ws.recv().await;
        assert!(m["t"] != "paired" && m["t"] != "error", "unexpected {m}");
        if m["t"] == "pong" {
            return;
        }
    }
}

/// Waits up to `limit` for `cond`.
async fn eventually(limit: Duration, what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < deadline, "{what} within {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn players_on_two_nodes_are_paired_at_one_table_and_play() {
    let Some((_redis, players)) =
        two_player_cluster("players_on_two_nodes_are_paired_at_one_table_and_play").await
    else {
        return;
    };
    let TwoPlayers {
        n1: _n1,
        n2: _n2,
        mut a,
        mut b,
        ..
    } = players;

    quick_pair_at(&mut a, (1, 0)).await;
    a.assert_alive().await;
    quick_pair_at(&mut b, (1, 0)).await;
    let table = paired(&mut b).await;
    assert_eq!(paired(&mut a).await, table, "one table for both");

    // Both follow it, each on their own node; ana waited longer and plays first.
    for ws in [&mut a, &mut b] {
        ws.send(json!({"t": "watch", "d": {"table": table}})).await;
        let snap = ws.recv_until(|m| m["t"] == "table").await;
        assert_eq!(snap["d"]["status"], "live");
        assert_eq!(snap["d"]["rated"], true);
        assert_eq!(snap["d"]["seats"][0]["player"]["name"], "ana");
        assert_eq!(snap["d"]["seats"][1]["player"]["name"], "boris");
    }
    let mut game = Game::new(Variant::Classic2);
    for ply in 1..=2 {
        let (mv, path) = next_greedy(&game);
        if ply == 1 {
            play(&mut a, &mut [&mut b], &table, &path, ply, 1).await;
        } else {
            play(&mut b, &mut [&mut a], &table, &path, ply, 1).await;
        }
        game.play(&mv).unwrap();
    }
}

#[tokio::test]
async fn a_request_cancelled_or_left_on_one_node_pairs_nobody_on_another() {
    let Some((_redis, n1, n2)) =
        two_node_cluster("a_request_cancelled_or_left_on_one_node_pairs_nobody_on_another").await
    else {
        return;
    };
    let mut clients = Vec::new();
    for node in [&n1, &n1, &n2, &n1] {
        let cookie = node.guest().await;
        clients.push(node.ws(Some(&cookie)).await);
    }
    let [mut cancels, mut leaves, mut waits, mut comes] =
        <[Ws; 4]>::try_from(clients).ok().unwrap();

    quick_pair_at(&mut cancels, (3, 2)).await;
    cancels.send(json!({"t": "quick_pair_cancel"})).await;
    cancels.assert_alive().await;
    quick_pair_at(&mut leaves, (3, 2)).await;
    leaves.assert_alive().await;
    drop(leaves);
    // The close reaches node 1 and its queue entry leaves Redis.
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Neither the cancelled nor the closed request is taken: `waits` waits.
    quick_pair_at(&mut waits, (3, 2)).await;
    nothing_more(&mut waits).await;
    nothing_more(&mut cancels).await;
    quick_pair_at(&mut comes, (3, 2)).await;
    let table = paired(&mut comes).await;
    assert_eq!(paired(&mut waits).await, table);
    nothing_more(&mut cancels).await;
}

#[tokio::test]
async fn many_players_on_three_nodes_are_each_paired_exactly_once() {
    let Some((redis, n1, n2)) =
        two_node_cluster("many_players_on_three_nodes_are_each_paired_exactly_once").await
    else {
        return;
    };
    let n3 = cluster_node(&redis.url(), Some(&n1)).await;
    let nodes = [&n1, &n2, &n3];
    // 7, 7 and 6 players on the three nodes: pairing within each node alone would
    // leave two waiting.
    const PLAYERS: usize = 20;
    let mut clients = Vec::new();
    let mut ids = Vec::new();
    for i in 0..PLAYERS {
        let node = nodes[i % nodes.len()];
        let cookie = node.guest().await;
        ids.push(node.user_id(&cookie).await);
        clients.push(node.ws(Some(&cookie)).await);
    }
    // Everyone asks at once.
    join_all(clients.iter_mut().map(|c| quick_pair_at(c, (10, 5)))).await;
    let tables = join_all(clients.iter_mut().map(paired)).await;

    // Every table has exactly two of the players, each a different one.
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, t) in tables.iter().enumerate() {
        at.entry(t.as_str()).or_default().push(i);
    }
    assert_eq!(at.len(), PLAYERS / 2, "{at:?}");
    let mut watcher = n1.ws(None).await;
    for (table, players) in &at {
        assert_eq!(players.len(), 2, "table {table}: {players:?}");
        watcher
            .send(json!({"t": "watch", "d": {"table": table}}))
            .await;
        let snap = watcher
            .recv_until(|m| m["t"] == "table" && m["d"]["id"] == *table)
            .await;
        let mut seated: Vec<String> = (0..2)
            .map(|s| {
                snap["d"]["seats"][s]["player"]["id"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        let mut expected: Vec<String> = players.iter().map(|&i| ids[i].clone()).collect();
        seated.sort();
        expected.sort();
        assert_eq!(seated, expected, "table {table}");
    }
    // Nobody gets a second table.
    join_all(clients.iter_mut().map(nothing_more)).await;
}

#[tokio::test]
async fn the_table_limits_count_tables_on_every_node() {
    let Some((_redis, n1, n2)) =
        two_node_cluster("the_table_limits_count_tables_on_every_node").await
    else {
        return;
    };
    let open_limit = n1.state.config.max_open_tables;
    let computer_limit = n1.state.config.max_computer_tables;
    let cookie = n1.register("limited").await;
    let me = n1.user_id(&cookie).await;
    let mut w1 = n1.ws(Some(&cookie)).await;
    let mut w2 = n2.ws(Some(&cookie)).await;

    // Open tables: all but one made on node 1, the last on node 2, then none more.
    for _ in 0..open_limit - 1 {
        w1.create(json!({"variant": "classic-3"})).await;
    }
    eventually(Duration::from_secs(5), "node 2 counts them", || {
        n2.state.lobby.holdings(&me).open_tables == open_limit - 1
    })
    .await;
    w2.create(json!({"variant": "classic-3"})).await;
    let m = w2.try_create(json!({"variant": "classic-3"})).await;
    assert_eq!(m["d"]["code"], "too_many_tables", "{m}");
    eventually(Duration::from_secs(5), "node 1 counts them", || {
        n1.state.lobby.holdings(&me).open_tables == open_limit
    })
    .await;
    let m = w1.try_create(json!({"variant": "classic-3"})).await;
    assert_eq!(m["d"]["code"], "too_many_tables", "{m}");

    // Tables with computer seats (live at once, so not open): the same.
    let guest = n1.guest().await;
    let gid = n1.user_id(&guest).await;
    let mut g1 = n1.ws(Some(&guest)).await;
    let mut g2 = n2.ws(Some(&guest)).await;
    let vs_computer = json!({"variant": "classic-2", "seats": ["me", {"computer": 1}]});
    for _ in 0..computer_limit - 1 {
        g1.create(vs_computer.clone()).await;
    }
    eventually(Duration::from_secs(5), "node 2 counts them", || {
        n2.state.lobby.holdings(&gid).computer_tables == computer_limit - 1
    })
    .await;
    g2.create(vs_computer.clone()).await;
    let m = g2.try_create(vs_computer.clone()).await;
    assert_eq!(m["d"]["code"], "too_many_computer_tables", "{m}");
    eventually(Duration::from_secs(5), "node 1 counts them", || {
        n1.state.lobby.holdings(&gid).computer_tables == computer_limit
    })
    .await;
    let m = g1.try_create(vs_computer).await;
    assert_eq!(m["d"]["code"], "too_many_computer_tables", "{m}");
}

#[tokio::test]
async fn logging_out_on_one_node_closes_the_sockets_on_another() {
    let Some((_redis, n1, n2)) =
        two_node_cluster("logging_out_on_one_node_closes_the_sockets_on_another").await
    else {
        return;
    };
    let cookie = n1.register("leaver").await;
    let other = n1.register("stayer").await;
    let mut there = n2.ws(Some(&cookie)).await;
    let mut stays = n2.ws(Some(&other)).await;
    there.assert_alive().await;

    let started = Instant::now();
    let res = n1.post("/api/logout", Some(&cookie), json!({})).await;
    assert!(res.status().is_success(), "logout: {}", res.status());
    there.expect_error("session_ended").await;
    // Well before the sockets' own periodic session check.
    assert!(started.elapsed() < Duration::from_secs(10));
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match futures_util::StreamExt::next(&mut there.stream).await {
                None | Some(Err(_)) => return,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the socket on node 2 closes");
    stays.assert_alive().await;
}

#[tokio::test]
async fn a_dead_nodes_open_table_leaves_the_other_nodes_lobby() {
    let Some((redis, n1, n2)) =
        two_node_cluster("a_dead_nodes_open_table_leaves_the_other_nodes_lobby").await
    else {
        return;
    };
    let cookie = n1.guest().await;
    let mut w1 = n1.ws(Some(&cookie)).await;
    let alive = w1.create(json!({"variant": "classic-2"})).await;

    // A third node, speaking on the bus as a node does: it lists an open table and
    // sends heartbeats naming it, then dies without a word.
    let ghost = redis.connect_bus().await;
    let listing = json!({"l": "update", "from": "ghost", "summary": listing::open_duel("ghost-table", "ghost-user", "ghost")});
    ghost
        .publish("stella:lobby", listing.to_string().as_bytes())
        .await
        .unwrap();
    let beat = json!({"node": "ghost", "tables": [{"id": "ghost-table", "owner": "ghost-user"}]});
    let listed = |app: &TestApp, id: &str| app.state.lobby.list().iter().any(|t| t.id == id);
    eventually(Duration::from_secs(5), "node 2 lists the table", || {
        listed(&n2, "ghost-table")
    })
    .await;
    // While its heartbeats come, the table stays listed (well past the silence
    // allowed), and counts for its creator.
    let vouched_until = Instant::now() + Duration::from_secs(6);
    while Instant::now() < vouched_until {
        ghost
            .publish("stella:heartbeat", beat.to_string().as_bytes())
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(listed(&n2, "ghost-table") && listed(&n1, "ghost-table"));
    }
    assert_eq!(n2.state.lobby.holdings("ghost-user").open_tables, 1);

    // The node dies: its table leaves both lobbies within a few seconds, and a lobby
    // subscriber hears of it; the live node's table stays.
    let died = Instant::now();
    let mut lobby = n2.ws(None).await;
    lobby.send(json!({"t": "lobby_subscribe"})).await;
    let removed = lobby
        .recv_until(|m| m["t"] == "lobby_remove" && m["d"]["table"] == "ghost-table")
        .await;
    assert_eq!(removed["d"]["table"], "ghost-table");
    eventually(Duration::from_secs(8), "node 1 forgets it too", || {
        !listed(&n1, "ghost-table")
    })
    .await;
    assert!(
        died.elapsed() < Duration::from_secs(8),
        "{:?}",
        died.elapsed()
    );
    assert!(listed(&n1, &alive) && listed(&n2, &alive));
}

/// Sends a challenge to `to` and returns the answer: the `challenge` or an error.
#[tokio::test]
async fn a_challenge_reaches_a_player_on_another_node_and_every_answer_comes_back() {
    let Some((_redis, n1, n2)) = two_node_cluster(
        "a_challenge_reaches_a_player_on_another_node_and_every_answer_comes_back",
    )
    .await
    else {
        return;
    };
    let (ac, bc) = (n1.register("ann").await, n1.register("bob").await);
    let absent = n1.register("carl").await;
    let mut a = n1.ws(Some(&ac)).await;
    let mut b = n2.ws(Some(&bc)).await;
    // ann's second connection, on node 2.
    let mut a2 = n2.ws(Some(&ac)).await;

    // Nobody named carl is connected anywhere.
    let refused = a.challenge("carl", json!({})).await;
    assert_eq!(refused["d"]["code"], "cannot_challenge", "{refused}");
    drop(absent);

    // ann (node 1) challenges bob (node 2): he hears of it, and so does ann's other
    // connection; a list asked for on node 2 has it.
    let mut sent = a.challenge("bob", json!({})).await;
    for _ in 0..50 {
        // bob's mark may still be on its way to Redis.
        if sent["t"] == "challenge" {
            break;
        }
        assert_eq!(sent["d"]["code"], "cannot_challenge", "{sent}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        sent = a.challenge("bob", json!({})).await;
    }
    assert_eq!(sent["t"], "challenge", "{sent}");
    let id = sent["d"]["id"].as_str().unwrap().to_owned();
    let got = b.recv_until(|m| m["t"] == "challenge").await;
    assert_eq!(got["d"]["id"], id.as_str());
    a2.recv_until(|m| m["t"] == "challenge").await;
    b.send(json!({"t": "lobby_subscribe"})).await;
    let listed = b.recv_until(|m| m["t"] == "challenges").await;
    assert_eq!(listed["d"]["challenges"][0]["id"], id.as_str(), "{listed}");
    // A second challenge of the same pair, from ann's node-2 connection, is refused.
    let again = a2.challenge("bob", json!({})).await;
    assert_eq!(again["d"]["code"], "cannot_challenge", "{again}");

    // bob accepts on node 2: both get the table, sit there and play.
    let table = b.accept_challenge(&id, &mut a).await;
    let mut first = None;
    for ws in [&mut a, &mut b] {
        ws.send(json!({"t": "watch", "d": {"table": table}})).await;
        let snap = ws.recv_until(|m| m["t"] == "table").await;
        assert_eq!(snap["d"]["status"], "live", "{snap}");
        first = snap["d"]["seats"][0]["player"]["name"]
            .as_str()
            .map(str::to_owned);
    }
    let game = Game::new(Variant::Classic2);
    let (_, path) = next_greedy(&game);
    if first.as_deref() == Some("ann") {
        play(&mut a, &mut [&mut b], &table, &path, 1, 1).await;
    } else {
        play(&mut b, &mut [&mut a], &table, &path, 1, 1).await;
    }

    // bob challenges ann (held on node 2); ann declines on node 1.
    let sent = b.challenge("ann", json!({})).await;
    let id = sent["d"]["id"].as_str().unwrap().to_owned();
    a.recv_until(|m| m["t"] == "challenge" && m["d"]["id"] == id.as_str())
        .await;
    a.send(json!({"t": "challenge_decline", "d": {"id": id}}))
        .await;
    for ws in [&mut a, &mut b] {
        let m = ws.recv_until(|m| m["t"] == "challenge_ended").await;
        assert_eq!(m["d"]["id"], id.as_str());
        assert_eq!(m["d"]["reason"], "declined");
    }

    // ann challenges bob from node 1 and takes it back from node 2; bob cannot take
    // back what he did not send.
    let sent = a.challenge("bob", json!({})).await;
    let id = sent["d"]["id"].as_str().unwrap().to_owned();
    a2.recv_until(|m| m["t"] == "challenge" && m["d"]["id"] == id.as_str())
        .await;
    b.send(json!({"t": "challenge_cancel", "d": {"id": id}}))
        .await;
    b.expect_error("no_such_challenge").await;
    a2.send(json!({"t": "challenge_cancel", "d": {"id": id}}))
        .await;
    for ws in [&mut a, &mut b] {
        let m = ws
            .recv_until(|m| m["t"] == "challenge_ended" && m["d"]["id"] == id.as_str())
            .await;
        assert_eq!(m["d"]["reason"], "cancelled");
    }

    // bob leaves node 2 altogether: ann can no longer challenge him.
    drop(b);
    let mut gone = false;
    for _ in 0..50 {
        let m = a.challenge("bob", json!({})).await;
        if m["t"] == "error" {
            assert_eq!(m["d"]["code"], "cannot_challenge", "{m}");
            gone = true;
            break;
        }
        let id = m["d"]["id"].as_str().unwrap().to_owned();
        a.send(json!({"t": "challenge_cancel", "d": {"id": id}}))
            .await;
        a.recv_until(|m| m["t"] == "challenge_ended").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "bob counts as gone once his connection closed");
}

#[tokio::test]
async fn requests_of_a_dead_node_and_earlier_requests_of_the_same_user_pair_nobody() {
    let Some((redis, n1, n2)) = two_node_cluster(
        "requests_of_a_dead_node_and_earlier_requests_of_the_same_user_pair_nobody",
    )
    .await
    else {
        return;
    };
    // A request left in the 5+3 queue by a node that died.
    let bus = redis.connect_bus().await;
    let dead = json!({
        "node": "dead-node",
        "conn": 1,
        "user": {"id": "ghost", "name": "ghost", "guest": true, "bot": false},
        "ticket": "t",
    });
    let mut push = redis::cmd("RPUSH");
    push.arg("stella:pairing:queue:300000+3000")
        .arg(dead.to_string());
    assert_eq!(bus.command::<i64>(&push).await.unwrap(), 1);

    let (ana, bo) = (n1.register("ana").await, n1.register("boris").await);
    let mut a1 = n1.ws(Some(&ana)).await;
    let mut a2 = n2.ws(Some(&ana)).await;
    let mut b = n1.ws(Some(&bo)).await;
    // ana's first request finds only the dead node's, which does not answer: she waits.
    let asked = Instant::now();
    quick_pair_at(&mut a1, (5, 3)).await;
    nothing_more(&mut a1).await;
    assert!(
        asked.elapsed() >= Duration::from_secs(2),
        "the claim timed out"
    );
    // Her request on node 2 replaces the one on node 1.
    quick_pair_at(&mut a2, (5, 3)).await;
    a2.assert_alive().await;
    quick_pair_at(&mut b, (5, 3)).await;
    let table = paired(&mut b).await;
    assert_eq!(paired(&mut a2).await, table);
    nothing_more(&mut a1).await;
    // Not even once node 1 has checked its waiting connections' requests: ana's first
    // one was replaced, so it is not put back.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut len = redis::cmd("LLEN");
    len.arg("stella:pairing:queue:300000+3000");
    assert_eq!(
        bus.command::<i64>(&len).await.unwrap(),
        0,
        "nobody left waiting"
    );
    nothing_more(&mut a1).await;
}

#[tokio::test]
async fn a_request_redis_lost_is_put_back_and_paired() {
    let Some((redis, n1, n2)) =
        two_node_cluster("a_request_redis_lost_is_put_back_and_paired").await
    else {
        return;
    };
    let bus = redis.connect_bus().await;
    let (ana, bo) = (n1.register("ana").await, n2.register("boris").await);
    let ana_id = n1.user_id(&ana).await;
    let mut a = n1.ws(Some(&ana)).await;
    let mut b = n2.ws(Some(&bo)).await;
    quick_pair_at(&mut a, (15, 10)).await;
    a.assert_alive().await;
    // Redis loses the queue (as in a restart without persistence).
    let mut del = redis::cmd("DEL");
    del.arg("stella:pairing:queue:900000+10000")
        .arg(format!("stella:pairing:user:{ana_id}"));
    assert_eq!(bus.command::<i64>(&del).await.unwrap(), 2);
    // Node 1 puts ana's request back within a few seconds; boris is paired with her.
    let mut len = redis::cmd("LLEN");
    len.arg("stella:pairing:queue:900000+10000");
    let deadline = Instant::now() + Duration::from_secs(8);
    while bus.command::<i64>(&len).await.unwrap() == 0 {
        assert!(Instant::now() < deadline, "the request is back within 8 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    quick_pair_at(&mut b, (15, 10)).await;
    let table = paired(&mut b).await;
    assert_eq!(paired(&mut a).await, table);
}

#[tokio::test]
async fn open_tables_reach_a_node_started_later_and_a_lost_listing_comes_back() {
    let Some(redis) =
        redis("open_tables_reach_a_node_started_later_and_a_lost_listing_comes_back").await
    else {
        return;
    };
    let n1 = cluster_node(&redis.url(), None).await;
    let cookie = n1.guest().await;
    let mut w1 = n1.ws(Some(&cookie)).await;
    let table = w1.create(json!({"variant": "classic-3"})).await;
    let listed = |app: &TestApp| app.state.lobby.listed(&table).is_some();

    // Node 2 starts after the table was made: no lobby change tells it, the heartbeats do.
    let n2 = cluster_node(&redis.url(), Some(&n1)).await;
    eventually(
        Duration::from_secs(8),
        "node 2 lists the older table",
        || listed(&n2),
    )
    .await;
    // A listing lost on node 2 (as when node 1 could not send heartbeats for a while)
    // comes back.
    n2.state.lobby.forget_listed(&table);
    assert!(!listed(&n2));
    eventually(Duration::from_secs(8), "the listing comes back", || {
        listed(&n2)
    })
    .await;
    assert_eq!(n2.state.lobby.listed(&table).unwrap().status, "open");
}
