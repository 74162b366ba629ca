//! A node that loses an open table's lease (a pause longer than the lease: a stopped
//! process, a frozen machine) must not start its game afterwards: the other nodes'
//! sweep has called it off. And an open game stored without a lease row (its node died
//! between the two writes, as older versions stored them apart) is swept too.
//!
//! Redis is found (or the tests skipped) as in `common::cluster`.

use std::time::{Duration, Instant};

use serde_json::json;
use stella_server::cluster::LEASE_MS;
use stella_server::storage::GameRow;

use crate::common::cluster::{one_node_cluster, two_node_cluster};
use crate::common::stored::{listed, status, until_listed, until_status};
use crate::common::{TestApp, Ws};

/// Two guests connected to `node`, the first waiting at the classic-2 table it opened
/// there: their sockets and the table's id.
async fn open_duel_on(node: &TestApp) -> (Ws, Ws, String) {
    let ana = node.guest().await;
    let boris = node.guest().await;
    let mut wa = node.ws(Some(&ana)).await;
    let wb = node.ws(Some(&boris)).await;
    let table = wa.create(json!({"variant": "classic-2"})).await;
    (wa, wb, table)
}

#[tokio::test]
async fn an_open_table_whose_lease_lapsed_does_not_start_when_it_fills() {
    let test = "an_open_table_whose_lease_lapsed_does_not_start_when_it_fills";
    let Some((_redis, a, b)) = two_node_cluster(test).await else {
        return;
    };
    let (mut wa, mut wb, table) = open_duel_on(&a).await;
    until_listed(&b, &table, "node b").await;

    // Node a's lease runs out as a pause longer than the lease leaves it: expired in
    // the database, and never renewed again (a renewal touches unexpired leases only).
    let storage = b.state.storage.clone();
    let lease = storage.lease(&table).await.unwrap().expect("a lease row");
    assert_eq!(lease.node, a.state.cluster().expect("a node").leases.node());
    storage
        .release_lease(&table, &lease.node, lease.epoch)
        .await
        .unwrap();
    // The sweep calls the game off.
    let limit = Duration::from_millis(LEASE_MS as u64);
    until_status(&storage, &table, "aborted", limit).await;

    // The second player joins at node a: the game does not start, both are told. Node
    // a closes the table when its renewal finds the lease gone, or else when the join
    // finds it gone (its own view of the lease, then the starting `UPDATE`'s check),
    // whichever comes first: the outcome is the same.
    wb.send(json!({"t": "join", "d": {"table": table}})).await;
    wb.expect_error("no_such_table").await;
    let seen = wa
        .recv_until(|m| {
            m["t"] == "event" && (m["d"]["type"] == "closed" || m["d"]["type"] == "started")
        })
        .await;
    assert_eq!(seen["d"]["type"], "closed", "{seen}");
    assert_eq!(seen["d"]["table"], table.as_str());

    // The row stays aborted, no node runs or lists the table, and node a holds nothing
    // for it: its token goes at the next renewal (which finds the lease gone) or the
    // next release of ended games, whichever comes first; both run every second.
    let row = storage.game(&table).await.unwrap().unwrap();
    assert_eq!(row.status, "aborted");
    assert_eq!(row.started_ms, None);
    let leases = &a.state.cluster().unwrap().leases;
    let deadline = Instant::now() + Duration::from_secs(10);
    while a.state.lobby.get(&table).is_some()
        || listed(&a, &table)
        || listed(&b, &table)
        || leases.token(&table).is_some()
    {
        assert!(
            Instant::now() < deadline,
            "the table is gone from both nodes and node a holds no token for it"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A later join finds no table; the first player's socket still answers.
    wb.send(json!({"t": "join", "d": {"table": table}})).await;
    wb.expect_error("no_such_table").await;
    wa.assert_alive().await;
    assert_eq!(status(&storage, &table).await, "aborted");
}

#[tokio::test]
async fn a_game_called_off_in_the_database_is_not_started_by_its_node() {
    let test = "a_game_called_off_in_the_database_is_not_started_by_its_node";
    let Some((_redis, a)) = one_node_cluster(test).await else {
        return;
    };
    let (mut wa, mut wb, table) = open_duel_on(&a).await;
    // The game is called off in the database while node a still holds its lease, so
    // only the starting statement's own check of the row can refuse the start.
    let storage = a.state.storage.clone();
    storage.abort_game(&table, a.time.now_ms()).await.unwrap();
    assert!(a.state.cluster().unwrap().leases.token(&table).is_some());

    wb.send(json!({"t": "join", "d": {"table": table}})).await;
    let refused = wb.expect_error("no_such_table").await;
    let message = refused["d"]["message"].as_str().unwrap();
    assert!(message.contains("table was closed"), "{message}");
    let seen = wa
        .recv_until(|m| {
            m["t"] == "event" && (m["d"]["type"] == "closed" || m["d"]["type"] == "started")
        })
        .await;
    assert_eq!(seen["d"]["type"], "closed", "{seen}");
    let row = storage.game(&table).await.unwrap().unwrap();
    assert_eq!((row.status.as_str(), row.started_ms), ("aborted", None));
    // The task is gone and, its game ended, the node gives its lease up.
    let deadline = Instant::now() + Duration::from_secs(5);
    while a.state.lobby.get(&table).is_some()
        || listed(&a, &table)
        || storage.lease(&table).await.unwrap().is_some()
    {
        assert!(
            Instant::now() < deadline,
            "the table and its lease are gone"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn an_open_game_stored_without_a_lease_is_swept_once_old_enough() {
    let test = "an_open_game_stored_without_a_lease_is_swept_once_old_enough";
    let Some((_redis, a)) = one_node_cluster(test).await else {
        return;
    };
    let storage = a.state.storage.clone();
    let now = a.time.now_ms();
    // One left a lease period ago by a node that died between the game's row and its
    // lease's; one stored that way just now (its lease may still be on its way: its
    // creation time is put a minute ahead, so that a slow run cannot age it past the
    // bound before it is checked).
    let old = GameRow::open("unleased-old", "classic-2", None, now - LEASE_MS - 1_000);
    let new = GameRow::open("unleased-new", "classic-2", None, now + 60_000);
    storage.insert_game(&old, &[]).await.unwrap();
    storage.insert_game(&new, &[]).await.unwrap();
    until_status(&storage, &old.id, "aborted", Duration::from_secs(4)).await;
    assert!(storage
        .game(&old.id)
        .await
        .unwrap()
        .unwrap()
        .finished_ms
        .is_some());
    assert_eq!(status(&storage, &new.id).await, "open");

    // A table made now is stored with its lease, so no sweep can find it unleased.
    let cookie = a.guest().await;
    let mut w = a.ws(Some(&cookie)).await;
    let table = w.create(json!({"variant": "classic-2"})).await;
    let lease = storage
        .lease(&table)
        .await
        .unwrap()
        .expect("stored with the game");
    assert_eq!(lease.epoch, 1);
}
