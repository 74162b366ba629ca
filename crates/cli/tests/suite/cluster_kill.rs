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
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use stella_engine::{Game, Variant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const STELLA: &str = env!("CARGO_BIN_EXE_stella");

/// A child process killed (SIGKILL) when dropped, so a failing test leaves nothing.
struct Proc(Option<Child>);

impl Proc {
    fn kill(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .unwrap()
        .port()
}

fn redis_binary() -> Option<&'static str> {
    ["redis-server", "/usr/bin/redis-server"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
}

async fn start_redis(binary: &str, port: u16, dir: &Path) -> Proc {
    let child = Command::new(binary)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("redis-server starts");
    let proc = Proc(Some(child));
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(
            Instant::now() < deadline,
            "redis-server listens within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    proc
}

fn serve(port: u16, db: &str, bus: &str, log: &Path) -> Proc {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("server log");
    let child = Command::new(STELLA)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--db", db, "--bus", bus])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("stella serve starts");
    Proc(Some(child))
}

async fn wait_ready(http: &reqwest::Client, port: u16) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let url = format!("http://127.0.0.1:{port}/healthz");
        if let Ok(r) = http.get(url).send().await {
            if r.status().is_success() {
                return;
            }
        }
        assert!(Instant::now() < deadline, "node ready within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn guest(http: &reqwest::Client, port: u16) -> String {
    let res = http
        .post(format!("http://127.0.0.1:{port}/api/guest"))
        .send()
        .await
        .expect("guest request");
    assert!(res.status().is_success(), "guest: {}", res.status());
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.split(';')
                .next()
                .filter(|p| p.starts_with("stella_session="))
        })
        .expect("a session cookie")
        .to_owned()
}

struct Ws(WebSocketStream<MaybeTlsStream<TcpStream>>);

impl Ws {
    async fn connect(port: u16, cookie: &str) -> Ws {
        let mut req = format!("ws://127.0.0.1:{port}/ws")
            .into_client_request()
            .unwrap();
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
        let (stream, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("ws connects");
        let mut ws = Ws(stream);
        assert_eq!(ws.recv().await["t"], "hello");
        ws
    }

    async fn send(&mut self, msg: Value) {
        self.0
            .send(Message::Text(msg.to_string().into()))
            .await
            .expect("ws send");
    }

    async fn recv(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(20), self.0.next())
                .await
                .expect("a message within 20 s")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = frame {
                return serde_json::from_str(t.as_str()).expect("JSON");
            }
        }
    }

    async fn recv_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Sends a move until the server acknowledges it; `unavailable` (the table is
    /// moving, or a part is down) is retried, any other refusal fails the test.
    async fn play(&mut self, table: &str, path: &str, ack: &mut u64) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            *ack += 1;
            let a = *ack;
            self.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": a}}))
                .await;
            let answer = self
                .recv_until(|m| (m["t"] == "ack" && m["d"]["ack"] == a) || m["t"] == "error")
                .await;
            if answer["t"] == "ack" {
                return;
            }
            assert_eq!(answer["d"]["code"], "unavailable", "{path}: {answer}");
            assert!(Instant::now() < deadline, "{path} taken within 30 s");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

fn greedy(game: &Game) -> (stella_engine::Move, String) {
    let mv = stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64)
        .expect("a legal move");
    let path = game.position().path_of(&mv).to_string();
    (mv, path)
}

/// The paths stored for `table`, from the replay route of `port`.
async fn stored(http: &reqwest::Client, port: u16, table: &str) -> (String, Vec<String>) {
    let replay: Value = http
        .get(format!("http://127.0.0.1:{port}/api/games/{table}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paths = replay["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["path"].as_str().unwrap().to_owned())
        .collect();
    (replay["status"].as_str().unwrap_or("").to_owned(), paths)
}

/// Two players seated at a new table: the creator on `port_a`, the joiner on `port_b`.
async fn duel(port_a: u16, a: &mut Ws, b: &mut Ws) -> String {
    let _ = port_a;
    a.send(json!({"t": "create_table", "d": {"variant": "classic-2", "rated": false}}))
        .await;
    let created = a
        .recv_until(|m| m["t"] == "table_created" || m["t"] == "error")
        .await;
    let table = created["d"]["table"].as_str().expect("a table").to_owned();
    // The join may reach the other node before the lobby change does: retry briefly.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        b.send(json!({"t": "join", "d": {"table": table}})).await;
        let m = b
            .recv_until(|m| m["t"] == "error" || (m["t"] == "event" && m["d"]["type"] == "started"))
            .await;
        if m["t"] == "event" {
            break;
        }
        assert!(Instant::now() < deadline, "join: {m}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    table
}

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

/// A new database on the PostgreSQL server `server` names.
async fn fresh_postgres(server: &str) -> String {
    use sqlx::{Connection, Executor};
    let name = format!("stella_cluster_{}", free_port());
    let mut admin = sqlx::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .expect("STELLA_TEST_POSTGRES reachable");
    admin
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .expect("create test database");
    format!("{server}/{name}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_a_node_and_a_redis_restart_lose_no_acknowledged_move() {
    let Some(redis_bin) = redis_binary() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the cluster failover test needs redis-server (Debian package redis-server)"
        );
        eprintln!("skipping the cluster failover test: no redis-server");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = match std::env::var("STELLA_TEST_POSTGRES") {
        Ok(server) => fresh_postgres(&server).await,
        Err(_) => format!("sqlite://{}", dir.path().join("cluster.db").display()),
    };
    let redis_port = free_port();
    let mut redis = start_redis(redis_bin, redis_port, dir.path()).await;
    let bus = format!("redis://127.0.0.1:{redis_port}");
    let log = dir.path().join("nodes.log");
    let ports = [free_port(), free_port(), free_port()];
    let http = reqwest::Client::new();
    // The first node creates the schema before the others start.
    let mut n1 = serve(ports[0], &db, &bus, &log);
    wait_ready(&http, ports[0]).await;
    let _n2 = serve(ports[1], &db, &bus, &log);
    let _n3 = serve(ports[2], &db, &bus, &log);
    wait_ready(&http, ports[1]).await;
    wait_ready(&http, ports[2]).await;

    let ana = guest(&http, ports[0]).await;
    let bo = guest(&http, ports[1]).await;
    let mut a = Ws::connect(ports[0], &ana).await;
    let mut b = Ws::connect(ports[1], &bo).await;
    let table = duel(ports[0], &mut a, &mut b).await;
    let mut game = Game::new(Variant::Classic2);
    let mut acks = [0, 0];
    play_plies(&mut game, 12, &mut a, &mut b, &table, &mut acks).await;

    // SIGKILL the node running the table; ana comes back through node 3.
    n1.kill();
    let killed_at = Instant::now();
    let mut a = Ws::connect(ports[2], &ana).await;
    play_plies(&mut game, 1, &mut a, &mut b, &table, &mut acks).await;
    eprintln!(
        "first move after the SIGKILL acknowledged after {:.1} s",
        killed_at.elapsed().as_secs_f64()
    );
    play_plies(&mut game, 1000, &mut a, &mut b, &table, &mut acks).await;
    assert!(game.is_over(), "the greedy game ends");
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    let (status, paths) = stored(&http, ports[1], &table).await;
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
    assert_eq!(status, "finished");

    // A second game between the remaining nodes; Redis stops and restarts under it.
    let table = duel(ports[2], &mut a, &mut b).await;
    let mut game = Game::new(Variant::Classic2);
    play_plies(&mut game, 6, &mut a, &mut b, &table, &mut acks).await;
    redis.kill();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let health = http
        .get(format!("http://127.0.0.1:{}/healthz", ports[1]))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 503);
    assert_eq!(health.text().await.unwrap(), "message bus unreachable");
    let _redis = start_redis(redis_bin, redis_port, dir.path()).await;
    play_plies(&mut game, 1000, &mut a, &mut b, &table, &mut acks).await;
    assert!(game.is_over());
    let played: Vec<String> = game.moves().iter().map(|(_, p)| p.to_string()).collect();
    let (_, paths) = stored(&http, ports[1], &table).await;
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
    let redis_port = free_port();
    let _redis = start_redis(redis_bin, redis_port, dir.path()).await;
    let bus = format!("redis://127.0.0.1:{redis_port}");
    let log = dir.path().join("nodes.log");
    let ports = [free_port(), free_port()];
    let http = reqwest::Client::new();
    let _n1 = serve(ports[0], &db, &bus, &log);
    wait_ready(&http, ports[0]).await;
    let _n2 = serve(ports[1], &db, &bus, &log);
    wait_ready(&http, ports[1]).await;

    let ana = guest(&http, ports[0]).await;
    let bo = guest(&http, ports[1]).await;
    let mut a = Ws::connect(ports[0], &ana).await;
    let mut b = Ws::connect(ports[1], &bo).await;
    let table = duel(ports[0], &mut a, &mut b).await;
    let mut game = Game::new(Variant::Classic2);
    let mut acks = [0, 0];
    play_plies(&mut game, 8, &mut a, &mut b, &table, &mut acks).await;

    pg.stop();
    let health = http
        .get(format!("http://127.0.0.1:{}/healthz", ports[0]))
        .send()
        .await
        .unwrap();
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
    let (status, paths) = stored(&http, ports[1], &table).await;
    assert_eq!(paths, played, "every acknowledged move stored exactly once");
    assert_eq!(status, "finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_table_of_a_killed_node_leaves_the_other_nodes_lobby() {
    let Some(redis_bin) = redis_binary() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the cluster lobby test needs redis-server (Debian package redis-server)"
        );
        eprintln!("skipping the cluster lobby test: no redis-server");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = match std::env::var("STELLA_TEST_POSTGRES") {
        Ok(server) => fresh_postgres(&server).await,
        Err(_) => format!("sqlite://{}", dir.path().join("cluster.db").display()),
    };
    let redis_port = free_port();
    let _redis = start_redis(redis_bin, redis_port, dir.path()).await;
    let bus = format!("redis://127.0.0.1:{redis_port}");
    let log = dir.path().join("nodes.log");
    let ports = [free_port(), free_port()];
    let http = reqwest::Client::new();
    let mut n1 = serve(ports[0], &db, &bus, &log);
    wait_ready(&http, ports[0]).await;
    let _n2 = serve(ports[1], &db, &bus, &log);
    wait_ready(&http, ports[1]).await;

    // A table waiting for players on node 1, and one on node 2.
    let mut tables = Vec::new();
    for port in ports {
        let cookie = guest(&http, port).await;
        let mut ws = Ws::connect(port, &cookie).await;
        ws.send(json!({"t": "create_table", "d": {"variant": "classic-3"}}))
            .await;
        let created = ws.recv_until(|m| m["t"] == "table_created").await;
        tables.push((created["d"]["table"].as_str().unwrap().to_owned(), ws));
    }
    let (doomed, survivor) = (tables[0].0.clone(), tables[1].0.clone());
    let watcher = guest(&http, ports[1]).await;
    let mut lobby = Ws::connect(ports[1], &watcher).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        lobby.send(json!({"t": "lobby_subscribe"})).await;
        let list = lobby.recv_until(|m| m["t"] == "lobby").await;
        let ids: Vec<&str> = list["d"]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["id"].as_str())
            .collect();
        if ids.contains(&doomed.as_str()) && ids.contains(&survivor.as_str()) {
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
    n1.kill();
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
    lobby.send(json!({"t": "lobby_subscribe"})).await;
    let list = lobby.recv_until(|m| m["t"] == "lobby").await;
    let ids: Vec<&str> = list["d"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert_eq!(ids, vec![survivor.as_str()]);
}
