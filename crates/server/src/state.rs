//! The state shared by every request and connection.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::challenge::Challenges;
use crate::cluster::ClusterNode;
use crate::config::Config;
use crate::drain::OpenConnections;
use crate::limits::{client_addr, HashGate, LiveSessions, LoginThrottle, TableLimits, TableQuota};
use crate::lobby::Lobby;
use crate::pairing::Pairing;
use crate::puzzles::PuzzleSet;
use crate::storage::Storage;
use crate::table::TableDeps;
use crate::time::TimeSource;
use crate::ws::TokenBucket;

/// Shared server state (cheap to clone).
#[derive(Debug, Clone)]
pub struct AppState(Arc<Inner>);

/// The contents of [`AppState`].
#[derive(Debug)]
pub struct Inner {
    /// The configuration.
    pub config: Config,
    /// The database.
    pub storage: Storage,
    /// The time source.
    pub time: Arc<dyn TimeSource>,
    /// Tables and the lobby list.
    pub lobby: Arc<Lobby>,
    /// What table tasks need.
    pub deps: TableDeps,
    /// Quick pairing queue.
    pub pairing: Pairing,
    /// Open direct challenges and the connected accounts.
    pub challenges: Challenges,
    /// The bound on concurrent password hashing.
    pub hashing: HashGate,
    /// Table creations and joins in progress, for the per-user table limits.
    pub table_quota: TableQuota,
    /// The live sockets of each session.
    pub sessions: LiveSessions,
    /// Tables followed by connections, summed over every connection.
    pub watches: AtomicUsize,
    /// Open WebSocket connections (a stopping server waits for them).
    pub connections: OpenConnections,
    /// Per-account login throttling.
    pub login_throttle: LoginThrottle,
    /// The origins the server is reached at (the Origin check's reference).
    pub public_origins: Vec<String>,
    /// The puzzle set served.
    pub puzzles: Arc<PuzzleSet>,
    auth_limits: Mutex<HashMap<IpAddr, TokenBucket>>,
    next_conn: AtomicU64,
    cluster: OnceLock<Arc<ClusterNode>>,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Shared state from its parts; `public_origins` are the origins the server is
    /// reached at (see [`crate::config::public_origins`]), `puzzles` the puzzle set.
    pub fn new(
        config: Config,
        deps: TableDeps,
        public_origins: Vec<String>,
        puzzles: Arc<PuzzleSet>,
    ) -> Self {
        AppState(Arc::new(Inner {
            storage: deps.storage.clone(),
            time: deps.time.clone(),
            lobby: deps.lobby.clone(),
            deps,
            pairing: Pairing::default(),
            challenges: Challenges::default(),
            hashing: HashGate::new(config.hash_concurrency, config.hash_queue, config.hash_wait),
            table_quota: TableQuota::default(),
            sessions: LiveSessions::default(),
            watches: AtomicUsize::new(0),
            connections: OpenConnections::default(),
            login_throttle: LoginThrottle::new(
                config.login_free_failures,
                config.login_max_delay.as_millis() as i64,
            ),
            public_origins,
            puzzles,
            auth_limits: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            cluster: OnceLock::new(),
            config,
        }))
    }

    /// Takes one login/registration attempt for `ip`; false when over the limit.
    pub fn allow_auth_attempt(&self, ip: IpAddr) -> bool {
        let now = self.time.now_ms();
        let mut limits = self.auth_limits.lock().expect("rate limit lock");
        if limits.len() > 100_000 {
            limits.clear();
        }
        limits
            .entry(ip)
            .or_insert_with(|| {
                TokenBucket::new_per_minute(
                    self.config.auth_burst,
                    self.config.auth_per_minute,
                    now,
                )
            })
            .take(now)
    }

    /// The per-user table limits of the configuration.
    pub fn table_limits(&self) -> TableLimits {
        TableLimits {
            open_tables: self.config.max_open_tables,
            computer_tables: self.config.max_computer_tables,
        }
    }

    /// The address a request counts against: the peer, or the client a trusted proxy
    /// names.
    pub fn client_ip(&self, peer: IpAddr, headers: &axum::http::HeaderMap) -> IpAddr {
        client_addr(peer, headers, &self.config.trusted_proxies)
    }

    /// This node's part in a cluster (`stella serve --bus`), none on a single node.
    pub fn cluster(&self) -> Option<&Arc<ClusterNode>> {
        self.cluster.get()
    }

    /// Makes this server a node of a cluster (once, at start).
    pub fn join_cluster(&self, node: Arc<ClusterNode>) {
        let _ = self.cluster.set(node);
    }

    /// A fresh connection number.
    pub fn next_connection_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}
