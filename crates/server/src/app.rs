//! Building and running the server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{middleware, Router};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::trace::TraceLayer;

use crate::cluster::{BusError, ClusterNode};
use crate::computer::{ComputerPlayer, StellaAi};
use crate::config::{public_origins, Config};
use crate::http;
use crate::limits::{spawn_idle_closer, QueuedComputer};
use crate::lobby::Lobby;
use crate::state::AppState;
use crate::storage::{Storage, StorageError};
use crate::table::{resume_tables, TableDeps};
use crate::time::{SystemTimeSource, TimeSource};
use crate::ws::ws_handler;

/// How long a stopping server waits for its connections, then for its tables, to end.
const DRAIN_LIMIT: Duration = Duration::from_secs(5);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Storage(#[from] StorageError),
    /// The message bus of a cluster could not be reached.
    #[error("{0}")]
    Bus(#[from] BusError),
    /// The puzzle set is not a valid puzzle file.
    #[error("puzzles: {0}")]
    Puzzles(#[from] crate::puzzles::PuzzleSetError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// Stops a running server: table tasks end (live games stay stored and resume on the
/// next start), connections close, `run_until_stopped` returns.
#[derive(Debug, Clone)]
pub struct ShutdownHandle(Arc<watch::Sender<bool>>);

impl ShutdownHandle {
    /// Asks the server to stop.
    pub fn stop(&self) {
        let _ = self.0.send(true);
    }
}

/// A bound, ready server.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
    shutdown: ShutdownHandle,
}

impl Application {
    /// Opens the database, resumes live games and binds the address, with the system
    /// clock and the built-in computer player.
    pub async fn build(config: Config) -> Result<Application, StartError> {
        Self::build_with(config, Arc::new(SystemTimeSource), default_computer()).await
    }

    /// Like [`Application::build`] with an injected time source and computer player.
    pub async fn build_with(
        config: Config,
        time: Arc<dyn TimeSource>,
        computer: Arc<dyn ComputerPlayer>,
    ) -> Result<Application, StartError> {
        let puzzles = Arc::new(http::puzzle_set(config.puzzles.as_deref())?);
        let storage = Storage::connect_with(
            &config.database_url,
            config.group_commit,
            crate::monitoring::Metrics::new(),
        )
        .await?;
        let (tx, rx) = watch::channel(false);
        let computer: Arc<dyn ComputerPlayer> =
            Arc::new(QueuedComputer::new(computer, config.max_searches));
        let lobby = Arc::new(Lobby::with_time(time.clone()));
        spawn_idle_closer(
            lobby.clone(),
            time.clone(),
            config.open_table_idle,
            rx.clone(),
        );
        let deps = TableDeps {
            storage,
            time,
            lobby,
            computer,
            shutdown: rx,
            lag: config.lag,
            linger: config.finished_table_linger,
            abandon_after: config.abandon_after,
            leases: None,
        };
        let expired = deps
            .storage
            .delete_expired_sessions(deps.time.now_ms())
            .await?;
        if expired > 0 {
            tracing::info!(expired, "deleted expired sessions");
        }
        let mut deps = deps;
        let cluster = match &config.bus_url {
            // In a cluster the live games are taken over through their leases, by
            // whichever node gets each one, instead of all resumed here.
            Some(url) => {
                let node = ClusterNode::connect(
                    url,
                    deps.storage.clone(),
                    deps.lobby.clone(),
                    deps.time.clone(),
                    deps.shutdown.clone(),
                )
                .await?;
                deps.leases = Some(node.leases.clone());
                node.run(&deps).await?;
                tracing::info!(node = %node.id, "joined the cluster");
                Some(Arc::new(node))
            }
            None => {
                let resumed = resume_tables(&deps).await?;
                if resumed > 0 {
                    tracing::info!(resumed, "resumed live games");
                }
                None
            }
        };
        let listener =
            TcpListener::bind(&config.listen)
                .await
                .map_err(|source| StartError::Bind {
                    addr: config.listen.clone(),
                    source,
                })?;
        let bound = listener.local_addr().map_err(|source| StartError::Bind {
            addr: config.listen.clone(),
            source,
        })?;
        let origins = public_origins(config.public_url.as_deref(), bound);
        crate::review::spawn_reviewers(
            deps.storage.clone(),
            deps.time.clone(),
            config.reviews,
            deps.shutdown.clone(),
        );
        let state = AppState::new(config, deps, origins, puzzles);
        if let Some(node) = cluster {
            state.join_cluster(node);
            crate::cluster::social::start(&state).await?;
        }
        let router = router(state.clone());
        Ok(Application {
            listener,
            router,
            state,
            shutdown: ShutdownHandle(Arc::new(tx)),
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.local_addr().port()
    }

    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The shared state (for tests and tools).
    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    /// A handle that stops the server.
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.shutdown.clone()
    }

    /// Serves until stopped through a [`ShutdownHandle`].
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let mut rx = self.shutdown.0.subscribe();
        let storage = self.state.storage.clone();
        // Small frames (acks, events) must leave at once: without TCP_NODELAY, Nagle's
        // algorithm holds a frame written right after another until the client's
        // delayed ACK (up to 40 ms), which made the move round trip p99 > 100 ms.
        use axum::serve::ListenerExt;
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(
            listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = rx.wait_for(|stop| *stop).await;
        })
        .await?;
        // Connections see the stop, send what they still owe (acks of moves being
        // stored), close with "going away" and end; tables end too. Then the writer
        // stores what it holds and the database closes.
        let left = self.state.connections.wait_all_closed(DRAIN_LIMIT).await;
        if left > 0 {
            tracing::warn!(connections = left, "stopping with connections still open");
        }
        let lobby = self.state.lobby.clone();
        let tables_ended = async {
            while lobby.table_count() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        if tokio::time::timeout(DRAIN_LIMIT, tables_ended)
            .await
            .is_err()
        {
            tracing::warn!(
                tables = lobby.table_count(),
                "stopping with tables still running"
            );
        }
        if let Some(node) = self.state.cluster() {
            // The table tasks stopped with the server: the other nodes take the
            // tables over now rather than when the leases run out.
            node.hand_over().await;
        }
        storage.close().await;
        Ok(())
    }
}

/// The computer player of `stella serve`.
pub fn default_computer() -> Arc<dyn ComputerPlayer> {
    Arc::new(StellaAi)
}

fn router(state: AppState) -> Router {
    let api = http::account_routes()
        .merge(http::game_routes())
        .merge(crate::bots::routes())
        .merge(crate::puzzles::routes())
        .merge(crate::review::routes());
    Router::new()
        .route("/healthz", get(http::healthz))
        .route("/metrics", get(http::metrics))
        .route("/ws", get(ws_handler))
        .nest("/api", api)
        .fallback(http::static_asset)
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            http::origin_check,
        ))
        .layer(middleware::from_fn(http::security_headers))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
