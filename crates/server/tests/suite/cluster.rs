//! Several nodes on one database and a Redis bus: leases fence the writes of a move,
//! a dead node's tables go on from another node, commands for a table travel to the
//! node that runs it, its events reach every node with the same version numbers, and
//! the bus recovers when Redis restarts.
//!
//! Redis is found (or the tests skipped) by `common::cluster::redis`; the outage test
//! needs a `redis-server` of its own and skips when only `STELLA_TEST_REDIS` is there.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use stella_engine::{Game, Variant};
use stella_server::cluster::{take_over_orphans, Bus, Leases, RemoteCommand, Router, LEASE_MS};
use stella_server::computer::Greedy;
use stella_server::lobby::Lobby;
use stella_server::monitoring::Metrics;
use stella_server::protocol::{ErrorCode, EventEnvelope, TableEvent, UserInfo};
use stella_server::storage::{GameRow, MoveRow, Storage, WriterConfig};
use stella_server::table::{
    create_table, LagPolicy, NewTable, Occupant, TableDeps, TableHandle, TimeControl,
};
use stella_server::{ManualTime, SystemTimeSource, TimeSource};
use tokio::sync::{broadcast, watch};

use crate::common::cluster::{cluster_node, redis, two_player_cluster, RedisUnderTest, TwoPlayers};
use crate::common::metrics::sample;
use crate::common::play::{next_greedy, play};
use crate::common::{fresh_database, Ws};

/// One node: its lobby, table deps, bus and router, on the shared database.
struct Node {
    deps: TableDeps,
    router: Arc<Router>,
    _stop: watch::Sender<bool>,
}

async fn node(name: &str, storage: &Storage, redis_url: &str) -> Node {
    let (stop, shutdown) = watch::channel(false);
    let time: Arc<dyn TimeSource> = Arc::new(SystemTimeSource);
    let lobby = Arc::new(Lobby::with_time(time.clone()));
    let deps = TableDeps {
        storage: storage.clone(),
        time,
        lobby: lobby.clone(),
        computer: Arc::new(Greedy),
        shutdown: shutdown.clone(),
        lag: LagPolicy::default(),
        linger: Duration::from_secs(60),
        leases: None,
        abandon_after: Duration::from_secs(60),
    };
    let bus = Bus::connect(redis_url, storage.metrics().clone(), shutdown)
        .await
        .expect("bus connects");
    let router = Router::start(bus, name, lobby)
        .await
        .expect("router starts");
    Node {
        deps,
        router,
        _stop: stop,
    }
}

/// Nodes `a` and `b` on `storage` and the bus of `redis_url`.
async fn bus_nodes(storage: &Storage, redis_url: &str) -> (Node, Node) {
    (
        node("a", storage, redis_url).await,
        node("b", storage, redis_url).await,
    )
}

async fn shared_storage() -> (tempfile::TempDir, Storage) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_database(&dir).await;
    let storage = Storage::connect(&url).await.expect("database opens");
    (dir, storage)
}

async fn user(storage: &Storage, name: &str) -> UserInfo {
    let id = format!("id-{name}");
    storage
        .create_user(&id, name, None, 1)
        .await
        .expect("user stored");
    UserInfo {
        id,
        name: name.into(),
        guest: true,
        bot: false,
    }
}

/// The users `alice` and `bob`, stored in `storage`.
async fn alice_and_bob(storage: &Storage) -> (UserInfo, UserInfo) {
    (user(storage, "alice").await, user(storage, "bob").await)
}

async fn next_event(rx: &mut broadcast::Receiver<EventEnvelope>) -> EventEnvelope {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an event within 10 s")
        .expect("the event stream goes on")
}

fn game_row(id: &str) -> GameRow {
    GameRow {
        status: "live".into(),
        started_ms: Some(1),
        ..GameRow::open(id, "classic-2", None, 1)
    }
}

fn move_row(ply: i64, path: &str) -> MoveRow {
    MoveRow {
        ply,
        colour: "red".into(),
        path: path.into(),
        clock: None,
        at_ms: 1,
    }
}

#[tokio::test]
async fn a_move_is_stored_only_under_the_current_lease() {
    let (_dir, storage) = shared_storage().await;
    storage.insert_game(&game_row("t1"), &[]).await.unwrap();
    let time = Arc::new(ManualTime::new(100_000));
    let a = Leases::new(storage.clone(), "a", time.clone());
    let b = Leases::new(storage.clone(), "b", time.clone());
    let held = a.acquire("t1").await.unwrap().expect("a free table");
    assert_eq!(b.acquire("t1").await.unwrap(), None, "held by a");
    let now = time.now_ms();
    assert!(storage
        .insert_move_fenced("t1", &move_row(1, "a1-a2"), "a", held.epoch, now)
        .await
        .unwrap());
    assert_eq!(
        storage.orphaned_live_games(now).await.unwrap(),
        Vec::<String>::new()
    );

    // a stops renewing (it died); once its lease lapsed, b takes the table.
    time.advance(LEASE_MS);
    let now = time.now_ms();
    assert_eq!(storage.orphaned_live_games(now).await.unwrap(), ["t1"]);
    let taken = b.acquire("t1").await.unwrap().expect("a lapsed lease");
    assert_eq!(taken.epoch, held.epoch + 1);
    assert!(
        !storage
            .insert_move_fenced("t1", &move_row(2, "a2-a3"), "a", held.epoch, now)
            .await
            .unwrap(),
        "the old holder stores nothing more"
    );
    assert!(storage
        .insert_move_fenced("t1", &move_row(2, "b1-b2"), "b", taken.epoch, now)
        .await
        .unwrap());
    let moves = storage.moves("t1").await.unwrap();
    let paths: Vec<&str> = moves.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["a1-a2", "b1-b2"]);
}

#[tokio::test]
async fn a_batch_refuses_the_stale_move_and_stores_the_valid_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_database(&dir).await;
    // A long window: the moves below share one batch.
    let writer = WriterConfig {
        window: Duration::from_millis(300),
        ..WriterConfig::default()
    };
    let storage = Storage::connect_with(&url, writer, Metrics::new())
        .await
        .expect("database opens");
    for t in ["t1", "t2"] {
        storage.insert_game(&game_row(t), &[]).await.unwrap();
    }
    let time = Arc::new(ManualTime::new(100_000));
    let a = Leases::new(storage.clone(), "a", time.clone());
    let b = Leases::new(storage.clone(), "b", time.clone());
    // a held t2 and let it lapse; b took it over. a holds t1 now.
    let stale = a.acquire("t2").await.unwrap().expect("a free table");
    time.advance(LEASE_MS);
    let t1 = a.acquire("t1").await.unwrap().expect("a free table").epoch;
    let taken = b.acquire("t2").await.unwrap().expect("a lapsed lease");
    let now = time.now_ms();
    let moves = [
        ("t1", move_row(1, "a1-a2"), "a", t1, true),
        ("t2", move_row(1, "stale"), "a", stale.epoch, false),
        ("t2", move_row(1, "b1-b2"), "b", taken.epoch, true),
    ];
    let mut tasks = Vec::new();
    for (table, row, node, epoch, expected) in moves {
        let storage = storage.clone();
        tasks.push(tokio::spawn(async move {
            let stored = storage
                .insert_move_fenced(table, &row, node, epoch, now)
                .await
                .expect("no database error");
            assert_eq!(stored, expected, "{table} {} by {node}", row.path);
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let paths = |moves: Vec<MoveRow>| moves.into_iter().map(|m| m.path).collect::<Vec<_>>();
    assert_eq!(paths(storage.moves("t1").await.unwrap()), ["a1-a2"]);
    assert_eq!(paths(storage.moves("t2").await.unwrap()), ["b1-b2"]);
    let text = storage.metrics().render(0);
    assert_eq!(
        sample(&text, "stella_commit_batch_moves_count"),
        1.0,
        "{text}"
    );
    assert_eq!(sample(&text, "stella_commit_failures_total"), 0.0, "{text}");
}

#[tokio::test]
async fn players_on_two_nodes_play_one_table_to_the_end() {
    let Some(redis) = redis("players_on_two_nodes_play_one_table_to_the_end").await else {
        return;
    };
    let (_dir, storage) = shared_storage().await;
    let (a, b) = bus_nodes(&storage, &redis.url()).await;
    let (alice, bob) = alice_and_bob(&storage).await;

    // The table runs on node a; a relays its events.
    let new = casual_duel(None, vec![Occupant::Open, Occupant::Open]);
    let handle = create_table(&a.deps, new).await.expect("table created");
    let table = handle.id.clone();
    a.router.relay_events(&handle).await.unwrap();

    // A watcher on each node; bob's is on node b, through the bus.
    let mut local = handle
        .watch(None, Some(alice.id.clone()), None)
        .await
        .unwrap();
    let mut remote = b
        .router
        .watch("a", &table, None, Some(bob.id.clone()), None)
        .await
        .unwrap();
    let remote_from = remote.snapshot.as_ref().expect("a first snapshot").v;
    let local_from = local.snapshot.as_ref().expect("a first snapshot").v;
    assert_eq!(remote_from, local_from);

    // alice sits down on a, bob on b.
    handle.join(alice.clone(), None, None).await.unwrap();
    b.router
        .send(
            "a",
            &table,
            RemoteCommand::Join {
                user: bob.clone(),
                seat: None,
                invite: None,
            },
        )
        .await
        .unwrap();

    // A refusal travels back with its code.
    let refused = b
        .router
        .send(
            "a",
            &table,
            RemoteCommand::Move {
                user_id: bob.id.clone(),
                path: "not a move".into(),
                confirm: false,
                lag_ms: 0,
            },
        )
        .await
        .unwrap_err();
    assert_ne!(refused.code, ErrorCode::Unavailable);

    let mut game = Game::new(Variant::Classic2);
    let mut plies = 0;
    while !game.is_over() && plies < 400 {
        let (mv, path) = next_greedy(&game);
        // Seat 0 (alice) plays on a, seat 1 (bob) through b.
        if plies % 2 == 0 {
            handle
                .play(alice.id.clone(), path.clone(), true, 0)
                .await
                .unwrap();
        } else {
            b.router
                .send(
                    "a",
                    &table,
                    RemoteCommand::Move {
                        user_id: bob.id.clone(),
                        path: path.clone(),
                        confirm: true,
                        lag_ms: 0,
                    },
                )
                .await
                .unwrap();
        }
        game.play(&mv).unwrap();
        plies += 1;
    }
    assert!(game.is_over(), "the greedy game ends within 400 moves");

    // Both watchers saw the same numbered log, to the end of the game.
    let mut seen_local = Vec::new();
    let mut seen_remote = Vec::new();
    loop {
        let e = next_event(&mut local.receiver).await;
        let ended = matches!(e.event, TableEvent::Ended(_));
        seen_local.push(e);
        if ended {
            break;
        }
    }
    while seen_remote.len() < seen_local.len() {
        seen_remote.push(next_event(&mut remote.receiver).await);
    }
    let versions: Vec<u64> = seen_remote.iter().map(|e| e.v).collect();
    let expected: Vec<u64> = (remote_from + 1..=remote_from + versions.len() as u64).collect();
    assert_eq!(versions, expected, "consecutive versions over the bus");
    assert_eq!(seen_remote, seen_local);
    let moved = seen_remote
        .iter()
        .filter(|e| matches!(e.event, TableEvent::Moved { .. }))
        .count();
    assert_eq!(moved, plies);

    // Every acknowledged move is stored once, in order.
    let stored = storage.moves(&table).await.unwrap();
    assert_eq!(stored.len(), plies);
    assert!(stored
        .iter()
        .enumerate()
        .all(|(i, m)| m.ply == stored[0].ply + i as i64));

    // A watcher joining late on b resyncs from a version it had.
    let resync = b
        .router
        .watch(
            "a",
            &table,
            Some(remote_from + 2),
            Some(bob.id.clone()),
            None,
        )
        .await
        .unwrap();
    assert!(resync.snapshot.is_none());
    assert_eq!(resync.events, seen_remote[2..]);
}

#[tokio::test]
async fn the_bus_answers_unavailable_during_a_redis_outage_and_recovers() {
    let Some(redis) = redis("the_bus_answers_unavailable_during_a_redis_outage").await else {
        return;
    };
    let RedisUnderTest::Own(mut server) = redis else {
        eprintln!("skipping the Redis outage test: it needs a redis-server of its own");
        return;
    };
    let (_dir, storage) = shared_storage().await;
    let (a, b) = bus_nodes(&storage, &server.url()).await;
    let (alice, bob) = alice_and_bob(&storage).await;
    let new = casual_duel(
        None,
        vec![Occupant::Human(alice.clone()), Occupant::Human(bob.clone())],
    );
    let handle = create_table(&a.deps, new).await.expect("table created");
    let table = handle.id.clone();
    a.router.relay_events(&handle).await.unwrap();
    let mut game = Game::new(Variant::Classic2);
    let (mv, path) = next_greedy(&game);
    handle.play(alice.id.clone(), path, true, 0).await.unwrap();
    game.play(&mv).unwrap();

    server.stop();
    let (mv, path) = next_greedy(&game);
    let bob_moves = |path: String| RemoteCommand::Move {
        user_id: bob.id.clone(),
        path,
        confirm: true,
        lag_ms: 0,
    };
    let down = b
        .router
        .send("a", &table, bob_moves(path.clone()))
        .await
        .unwrap_err();
    assert_eq!(down.code, ErrorCode::Unavailable, "{down}");
    assert_eq!(
        storage.moves(&table).await.unwrap().len(),
        1,
        "nothing stored"
    );

    server.restart().await;
    // The bus reconnects on its own; the same move then goes through once.
    let mut answer = Err(down);
    for _ in 0..100 {
        answer = b.router.send("a", &table, bob_moves(path.clone())).await;
        if answer.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    answer.expect("the move goes through after Redis is back");
    game.play(&mv).unwrap();
    let stored = storage.moves(&table).await.unwrap();
    assert_eq!(stored.len(), 2);
    // And a watcher on b follows the table again.
    let watched = b
        .router
        .watch("a", &table, None, Some(bob.id.clone()), None)
        .await
        .unwrap();
    assert_eq!(watched.snapshot.expect("a snapshot").moves.len(), 2);
}

/// A node without a bus: table deps holding leases as `name`, on a shared clock.
fn leased_node(name: &str, storage: &Storage, time: &Arc<ManualTime>) -> (TableDeps, Arc<Leases>) {
    let (stop, shutdown) = watch::channel(false);
    // The sender is leaked so that the tables of this node run for the whole test.
    std::mem::forget(stop);
    let time: Arc<dyn TimeSource> = time.clone();
    let leases = Arc::new(Leases::new(storage.clone(), name, time.clone()));
    let deps = TableDeps {
        storage: storage.clone(),
        time: time.clone(),
        lobby: Arc::new(Lobby::with_time(time)),
        computer: Arc::new(Greedy),
        shutdown,
        lag: LagPolicy::default(),
        linger: Duration::from_secs(60),
        leases: Some(leases.clone()),
        abandon_after: Duration::from_secs(60),
    };
    (deps, leases)
}

/// A casual classic-2 table with these seats and clock.
fn casual_duel(control: Option<TimeControl>, seats: Vec<Occupant>) -> NewTable {
    NewTable {
        variant: Variant::Classic2,
        control,
        rated: false,
        seats,
        created_by: None,
        invite: None,
        move_time: None,
        bots: false,
    }
}

async fn timed_duel(deps: &TableDeps, alice: &UserInfo, bob: &UserInfo) -> TableHandle {
    let new = casual_duel(
        Some(TimeControl {
            reserve_ms: 300_000,
            increment_ms: 0,
        }),
        vec![Occupant::Human(alice.clone()), Occupant::Human(bob.clone())],
    );
    create_table(deps, new).await.expect("table created")
}

/// Plays the greedy move of the seat to move at `handle`.
async fn play_next(handle: &TableHandle, game: &mut Game, players: &[&UserInfo; 2]) {
    let (mv, path) = next_greedy(game);
    let who = players[game.moves().len() % 2];
    handle
        .play(who.id.clone(), path, true, 0)
        .await
        .expect("move accepted");
    game.play(&mv).unwrap();
}

async fn remaining(handle: &TableHandle) -> Vec<i64> {
    let w = handle.watch(None, None, None).await.unwrap();
    w.snapshot.unwrap().clock.expect("a clock").remaining_ms
}

#[tokio::test]
async fn a_dead_nodes_table_goes_on_from_another_node() {
    let (_dir, storage) = shared_storage().await;
    let time = Arc::new(ManualTime::new(1_000_000));
    let (a, _) = leased_node("a", &storage, &time);
    let (b, b_leases) = leased_node("b", &storage, &time);
    let (alice, bob) = alice_and_bob(&storage).await;
    let players = [&alice, &bob];
    let on_a = timed_duel(&a, &alice, &bob).await;
    let table = on_a.id.clone();
    let mut game = Game::new(Variant::Classic2);
    for _ in 0..3 {
        time.advance(1_000);
        play_next(&on_a, &mut game, &players).await;
    }
    let before = remaining(&on_a).await;
    assert!(
        take_over_orphans(&b, &b_leases).await.unwrap().is_empty(),
        "a still holds the table"
    );

    // a stops renewing (it died, or is cut off); once its lease lapsed b takes over.
    time.advance(LEASE_MS);
    let taken = take_over_orphans(&b, &b_leases).await.unwrap();
    assert_eq!(taken.len(), 1);
    let on_b = taken.into_iter().next().unwrap();
    assert_eq!(on_b.id, table);
    assert_eq!(
        remaining(&on_b).await,
        before,
        "the take-over time is charged to nobody"
    );

    // The cut-off a can no longer act for the table: its move is refused, not stored.
    let (_, path) = next_greedy(&game);
    let who = players[game.moves().len() % 2];
    let refused = on_a.play(who.id.clone(), path, true, 0).await.unwrap_err();
    assert_eq!(refused.code, ErrorCode::Unavailable);
    assert_eq!(storage.moves(&table).await.unwrap().len(), 3);

    // The game goes on from b to the end.
    while !game.is_over() && game.moves().len() < 400 {
        play_next(&on_b, &mut game, &players).await;
    }
    assert!(game.is_over());
    let stored = storage.moves(&table).await.unwrap();
    let paths: Vec<String> = stored.iter().map(|m| m.path.clone()).collect();
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
    let finished = storage.game(&table).await.unwrap().unwrap();
    assert_eq!(finished.status, "finished");
}

#[tokio::test]
async fn a_node_that_stops_hands_its_tables_over_at_once() {
    let (_dir, storage) = shared_storage().await;
    let time = Arc::new(ManualTime::new(1_000_000));
    let (a, a_leases) = leased_node("a", &storage, &time);
    let (b, b_leases) = leased_node("b", &storage, &time);
    let (alice, bob) = alice_and_bob(&storage).await;
    let on_a = timed_duel(&a, &alice, &bob).await;
    let mut game = Game::new(Variant::Classic2);
    play_next(&on_a, &mut game, &[&alice, &bob]).await;
    a_leases.release_all().await.unwrap();
    let taken = take_over_orphans(&b, &b_leases).await.unwrap();
    assert_eq!(taken.len(), 1, "no wait for the lease to run out");
    play_next(&taken[0], &mut game, &[&alice, &bob]).await;
    assert_eq!(storage.moves(&on_a.id).await.unwrap().len(), 2);
}

/// Sends a move until the server takes it: while its table moves between nodes the
/// answer is `unavailable`, and the client tries again, as the web client does.
async fn move_until_taken(ws: &mut Ws, table: &str, path: &str, ack: &mut u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        *ack += 1;
        ws.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": *ack}}))
            .await;
        let answer = ws
            .recv_until(|m| (m["t"] == "ack" && m["d"]["ack"] == *ack) || m["t"] == "error")
            .await;
        if answer["t"] == "ack" {
            return;
        }
        assert_eq!(
            answer["d"]["code"], "unavailable",
            "move {path} refused: {answer}"
        );
        assert!(
            tokio::time::Instant::now() < deadline,
            "the table came back within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn three_nodes_one_game_across_them_and_a_node_that_stops() {
    let Some((redis, players)) =
        two_player_cluster("three_nodes_one_game_across_them_and_a_node_that_stops").await
    else {
        return;
    };
    let TwoPlayers {
        n1,
        n2,
        ana,
        mut a,
        mut b,
        ..
    } = players;
    let n3 = cluster_node(&redis.url(), Some(&n1)).await;

    // ana opens a table on node 1; node 3 lists it; boris joins through node 2.
    let table = a
        .create(json!({"variant": "classic-2", "rated": false}))
        .await;
    let mut listed = false;
    for _ in 0..50 {
        listed = n3.state.lobby.list().iter().any(|t| t.id == table);
        if listed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed, "node 3 lists the table of node 1");
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    b.event("started").await;
    a.event("started").await;

    // Ten moves with each player on their own node; each sees the other's moves.
    let mut game = Game::new(Variant::Classic2);
    let (mut ack_a, mut ack_b) = (0, 0);
    for _ in 0..10 {
        let (mv, path) = next_greedy(&game);
        let ply = game.moves().len() + 1;
        if ply % 2 == 1 {
            ack_a += 1;
            play(&mut a, &mut [&mut b], &table, &path, ply, ack_a).await;
        } else {
            ack_b += 1;
            play(&mut b, &mut [&mut a], &table, &path, ply, ack_b).await;
        }
        game.play(&mv).unwrap();
    }

    // Node 1 stops: it hands the table over; ana reconnects to node 3.
    let _dir = n1.stop().await;
    let mut a = n3.ws(Some(&ana)).await;
    while !game.is_over() && game.moves().len() < 400 {
        let (mv, path) = next_greedy(&game);
        if game.moves().len().is_multiple_of(2) {
            move_until_taken(&mut a, &table, &path, &mut ack_a).await;
        } else {
            move_until_taken(&mut b, &table, &path, &mut ack_b).await;
        }
        game.play(&mv).unwrap();
    }
    assert!(game.is_over());

    // Every acknowledged move is stored once, in order, and the game is over.
    let storage = Storage::connect(&n2.database_url).await.unwrap();
    let stored: Vec<String> = storage
        .moves(&table)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.path)
        .collect();
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    assert_eq!(stored, played);
    let row = storage.game(&table).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");

    // A watcher on any node gets the finished table.
    a.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = a.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["moves"].as_array().unwrap().len(), played.len());
    assert!(snap["d"]["result"].is_object(), "{snap}");
}

#[tokio::test]
async fn metrics_show_the_owners_lease_and_the_bus_lag_on_the_other_node() {
    let test = "metrics_show_the_owners_lease_and_the_bus_lag_on_the_other_node";
    let Some((_redis, players)) = two_player_cluster(test).await else {
        return;
    };
    let TwoPlayers {
        n1,
        n2,
        mut a,
        mut b,
        ..
    } = players;
    let table = a
        .create(json!({"variant": "classic-2", "rated": false}))
        .await;
    // Node 2 may learn of the table over the bus a moment after it was created.
    let mut joined = false;
    for _ in 0..50 {
        b.send(json!({"t": "join", "d": {"table": table}})).await;
        let answer = b
            .recv_until(|m| (m["t"] == "event" && m["d"]["type"] == "started") || m["t"] == "error")
            .await;
        if answer["t"] == "event" {
            joined = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(joined, "boris joins through node 2");
    a.event("started").await;
    let before = n2.metrics().await;
    let lag_before = sample(&before, "stella_bus_lag_seconds_count");

    let mut game = Game::new(Variant::Classic2);
    for ply in 1..=6u64 {
        let (mv, path) = next_greedy(&game);
        if ply % 2 == 1 {
            play(&mut a, &mut [&mut b], &table, &path, ply as usize, ply).await;
        } else {
            play(&mut b, &mut [&mut a], &table, &path, ply as usize, ply).await;
        }
        game.play(&mv).unwrap();
    }

    // The owner holds one lease and published the table's events and its answers.
    let owner = n1.metrics().await;
    assert_eq!(sample(&owner, "stella_leases_held"), 1.0, "{owner}");
    assert!(sample(&owner, "stella_bus_messages_total{direction=\"sent\"}") >= 6.0);
    // The other node holds none; the six moves reached it over the bus (its own three
    // as answers, ana's three as events), each with its lag.
    let other = n2.metrics().await;
    assert_eq!(sample(&other, "stella_leases_held"), 0.0, "{other}");
    let lag_samples = sample(&other, "stella_bus_lag_seconds_count") - lag_before;
    assert!(lag_samples >= 6.0, "{lag_samples} lag samples:\n{other}");
    assert!(sample(&other, "stella_bus_messages_total{direction=\"received\"}") >= lag_samples);
    let lag_sum = sample(&other, "stella_bus_lag_seconds_sum");
    assert!(
        lag_sum > 0.0 && lag_sum < 5.0 * lag_samples,
        "the bus lag is a real delay: {lag_sum} s in all"
    );
}
