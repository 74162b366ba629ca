//! Clusters of `stella serve --bus` processes on one database and a Redis server of
//! the test's own, with a player on each of two nodes.
//!
//! Redis is Debian's `redis-server` (on PATH or in /usr/bin); the database is a shared
//! SQLite file, or a fresh database on the PostgreSQL server `STELLA_TEST_POSTGRES`
//! names.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use stella_test_support::free_port;
use tokio::net::TcpStream;

use super::http::Http;
use super::proc::Proc;
use super::serve::serve;
use super::ws::Ws;

/// The `redis-server` binary, if the machine has one.
pub fn redis_binary() -> Option<&'static str> {
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

/// The `redis-server` binary for the test `what`; without one the test fails when `CI`
/// is set and is skipped (`None`) with a message otherwise.
pub fn redis_or_skip(what: &str) -> Option<&'static str> {
    let binary = redis_binary();
    if binary.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{what} needs redis-server (Debian package redis-server)"
        );
        eprintln!("skipping {what}: no redis-server");
    }
    binary
}

/// `redis-server` on `port` keeping its files in `dir`, once it listens.
pub async fn start_redis(binary: &str, port: u16, dir: &Path) -> Proc {
    let proc = Proc::spawn(
        Command::new(binary)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        "redis-server",
    );
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

/// A new database on the PostgreSQL server `server` names.
pub async fn fresh_postgres(server: &str) -> String {
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

/// The database of a cluster: a fresh one on `STELLA_TEST_POSTGRES` when it is set,
/// else an SQLite file in `dir`.
pub async fn cluster_database(dir: &Path) -> String {
    match std::env::var("STELLA_TEST_POSTGRES") {
        Ok(server) => fresh_postgres(&server).await,
        Err(_) => format!("sqlite://{}", dir.join("cluster.db").display()),
    }
}

/// Nodes on one database and the Redis carrying their bus.
pub struct Cluster {
    redis_binary: &'static str,
    redis_port: u16,
    dir: PathBuf,
    /// The Redis server; [`Cluster::restart_redis`] replaces it.
    pub redis: Proc,
    /// The nodes, in the order of [`Cluster::http`].
    pub nodes: Vec<Proc>,
    /// A client of each node.
    pub http: Vec<Http>,
    /// The temporary folder [`Cluster::start_or_skip`] made for the cluster, removed
    /// when the cluster is dropped (after its processes, the fields before).
    own_dir: Option<tempfile::TempDir>,
}

impl Cluster {
    /// Redis (files in `dir`) and `count` nodes on `db`, all ready; the first node
    /// creates the schema before the others start. The nodes log to `dir/nodes.log`.
    pub async fn start(dir: &Path, redis_binary: &'static str, db: &str, count: usize) -> Cluster {
        let redis_port = free_port();
        let redis = start_redis(redis_binary, redis_port, dir).await;
        let bus = format!("redis://127.0.0.1:{redis_port}");
        let log = dir.join("nodes.log");
        let http: Vec<Http> = (0..count).map(|_| Http::local(free_port())).collect();
        let mut nodes = Vec::new();
        for (i, h) in http.iter().enumerate() {
            nodes.push(serve(h.port, db, &["--bus", &bus], &log));
            if i == 0 {
                h.wait_ready().await;
            }
        }
        for h in &http[1..] {
            h.wait_ready().await;
        }
        Cluster {
            redis_binary,
            redis_port,
            dir: dir.to_owned(),
            redis,
            nodes,
            http,
            own_dir: None,
        }
    }

    /// Redis and `count` nodes on [`cluster_database`], with their files in a temporary
    /// folder of their own, for the test `what`; `None` when the test is skipped for
    /// want of redis-server (see [`redis_or_skip`]).
    pub async fn start_or_skip(what: &str, count: usize) -> Option<Cluster> {
        let redis_binary = redis_or_skip(what)?;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let db = cluster_database(dir.path()).await;
        let mut cluster = Cluster::start(dir.path(), redis_binary, &db, count).await;
        cluster.own_dir = Some(dir);
        Some(cluster)
    }

    /// Starts Redis again on its port after [`Proc::kill`] of [`Cluster::redis`].
    pub async fn restart_redis(&mut self) {
        self.redis = start_redis(self.redis_binary, self.redis_port, &self.dir).await;
    }

    /// A guest on node 0 and one on node 1, each with a socket there, seated at a new
    /// table the first created: (the first guest's cookie, their sockets, the table).
    pub async fn duel(&self) -> (String, Ws, Ws, String) {
        let ana = self.http[0].guest().await;
        let bo = self.http[1].guest().await;
        let mut a = self.http[0].ws(&ana).await;
        let mut b = self.http[1].ws(&bo).await;
        let table = duel(&mut a, &mut b).await;
        (ana, a, b, table)
    }
}

/// Two players seated at a new casual classic-2 table, created by `a` and joined by
/// `b` (retried while `b`'s node does not know the table yet): the table id.
pub async fn duel(a: &mut Ws, b: &mut Ws) -> String {
    a.send(json!({"t": "create_table", "d": {"variant": "classic-2", "rated": false}}))
        .await;
    let created = a
        .recv_until(|m| m["t"] == "table_created" || m["t"] == "error")
        .await;
    let table = created["d"]["table"].as_str().expect("a table").to_owned();
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
