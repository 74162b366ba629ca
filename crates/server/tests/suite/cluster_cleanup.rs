//! What a node leaves behind when it goes away: the open tables (waiting for players)
//! of a node that died end up `aborted` in the database once their lease lapsed, and
//! are listed by no node; those of a node that stopped normally, at once.
//!
//! Redis is found (or the tests skipped) as in `common::cluster`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use stella_server::cluster::{Leases, LEASE_MS};
use stella_server::storage::{GameRow, SeatRow, Storage};
use stella_server::{SystemTimeSource, TimeSource};

use crate::common::cluster::{cluster_node, redis, two_node_cluster};
use crate::common::listing;
use crate::common::stored::{listed, status, until_listed, until_status};

#[tokio::test]
async fn a_dead_nodes_open_table_is_aborted_in_the_database_and_listed_nowhere() {
    let test = "a_dead_nodes_open_table_is_aborted_in_the_database_and_listed_nowhere";
    let Some((redis, n1, n2)) = two_node_cluster(test).await else {
        return;
    };
    let cookie = n1.guest().await;
    let mut w1 = n1.ws(Some(&cookie)).await;
    let alive = w1.create(json!({"variant": "classic-2"})).await;

    // A third node does what a node does for a new open table (stores the game, takes
    // its lease, lists it, vouches for it in heartbeats), then dies without a word: no
    // more renewals, no more heartbeats, no hand-over.
    let ghost_db = Storage::connect(&n1.database_url).await.unwrap();
    let time: Arc<dyn TimeSource> = Arc::new(SystemTimeSource);
    let user = "ghostly-user";
    ghost_db
        .create_user(user, "ghostly", None, 1)
        .await
        .unwrap();
    let table = "ghost-open-table";
    let game = GameRow {
        move_time_ms: Some(60_000),
        ..GameRow::open(table, "classic-2", Some(user), time.now_ms())
    };
    let seat = |i: i64, colour: &str, user_id: Option<&str>| SeatRow {
        game_id: table.into(),
        seat: i,
        colour: colour.into(),
        user_id: user_id.map(str::to_owned),
        computer_level: None,
        place: None,
        rating_before: None,
        rating_after: None,
    };
    ghost_db
        .insert_game(&game, &[seat(0, "red", Some(user)), seat(1, "green", None)])
        .await
        .unwrap();
    let leases = Leases::new(ghost_db.clone(), "ghost-node", time.clone());
    leases
        .acquire(table)
        .await
        .unwrap()
        .expect("a new table's lease");
    let last_renewed = Instant::now();
    let bus = redis.connect_bus().await;
    let listing = json!({"l": "update", "from": "ghost-node", "summary": listing::open_duel(table, user, "ghostly")});
    let beat = json!({"node": "ghost-node", "tables": [{"id": table, "owner": user}]});
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(listed(&n1, table) && listed(&n2, table)) {
        assert!(Instant::now() < deadline, "both nodes list the ghost table");
        bus.publish("stella:lobby", listing.to_string().as_bytes())
            .await
            .unwrap();
        bus.publish("stella:heartbeat", beat.to_string().as_bytes())
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // While the lease holds, the game stays open.
    assert_eq!(status(&n1.state.storage, table).await, "open");
    drop(leases);

    // The lease lapses 5 s after it was taken (never renewed since); the next scan of a
    // live node closes the game: within the lease and a few scans.
    let limit = Duration::from_millis(LEASE_MS as u64) + Duration::from_secs(3);
    until_status(&n1.state.storage, table, "aborted", limit).await;
    let took = last_renewed.elapsed();
    assert!(
        took >= Duration::from_millis(LEASE_MS as u64),
        "not before the lease lapsed: {took:?}"
    );
    let row = n2.state.storage.game(table).await.unwrap().unwrap();
    assert!(row.finished_ms.is_some(), "an end time: {row:?}");
    assert_eq!(n1.state.storage.lease(table).await.unwrap(), None);
    let deadline = Instant::now() + Duration::from_secs(3);
    while listed(&n1, table) || listed(&n2, table) {
        assert!(Instant::now() < deadline, "no node lists the closed table");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Nobody reports it as open any more; the live node's own table is untouched.
    assert!(n1
        .state
        .storage
        .unfinished_games()
        .await
        .unwrap()
        .iter()
        .all(|g| g.id != table));
    assert_eq!(n2.state.lobby.holdings(user).open_tables, 0);
    assert_eq!(status(&n1.state.storage, &alive).await, "open");
    assert!(listed(&n1, &alive) && listed(&n2, &alive));
    // A later sweep changes nothing (the game was marked once).
    let again = stella_server::cluster::cleanup::close_orphaned_open_tables(
        &n2.state.storage,
        &n2.state.lobby,
        time.now_ms(),
    )
    .await
    .unwrap();
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(row, n1.state.storage.game(table).await.unwrap().unwrap());
}

#[tokio::test]
async fn a_stopped_nodes_open_table_is_aborted_at_once() {
    let Some((_redis, n1, n2)) =
        two_node_cluster("a_stopped_nodes_open_table_is_aborted_at_once").await
    else {
        return;
    };
    let cookie = n2.guest().await;
    let mut w2 = n2.ws(Some(&cookie)).await;
    let table = w2.create(json!({"variant": "classic-3"})).await;
    until_listed(&n1, &table, "node 1").await;
    let storage = n1.state.storage.clone();
    assert_eq!(status(&storage, &table).await, "open");

    // A normal stop hands the leases back: the table is closed without waiting for
    // its lease to run out.
    drop(w2);
    let stopped = Instant::now();
    n2.stop().await;
    until_status(&storage, &table, "aborted", Duration::from_secs(4)).await;
    assert!(
        stopped.elapsed() < Duration::from_millis(LEASE_MS as u64),
        "{:?}",
        stopped.elapsed()
    );
    let deadline = Instant::now() + Duration::from_secs(3);
    while listed(&n1, &table) {
        assert!(Instant::now() < deadline, "node 1 forgets the table");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn the_leases_of_ended_games_are_given_up_and_deleted() {
    let test = "the_leases_of_ended_games_are_given_up_and_deleted";
    let Some(redis) = redis(test).await else {
        return;
    };
    let n1 = cluster_node(&redis.url(), None).await;
    let leases = n1.state.cluster().expect("a node").leases.clone();
    let storage = n1.state.storage.clone();
    let cookie = n1.guest().await;
    let mut w1 = n1.ws(Some(&cookie)).await;
    let table = w1.create(json!({"variant": "classic-2"})).await;
    assert!(storage.lease(&table).await.unwrap().is_some());
    assert_eq!(leases.count(), 1);

    // The creator leaves: the table closes (`aborted`), its task ends, and the node
    // gives its lease up instead of renewing it for ever.
    w1.send(json!({"t": "leave", "d": {"table": table}})).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while leases.count() > 0 || storage.lease(&table).await.unwrap().is_some() {
        assert!(Instant::now() < deadline, "the lease is given up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status(&storage, &table).await, "aborted");

    // A lapsed lease of an ended game that a node gone away left is deleted too.
    let time = n1.time.clone();
    let ended = "ended-elsewhere";
    let mut game = storage.game(&table).await.unwrap().unwrap();
    game.id = ended.into();
    game.status = "finished".into();
    storage.insert_game(&game, &[]).await.unwrap();
    let now = time.now_ms();
    storage
        .acquire_lease(ended, "gone-node", now - 10_000, now - 5_000)
        .await
        .unwrap()
        .expect("a free lease");
    let deadline = Instant::now() + Duration::from_secs(4);
    while storage.lease(ended).await.unwrap().is_some() {
        assert!(Instant::now() < deadline, "the lapsed lease is deleted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
