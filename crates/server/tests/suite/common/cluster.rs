//! Clusters for tests: a Redis to carry their bus, and servers on one database joined
//! by it, with players on different nodes.
//!
//! Redis: a `redis-server` started by the test on a free loopback port (so it can stop
//! it), found on PATH or in /usr/bin; else the server `STELLA_TEST_REDIS` names. With
//! neither, [`redis`] fails when `CI` is set and answers `None` (the test is skipped
//! with a message) otherwise, so a developer without Redis can still run the suite
//! while a CI run cannot pass without them.
#![allow(dead_code, missing_docs)]

use std::process::{Child, Command as Process, Stdio};
use std::time::Duration;

use stella_server::cluster::Bus;
use stella_server::monitoring::Metrics;
use tokio::sync::watch;

use super::{spawn_app_with, Options, TestApp, Ws};

/// A Redis server the test started, stopped when dropped.
pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
}

fn redis_binary() -> Option<String> {
    let candidates = ["redis-server", "/usr/bin/redis-server"];
    candidates
        .iter()
        .find(|c| {
            Process::new(c)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(|c| c.to_string())
}

impl RedisServer {
    pub async fn start() -> Option<RedisServer> {
        let binary = redis_binary()?;
        // Below the ephemeral range, so that no other socket takes the port
        // while `restart` has the server down.
        let port = stella_test_support::free_port();
        let mut server = RedisServer {
            child: None,
            port,
            dir: tempfile::tempdir().expect("temp dir"),
        };
        server.child = Some(server.spawn(&binary).await);
        Some(server)
    }

    async fn spawn(&self, binary: &str) -> Child {
        let mut child = Process::new(binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return child;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("redis-server did not listen on port {}", self.port);
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub async fn restart(&mut self) {
        self.stop();
        let binary = redis_binary().expect("redis-server was there");
        self.child = Some(self.spawn(&binary).await);
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Where the Redis tests find Redis: a server of their own, or `STELLA_TEST_REDIS`.
pub enum RedisUnderTest {
    Own(RedisServer),
    Shared(String),
}

impl RedisUnderTest {
    pub fn url(&self) -> String {
        match self {
            RedisUnderTest::Own(s) => s.url(),
            RedisUnderTest::Shared(url) => url.clone(),
        }
    }
}

impl RedisUnderTest {
    /// A bus connection of the test's own on this Redis, to speak on the bus as a node
    /// would; it runs until dropped.
    pub async fn connect_bus(&self) -> OwnBus {
        let (stop, shutdown) = watch::channel(false);
        let bus = Bus::connect(&self.url(), Metrics::new(), shutdown)
            .await
            .expect("the bus connects");
        OwnBus { bus, _stop: stop }
    }
}

/// A bus connection of a test (see [`RedisUnderTest::connect_bus`]); derefs to its [`Bus`].
pub struct OwnBus {
    bus: Bus,
    /// Dropped with the connection: its background task stops then.
    _stop: watch::Sender<bool>,
}

impl std::ops::Deref for OwnBus {
    type Target = Bus;

    fn deref(&self) -> &Bus {
        &self.bus
    }
}

/// The Redis of the test named `test`, or `None` when it is skipped for want of one.
pub async fn redis(test: &str) -> Option<RedisUnderTest> {
    if let Some(own) = RedisServer::start().await {
        return Some(RedisUnderTest::Own(own));
    }
    if let Ok(url) = std::env::var("STELLA_TEST_REDIS") {
        return Some(RedisUnderTest::Shared(url));
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test} needs Redis: install redis-server or set STELLA_TEST_REDIS");
    }
    eprintln!("skipping {test}: no redis-server and no STELLA_TEST_REDIS");
    None
}

/// A node of a cluster on `redis_url`: a server for scripted players, on the database
/// of `first` (a fresh one when none).
pub async fn cluster_node(redis_url: &str, first: Option<&TestApp>) -> TestApp {
    spawn_app_with(Options {
        config: Some(|c| {
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
        }),
        database_url: first.map(|f| f.database_url.clone()),
        dir: first.map(|f| f.dir.clone()),
        bus_url: Some(redis_url.to_owned()),
        ..Options::default()
    })
    .await
}

/// Two nodes of a cluster on `redis_url`, sharing one fresh database.
pub async fn two_nodes(redis_url: &str) -> (TestApp, TestApp) {
    let n1 = cluster_node(redis_url, None).await;
    let n2 = cluster_node(redis_url, Some(&n1)).await;
    (n1, n2)
}

/// Two nodes with a player on each: `ana` registered and connected on node 1, `boris`
/// on node 2.
pub struct TwoPlayers {
    pub n1: TestApp,
    pub n2: TestApp,
    /// ana's session cookie.
    pub ana: String,
    /// boris's session cookie.
    pub boris: String,
    /// ana's socket, on node 1.
    pub a: Ws,
    /// boris's socket, on node 2.
    pub b: Ws,
}

/// [`two_nodes`] on `redis_url` with ana on node 1 and boris on node 2.
pub async fn two_players(redis_url: &str) -> TwoPlayers {
    let (n1, n2) = two_nodes(redis_url).await;
    let ana = n1.register("ana").await;
    let boris = n2.register("boris").await;
    let a = n1.ws(Some(&ana)).await;
    let b = n2.ws(Some(&boris)).await;
    TwoPlayers {
        n1,
        n2,
        ana,
        boris,
        a,
        b,
    }
}

/// One cluster node on the Redis of the test named `test` (see [`redis`]), with that
/// Redis (bind it to a name, never `_`); `None` when the test is skipped for want of Redis.
pub async fn one_node_cluster(test: &str) -> Option<(RedisUnderTest, TestApp)> {
    let redis = redis(test).await?;
    let node = cluster_node(&redis.url(), None).await;
    Some((redis, node))
}

/// [`two_nodes`] on the Redis of the test named `test` (see [`redis`]), with that
/// Redis; `None` when the test is skipped for want of Redis. Bind the Redis to a name
/// (`_redis` when the test has no other use for it, never `_`): a Redis of the test's
/// own stops when dropped.
pub async fn two_node_cluster(test: &str) -> Option<(RedisUnderTest, TestApp, TestApp)> {
    let redis = redis(test).await?;
    let (n1, n2) = two_nodes(&redis.url()).await;
    Some((redis, n1, n2))
}

/// [`two_players`] on the Redis of the test named `test`, with that Redis (bind it as
/// for [`two_node_cluster`]); `None` when the test is skipped.
pub async fn two_player_cluster(test: &str) -> Option<(RedisUnderTest, TwoPlayers)> {
    let redis = redis(test).await?;
    let players = two_players(&redis.url()).await;
    Some((redis, players))
}
