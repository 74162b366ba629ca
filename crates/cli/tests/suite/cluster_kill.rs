//! Failover on the real binaries: three `stella serve --bus` processes on one database
//! and a Redis server of the test's own. Two players on different nodes play one
//! table; the node running it is killed with SIGKILL mid-game, another node takes the
//! table over once its lease lapses, the player who was on the dead node reconnects to
//! a third, and the game is played to the end; then Redis is stopped and restarted
//! under a second live game, which goes on afterwards. Every acknowledged move must be
//! in the stored game exactly once.
//!
//! The database is a shared SQLite file, or a fresh database on the PostgreSQL server
//! `STELLA_TEST_POSTGRES` names. Redis is Debian's `redis-server` (on PATH or in
//! /usr/bin). Without it the test fails when `CI` is set and is skipped with a message
//! otherwise.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use stella_engine::{Game, Variant};
use stella_test_support::free_port;

use crate::common::cluster::{duel, fresh_postgres, redis_binary, Cluster};
use crate::common::greedy;
use crate::common::http::Http;
use crate::common::ws::Ws;

/// The status and the paths stored for `table`, from the replay route of `node`.
async fn stored(node: &Http, table: &str) -> (String, Vec<String>) {
    let replay = node.get_json(&format!("/api/games/{table}")).await;
    let paths = replay["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("moves in {replay}"))
        .iter()
        .map(|m| m["path"].as_str().unwrap().to_owned())
        .collect();
    (replay["status"].as_str().unwrap_or("").to_owned(), paths)
}

/// The ids of the tables the lobby lists now, as `ws` hears them on subscribing.
async fn lobby_ids(ws: &mut Ws) -> Vec<String> {
    ws.send(json!({"t": "lobby_subscribe"})).await;
    let list = ws.recv_until(|m| m["t"] == "lobby").await;
    list["d"]["tables"]
        .as_array()
        .unwrap_or_else(|| panic!("tables in {list}"))
        .iter()
        .filter_map(|t| t["id"].as_str().map(String::from))
        .collect()
}

/// Plays up to `n` greedy plies of `game` at `table`, `a` for the first seat and `b`
/// for the second, until the game is over.
async fn play_plies(
    game: &mut Game,
    n: usize,
    a: &mut Ws,
    b: &mut Ws,
    table: &str,
    acks: &mut [u64; 2],
) {
    for _ in 0..n {
        if game.is_over() {
            return;
        }
        // Paced below the per-connection message limit (20 a second).
        tokio::time::sleep(Duration::from_millis(60)).await;
        let (mv, path) = greedy(game);
        if game.moves().len().is_multiple_of(2) {
            a.play(table, &path, &mut acks[0]).await;
        } else {
            b.play(table, &path, &mut acks[1]).await;
        }
        game.play(&mv).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_a_node_and_a_redis_restart_lose_no_acknowledged_move() {
    let Some(mut cluster) = Cluster::start_or_skip("the cluster failover test", 3).await else {
        return;
    };
    let (ana, mut a, mut b, table) = cluster.duel().await;
    let mut game = Game::new(Variant::Classic2);
    let mut acks = [0, 0];
    play_plies(&mut game, 12, &mut a, &mut b, &table, &mut acks).await;

    // SIGKILL the node running the table; ana comes back through node 3.
    cluster.nodes[0].kill();
    let killed_at = Instant::now();
    let mut a = cluster.http[2].ws(&ana).await;
    play_plies(&mut game, 1, &mut a, &mut b, &table, &mut acks).await;
    eprintln!(
        "first move after the SIGKILL acknowledged after {:.1} s",
        killed_at.elapsed().as_secs_f64()
    );
    play_plies(&mut game, 1000, &mut a, &mut b, &table, &mut acks).await;
    assert!(game.is_over(), "the greedy game ends");
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    let (status, paths) = stored(&cluster.http[1], &table).await;
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
    assert_eq!(status, "finished");

    // A second game between the remaining nodes; Redis stops and restarts under it.
    let table = duel(&mut a, &mut b).await;
    let mut game = Game::new(Variant::Classic2);
    play_plies(&mut game, 6, &mut a, &mut b, &table, &mut acks).await;
    cluster.redis.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let health = cluster.http[1]
        .send(reqwest::Method::GET, "/healthz", None, None)
        .await;
    assert_eq!(health.status().as_u16(), 503);
    assert_eq!(health.text().await.unwrap(), "message bus unreachable");
    cluster.restart_redis().await;
    play_plies(&mut game, 1000, &mut a, &mut b, &table, &mut acks).await;
    assert!(game.is_over());
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    let (_, paths) = stored(&cluster.http[1], &table).await;
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
}

/// A PostgreSQL server of the test's own (Debian's binaries, run as the `postgres`
/// user when the test runs as root), so that it can stop and start it.
struct OwnPostgres {
    bin: std::path::PathBuf,
    data: std::path::PathBuf,
    port: u16,
    as_root: bool,
}

impl OwnPostgres {
    fn find_bin() -> Option<std::path::PathBuf> {
        let mut dirs: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|p| p.join("pg_ctl").exists())
            .collect();
        dirs.sort();
        dirs.pop()
    }

    fn run(&self, program: &str, args: &[&str]) -> bool {
        let program = self.bin.join(program);
        let mut cmd = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            Command::new(program)
        };
        cmd.args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn start_new(dir: &Path) -> Option<OwnPostgres> {
        let bin = Self::find_bin()?;
        // PostgreSQL refuses to run as root: then it runs as the `postgres` user.
        let as_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        let data = dir.join("pgdata");
        std::fs::create_dir_all(&data).ok()?;
        if as_root {
            Command::new("chown")
                .args(["-R", "postgres"])
                .arg(dir)
                .status()
                .ok()?;
        }
        let pg = OwnPostgres {
            bin,
            data,
            port: free_port(),
            as_root,
        };
        let data = pg.data.to_string_lossy().into_owned();
        if !pg.run("initdb", &["-D", &data, "-A", "trust", "-U", "postgres"]) {
            return None;
        }
        pg.start().then_some(pg)
    }

    fn start(&self) -> bool {
        let data = self.data.to_string_lossy().into_owned();
        let opts = format!("-p {} -k {} -c listen_addresses=127.0.0.1", self.port, data);
        self.run("pg_ctl", &["-D", &data, "-o", &opts, "-w", "start"])
    }

    fn stop(&self) {
        let data = self.data.to_string_lossy().into_owned();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}", self.port)
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let data = self.data.to_string_lossy().into_owned();
        self.run("pg_ctl", &["-D", &data, "-m", "immediate", "stop"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_restart_under_live_games_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let (Some(redis_bin), Some(pg)) = (redis_binary(), OwnPostgres::start_new(dir.path())) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the PostgreSQL outage test needs redis-server and postgresql (Debian packages)"
        );
        eprintln!("skipping the PostgreSQL outage test: no redis-server or postgresql");
        return;
    };
    let db = fresh_postgres(&pg.url()).await;
    let cluster = Cluster::start(dir.path(), redis_bin, &db, 2).await;
    let (_, mut a, mut b, table) = cluster.duel().await;
    let mut game = Game::new(Variant::Classic2);
    let mut acks = [0, 0];
    play_plies(&mut game, 8, &mut a, &mut b, &table, &mut acks).await;

    pg.stop();
    let health = cluster.http[0]
        .send(reqwest::Method::GET, "/healthz", None, None)
        .await;
    assert_eq!(health.status().as_u16(), 503);
    assert_eq!(health.text().await.unwrap(), "database unreachable");
    // A move now is answered `unavailable`; the connection stays open.
    let (_, path) = greedy(&game);
    a.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": 9999}}))
        .await;
    let answer = a
        .recv_until(|m| m["t"] == "error" || (m["t"] == "ack" && m["d"]["ack"] == 9999))
        .await;
    assert_eq!(answer["d"]["code"], "unavailable", "{answer}");
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert!(pg.start(), "PostgreSQL restarts");

    play_plies(&mut game, 1000, &mut a, &mut b, &table, &mut acks).await;
    assert!(game.is_over());
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    let (status, paths) = stored(&cluster.http[1], &table).await;
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
    assert_eq!(status, "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_table_of_a_killed_node_leaves_the_other_nodes_lobby() {
    let Some(mut cluster) = Cluster::start_or_skip("the cluster lobby test", 2).await else {
        return;
    };

    // A table waiting for players on node 1, and one on node 2.
    let mut tables = Vec::new();
    for node in &cluster.http {
        let cookie = node.guest().await;
        let mut ws = node.ws(&cookie).await;
        ws.send(json!({"t": "create_table", "d": {"variant": "classic-3"}}))
            .await;
        let created = ws.recv_until(|m| m["t"] == "table_created").await;
        tables.push((created["d"]["table"].as_str().unwrap().to_owned(), ws));
    }
    let (doomed, survivor) = (tables[0].0.clone(), tables[1].0.clone());
    let watcher = cluster.http[1].guest().await;
    let mut lobby = cluster.http[1].ws(&watcher).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let ids = lobby_ids(&mut lobby).await;
        if ids.contains(&doomed) && ids.contains(&survivor) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "node 2 lists both tables: {ids:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // SIGKILL node 1: nothing says goodbye, yet its table leaves node 2's lobby once
    // its heartbeats have been missing for the lease time; node 2's own table stays.
    cluster.nodes[0].kill();
    let killed_at = Instant::now();
    let removed = lobby
        .recv_until(|m| m["t"] == "lobby_remove" && m["d"]["table"] == doomed.as_str())
        .await;
    let after = killed_at.elapsed();
    eprintln!(
        "the killed node's open table left the lobby after {:.1} s",
        after.as_secs_f64()
    );
    assert_eq!(removed["d"]["table"], doomed.as_str());
    assert!(after < Duration::from_secs(10), "{after:?}");
    assert_eq!(lobby_ids(&mut lobby).await, vec![survivor]);
}
