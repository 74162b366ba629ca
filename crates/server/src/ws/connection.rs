//! One WebSocket connection: reads client messages in order, answers each, and
//! forwards the lobby's and watched tables' events, all from one task (plus the
//! writer task that owns the socket's sending half).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use stella_engine::Variant;

use super::backlog::{self, Backlog, Verdict};
use super::feeds::{Feeds, Heard};
use super::write::write_queued;
use super::{
    decode_client_msg, ClientMsg, CreateTable, ErrorCode, EventEnvelope, ProtoError, SeatRequest,
    ServerMsg, TokenBucket, UserInfo,
};
use crate::accounts::hash_token;
use crate::http::MaybeUser;
use crate::limits::SessionTie;
use crate::state::AppState;
use crate::table::{
    create_table, NewTable, Occupant, Presence, TableHandle, TimeControl, WatchReply,
};
use crate::time::next_jump;

/// Largest WebSocket message the transport accepts at all; frames between
/// [`super::MAX_TEXT_BYTES`] and this get a `too_large` error and the connection stays.
const MAX_WS_MESSAGE: usize = 64 * 1024;

/// Bytes read from the socket at a time: twice the longest text message the server
/// reads ([`super::MAX_TEXT_BYTES`]); a longer frame takes more reads.
const READ_BUFFER: usize = 8 * 1024;

/// How often the server pings to measure lag.
const PING_EVERY: Duration = Duration::from_secs(5);

/// Pings awaiting their pong; older ones are forgotten.
const PINGS_KEPT: usize = 4;

/// How often a connection checks that its session is still valid (expiry).
const SESSION_CHECK_EVERY: Duration = Duration::from_secs(60);

/// How long a connection that stopped reading gets to flush before it is dropped.
const CLOSE_FLUSH: Duration = Duration::from_secs(5);

/// Outgoing messages a connection may have queued.
const OUT_QUEUE: usize = 512;

/// The pings the server sent and not yet seen answered: a random payload each and
/// when it left. Only a pong carrying one of these payloads measures lag.
type PingLog = Arc<Mutex<VecDeque<(u64, Instant)>>>;

/// `GET /ws`: upgrades to the live protocol. The session cookie, if any, names the
/// user; without one the connection can only watch.
pub async fn ws_handler(
    State(state): State<AppState>,
    user: MaybeUser,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // A bot names its account with its API token; a revoked one is refused outright.
    if let Some(token) = crate::bots::bearer_token(&headers) {
        return match crate::bots::token_user(&state, &token).await {
            Ok((user, token_hash)) => limited(ws).on_upgrade(move |socket| {
                run(state, Some(user), Credential::Token(token_hash), socket)
            }),
            Err(e) => e.into_response(),
        };
    }
    let session = match (&user.user, &user.token) {
        (Some(_), Some(token)) => Credential::Session(hash_token(token)),
        _ => Credential::None,
    };
    let user = user.info();
    limited(ws).on_upgrade(move |socket| run(state, user, session, socket))
}

/// The transport's limits and buffers: messages up to [`MAX_WS_MESSAGE`], and a read
/// buffer of [`READ_BUFFER`] (the WebSocket library zero-fills its whole read buffer
/// before every read from the socket, so its default of 128 KiB cost more CPU than
/// anything else the server did per move, and 128 KiB of memory per connection).
fn limited(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .read_buffer_size(READ_BUFFER)
}

/// What a connection was opened with.
enum Credential {
    /// Nothing: an anonymous spectator.
    None,
    /// A session cookie (the stored hash of its token).
    Session(String),
    /// A bot's API token (its stored hash): revoking the token ends the connection.
    Token(String),
}

/// One table a connection follows (its events arrive through [`Conn::tables`]).
struct Watch {
    /// The table, asked again for what was missed when the connection falls behind.
    handle: TableHandle,
    /// The invitation the table was watched with (a private table asks again).
    invite: Option<String>,
    /// The last version the client has; older or repeated events are not sent.
    last: u64,
    _counted: Counted,
    /// Tells the table while a logged-in user follows it.
    _presence: Option<Presence>,
}

/// One entry in the server-wide count of watches ([`AppState::watches`]).
struct Counted(AppState);

impl Counted {
    fn new(state: &AppState) -> Self {
        state.watches.fetch_add(1, Ordering::Relaxed);
        Counted(state.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.watches.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counts the connection as open (in the metrics, and for a stopping server to wait
/// for) until dropped.
struct OpenConnection(AppState);

impl OpenConnection {
    fn new(state: &AppState) -> Self {
        state.storage.metrics().connection_opened();
        state.connections.opened();
        OpenConnection(state.clone())
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.storage.metrics().connection_closed();
        self.0.connections.closed();
    }
}

/// Why a connection ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// The client closed it, or the server stops.
    Closed,
    /// The client did not read its messages for too long.
    Slow,
    /// The session it was opened with ended.
    SessionEnded,
    /// The server stops.
    ServerStopping,
}

struct Conn {
    id: u64,
    state: AppState,
    user: Option<UserInfo>,
    session: Option<String>,
    out: mpsc::Sender<ServerMsg>,
    /// The lobby's updates, while subscribed.
    lobby: Feeds<(), ServerMsg>,
    watches: HashMap<String, Watch>,
    /// The watched tables' events, by table id (the same keys as `watches`).
    tables: Feeds<String, EventEnvelope>,
    pings: PingLog,
    lag_ms: i64,
    bucket: TokenBucket,
    last_limit_notice: Option<Instant>,
    slow: AtomicBool,
}

async fn run(state: AppState, user: Option<UserInfo>, credential: Credential, socket: WebSocket) {
    let (session, tie_hash) = match credential {
        Credential::None => (None, None),
        Credential::Session(h) => (Some(h.clone()), Some(h)),
        Credential::Token(h) => (None, Some(h)),
    };
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<ServerMsg>(OUT_QUEUE);
    let pings: PingLog = Arc::default();
    let writer_pings = pings.clone();
    // Set when the server stops: the socket then closes with "going away" (1001), so
    // clients know to reconnect (to this server once it is back, or to another node).
    let going_away = Arc::new(AtomicBool::new(false));
    let writer_going_away = going_away.clone();
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(PING_EVERY);
        loop {
            tokio::select! {
                msg = out_rx.recv() => {
                    let Some(msg) = msg else { break };
                    if write_queued(&mut sink, msg, &mut out_rx).await.is_err() {
                        break;
                    }
                }
                _ = ping.tick() => {
                    let nonce = rand::random::<u64>();
                    {
                        let mut sent = writer_pings.lock().expect("ping log lock");
                        if sent.len() >= PINGS_KEPT {
                            sent.pop_front();
                        }
                        sent.push_back((nonce, Instant::now()));
                    }
                    if sink.send(Message::Ping(nonce.to_be_bytes().to_vec().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        if writer_going_away.load(Ordering::Relaxed) {
            let frame = CloseFrame {
                code: close_code::AWAY,
                reason: "the server is stopping; reconnect".into(),
            };
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
    });
    let _open = OpenConnection::new(&state);
    let now = state.time.now_ms();
    let tie: Option<SessionTie> = tie_hash.as_deref().map(|h| state.sessions.tie(h));
    // Accounts can be challenged while connected; guests take no part in challenges.
    let online = user
        .as_ref()
        .filter(|u| !u.guest)
        .map(|u| (u.id.clone(), out.clone()));
    let mut conn = Conn {
        id: state.next_connection_id(),
        bucket: TokenBucket::new(state.config.ws_burst, state.config.ws_per_second, now),
        state: state.clone(),
        user,
        session,
        out,
        lobby: Feeds::new(),
        watches: HashMap::new(),
        tables: Feeds::new(),
        pings,
        lag_ms: 0,
        last_limit_notice: None,
        slow: AtomicBool::new(false),
    };
    let online = online.map(|(id, out)| state.challenges.connect(conn.id, &id, out));
    conn.send(ServerMsg::Hello {
        user: conn.user.clone(),
        now,
    })
    .await;
    let mut shutdown = state.deps.shutdown.clone();
    let mut ended = tie.as_ref().map(|t| t.ended.clone());
    let mut jumps = state.time.jumps();
    let mut session_check = tokio::time::interval(SESSION_CHECK_EVERY);
    session_check.reset();
    let mut backlog = Backlog::new(
        state.config.slow_client_queue,
        state.config.slow_client_after,
    );
    let ending = loop {
        let verdict = backlog.observe(conn.queued());
        if verdict == Verdict::Slow {
            break Ending::Slow;
        }
        let session_ended = async {
            match ended.as_mut() {
                Some(rx) => {
                    let _ = rx.wait_for(|e| *e).await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(text))) => conn.on_text(text.as_str()).await,
                Some(Ok(Message::Binary(_))) => {
                    conn.send_error(ProtoError::new(ErrorCode::BadMessage, "binary frames are not supported; send JSON text"), None).await;
                }
                Some(Ok(Message::Pong(payload))) => conn.on_pong(&payload),
                Some(Ok(Message::Ping(_))) => {}
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break Ending::Closed,
            },
            (table, heard) = conn.tables.next() => conn.on_table_event(table, heard).await,
            ((), heard) = conn.lobby.next() => conn.on_lobby_update(heard).await,
            _ = session_ended => break Ending::SessionEnded,
            _ = session_check.tick() => {
                if !conn.session_alive().await {
                    break Ending::SessionEnded;
                }
            }
            _ = next_jump(&mut jumps), if conn.session.is_some() => {
                if !conn.session_alive().await {
                    break Ending::SessionEnded;
                }
            }
            // The queue stayed over its limit: the next round looks at it again.
            _ = backlog::until(verdict) => {}
            _ = shutdown.changed() => break Ending::ServerStopping,
        }
        if conn.slow.load(Ordering::Relaxed) {
            break Ending::Slow;
        }
    };
    state.pairing.cancel(conn.id);
    conn.lobby.clear();
    conn.tables.clear();
    conn.watches.clear();
    match ending {
        Ending::Slow => {
            tracing::info!(
                conn = conn.id,
                "closing a connection that does not read its messages"
            );
            writer.abort();
        }
        Ending::SessionEnded => {
            conn.send_error(
                ProtoError::new(
                    ErrorCode::SessionEnded,
                    "your session ended (logged out, replaced by a new login, or expired); \
                     reconnect to continue",
                ),
                None,
            )
            .await;
        }
        Ending::ServerStopping => going_away.store(true, Ordering::Relaxed),
        Ending::Closed => {}
    }
    drop(online);
    drop(conn);
    drop(tie);
    let mut writer = writer;
    if tokio::time::timeout(CLOSE_FLUSH, &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
}

impl Conn {
    /// Queues a message; a client that leaves the queue full for the slow-client time
    /// is marked slow (and then closed).
    async fn send(&self, msg: ServerMsg) {
        if self.slow.load(Ordering::Relaxed) {
            return;
        }
        let wait = self.state.config.slow_client_after;
        if tokio::time::timeout(wait, self.out.send(msg))
            .await
            .is_err()
        {
            self.slow.store(true, Ordering::Relaxed);
        }
    }

    /// Messages waiting in the outgoing queue.
    fn queued(&self) -> usize {
        self.out.max_capacity() - self.out.capacity()
    }

    /// Sends a watched table's event the client does not have yet; after a gap (the
    /// connection fell behind the table's broadcast) asks the table for what was
    /// missed; forgets the watch when the table stopped.
    async fn on_table_event(&mut self, table: String, heard: Heard<EventEnvelope>) {
        match heard {
            Heard::Item(e) => {
                let Some(w) = self.watches.get_mut(&table) else {
                    return;
                };
                if e.v <= w.last {
                    return;
                }
                w.last = e.v;
                let viewer = self.user.as_ref().map(|u| u.id.as_str());
                let e = e.into_viewer(viewer);
                self.send(ServerMsg::Event(e)).await;
            }
            Heard::Lagged => self.resync(&table).await,
            Heard::Closed => {
                self.watches.remove(&table);
            }
        }
    }

    /// Sends what the client missed of `table` since its last version (or a
    /// snapshot) and follows the table's events from there; forgets the watch when
    /// the table cannot answer.
    async fn resync(&mut self, table: &str) {
        let Some(w) = self.watches.get(table) else {
            return;
        };
        let (handle, last, invite) = (w.handle.clone(), w.last, w.invite.clone());
        match handle.watch(Some(last), self.viewer(), invite).await {
            Ok(WatchReply {
                snapshot,
                events,
                receiver,
            }) => {
                let last = send_watch_reply(&self.out, snapshot, events, Some(last)).await;
                if let Some(w) = self.watches.get_mut(table) {
                    w.last = last;
                    self.tables.follow(table.to_owned(), receiver);
                }
            }
            Err(_) => {
                self.watches.remove(table);
                self.tables.forget(&table.to_owned());
            }
        }
    }

    /// Sends a lobby update; after a gap, the whole list.
    async fn on_lobby_update(&mut self, heard: Heard<ServerMsg>) {
        match heard {
            Heard::Item(msg) => self.send(msg).await,
            Heard::Lagged => {
                let tables = self.state.lobby.list();
                self.send(ServerMsg::Lobby { tables }).await;
            }
            Heard::Closed => {}
        }
    }

    /// Whether the connection's session (if it has one) is still valid.
    async fn session_alive(&self) -> bool {
        let Some(hash) = &self.session else {
            return true;
        };
        match self
            .state
            .storage
            .session_user(hash, self.state.time.now_ms())
            .await
        {
            Ok(user) => user.is_some(),
            // A database hiccup is not a reason to drop a player.
            Err(_) => true,
        }
    }

    async fn send_error(&self, e: ProtoError, ack: Option<u64>) {
        self.send(ServerMsg::error(e, ack)).await;
    }

    /// Measures lag from the answer to a ping this server sent; any other pong
    /// (unsolicited, repeated or forged) changes nothing.
    fn on_pong(&mut self, payload: &[u8]) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let nonce = u64::from_be_bytes(bytes);
        let sent = {
            let mut pings = self.pings.lock().expect("ping log lock");
            let Some(i) = pings.iter().position(|(n, _)| *n == nonce) else {
                return;
            };
            let sent = pings[i].1;
            pings.drain(..=i);
            sent
        };
        let rtt = sent.elapsed().as_millis() as i64;
        if rtt < 60_000 {
            // One-way lag, smoothed.
            self.lag_ms = (self.lag_ms * 3 + rtt / 2) / 4;
        }
    }

    async fn on_text(&mut self, text: &str) {
        if !self.bucket.take(self.state.time.now_ms()) {
            let quiet = self
                .last_limit_notice
                .is_some_and(|t| t.elapsed() < Duration::from_secs(1));
            if !quiet {
                self.last_limit_notice = Some(Instant::now());
                self.send_error(
                    ProtoError::new(
                        ErrorCode::RateLimited,
                        "too many messages; this one was dropped",
                    ),
                    None,
                )
                .await;
            }
            return;
        }
        match decode_client_msg(text) {
            Ok(msg) => self.dispatch(msg).await,
            Err(e) => self.send_error(e, None).await,
        }
    }

    fn user(&self) -> Result<&UserInfo, ProtoError> {
        self.user.as_ref().ok_or_else(|| {
            ProtoError::new(
                ErrorCode::NotLoggedIn,
                "log in or play as a guest first (POST /api/login or /api/guest), then reconnect",
            )
        })
    }

    /// The table `id`: run here, or (in a cluster) by the node holding its lease.
    async fn table(&self, id: &str) -> Result<TableHandle, ProtoError> {
        if let Some(handle) = self.state.lobby.get(id) {
            return Ok(handle);
        }
        if let Some(node) = self.state.cluster() {
            if let Some(handle) = node.remote_table(id).await? {
                return Ok(handle);
            }
        }
        Err(ProtoError::new(
            ErrorCode::NoSuchTable,
            format!("no live table {id:?} (finished games are at /api/games/{id})"),
        ))
    }

    async fn dispatch(&mut self, msg: ClientMsg) {
        let (ack, result) = match msg {
            ClientMsg::Move {
                table,
                path,
                ack,
                confirm,
            } => (Some(ack), self.on_move(&table, path, ack, confirm).await),
            other => (None, self.on_request(other).await),
        };
        if let Err(e) = result {
            self.send_error(e, ack).await;
        }
    }

    async fn on_move(
        &mut self,
        table: &str,
        path: String,
        ack: u64,
        confirm: bool,
    ) -> Result<(), ProtoError> {
        let arrived = Instant::now();
        let user = self.user()?.id.clone();
        let handle = self.table(table).await?;
        handle.play(user, path, confirm, self.lag_ms).await?;
        self.send(ServerMsg::Ack { ack }).await;
        self.state.storage.metrics().move_acked(arrived.elapsed());
        Ok(())
    }

    async fn on_request(&mut self, msg: ClientMsg) -> Result<(), ProtoError> {
        match msg {
            ClientMsg::Ping { n } => self.send(ServerMsg::Pong { n }).await,
            ClientMsg::LobbySubscribe => self.subscribe_lobby().await,
            ClientMsg::LobbyUnsubscribe => {
                self.lobby.forget(&());
            }
            ClientMsg::CreateTable(req) => {
                let user = self.user()?.clone();
                crate::bots::check_unrated(req.rated, &[&user])?;
                crate::bots::check_games_at_once(&self.state.lobby, &user)?;
                let new = self.new_table(req)?;
                let me = user.id;
                let computer = new.seats.iter().any(|s| matches!(s, Occupant::Computer(_)));
                let reservation = self
                    .state
                    .table_quota
                    .reserve(&self.state.lobby, self.state.table_limits(), &me, computer)
                    .await?;
                let invite = new.invite.clone();
                let handle = create_table(&self.state.deps, new).await?;
                self.state.lobby.set_owner(&handle.id, &me);
                reservation.done(&handle.id).await;
                self.send(ServerMsg::TableCreated {
                    table: handle.id.clone(),
                    invite: invite.clone(),
                })
                .await;
                self.watch(&handle, None, invite).await?;
            }
            ClientMsg::Join {
                table,
                seat,
                invite,
            } => {
                let user = self.user()?.clone();
                let handle = self.table(&table).await?;
                crate::bots::check_games_at_once(&self.state.lobby, &user)?;
                let reservation = self
                    .state
                    .table_quota
                    .reserve(
                        &self.state.lobby,
                        self.state.table_limits(),
                        &user.id,
                        false,
                    )
                    .await?;
                // Watch first, so the joiner sees its own `seated` and the `started`.
                if !self.watches.contains_key(&table) {
                    let reply = handle.watch_to_join(self.viewer(), invite.clone()).await?;
                    self.follow(&handle, None, invite.clone(), reply).await;
                }
                handle.join(user, seat, invite).await?;
                reservation.done(&table).await;
            }
            ClientMsg::Leave { table } => {
                let user = self.user()?.id.clone();
                self.table(&table).await?.leave(user).await?;
            }
            ClientMsg::Watch {
                table,
                since,
                invite,
            } => {
                let handle = self.table(&table).await?;
                self.watch(&handle, since, invite).await?;
            }
            ClientMsg::Unwatch { table } => {
                self.watches.remove(&table);
                self.tables.forget(&table);
            }
            ClientMsg::ClaimWin { table } => {
                let user = self.user()?.id.clone();
                self.table(&table).await?.claim_win(user).await?;
            }
            ClientMsg::Resign { table } => {
                let user = self.user()?.id.clone();
                self.table(&table).await?.resign(user).await?;
            }
            ClientMsg::Abort { table } => {
                let user = self.user()?.id.clone();
                self.table(&table).await?.abort(user).await?;
            }
            ClientMsg::Rematch { table } => {
                let user = self.user()?.id.clone();
                self.table(&table).await?.rematch(user).await?;
            }
            ClientMsg::Chat { table, text } => {
                let user = self.user()?.clone();
                self.table(&table).await?.chat(user, text).await?;
            }
            ClientMsg::QuickPair(spec) => {
                let user = self.user()?.clone();
                crate::bots::check_games_at_once(&self.state.lobby, &user)?;
                let state = self.state.clone();
                state
                    .pairing
                    .request(&state.deps, self.id, user, spec, self.out.clone())
                    .await?;
            }
            ClientMsg::QuickPairCancel => self.state.pairing.cancel(self.id),
            ClientMsg::Challenge(req) => {
                let user = self.user()?.clone();
                crate::challenge::challenge(&self.state, self.id, &user, req).await?;
            }
            ClientMsg::ChallengeAccept { id } => {
                let user = self.user()?.clone();
                crate::challenge::accept(&self.state, &user, &id).await?;
            }
            ClientMsg::ChallengeDecline { id } => {
                let user = self.user()?.id.clone();
                crate::challenge::decline(&self.state, &user, &id).await?;
            }
            ClientMsg::ChallengeCancel { id } => {
                let user = self.user()?.id.clone();
                crate::challenge::cancel(&self.state, &user, &id).await?;
            }
            ClientMsg::Move { .. } => unreachable!("moves are dispatched separately"),
        }
        Ok(())
    }

    fn new_table(&self, req: CreateTable) -> Result<NewTable, ProtoError> {
        let user = self.user()?.clone();
        let variant = Variant::from_id(&req.variant).map_err(|_| {
            let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
            ProtoError::new(
                ErrorCode::BadVariant,
                format!(
                    "unknown variant {:?}; expected one of {}",
                    req.variant,
                    ids.join(", ")
                ),
            )
        })?;
        let n = variant.seats().len();
        if n < 2 {
            return Err(ProtoError::new(
                ErrorCode::BadVariant,
                format!("{} is not played at a table", variant.id()),
            ));
        }
        let control = req
            .time
            .map(|t| TimeControl::from_minutes_seconds(t.minutes, t.increment))
            .transpose()
            .map_err(|e| ProtoError::new(ErrorCode::BadTimeControl, e.to_string()))?;
        let requests = if req.seats.is_empty() {
            let mut s = vec![SeatRequest::Open; n];
            s[0] = SeatRequest::Me;
            s
        } else {
            req.seats
        };
        if requests.len() != n {
            return Err(ProtoError::new(
                ErrorCode::BadSeats,
                format!(
                    "{} has {n} seats; the seat list has {}",
                    variant.id(),
                    requests.len()
                ),
            ));
        }
        if requests.iter().filter(|s| **s == SeatRequest::Me).count() > 1 {
            return Err(ProtoError::new(
                ErrorCode::BadSeats,
                "you can take one seat only",
            ));
        }
        let mut seats = Vec::with_capacity(n);
        for (i, r) in requests.into_iter().enumerate() {
            seats.push(match r {
                SeatRequest::Open => Occupant::Open,
                SeatRequest::Me => Occupant::Human(user.clone()),
                SeatRequest::Computer(level) if (1..=8).contains(&level) => {
                    Occupant::Computer(level)
                }
                SeatRequest::Computer(level) => {
                    return Err(ProtoError::new(
                        ErrorCode::BadSeats,
                        format!("seat {i}: computer level must be 1 to 8, got {level}"),
                    ))
                }
            });
        }
        if seats.contains(&Occupant::Open) && !seats.iter().any(|s| s.user_id().is_some()) {
            return Err(ProtoError::new(
                ErrorCode::BadSeats,
                "a table with open seats needs you at one of its seats (\"me\"); \
                 fill the others with people or computers",
            ));
        }
        if req.rated && req.bots {
            return Err(ProtoError::new(
                ErrorCode::RatedNeedsAccounts,
                "tables that invite bots are casual; bots play casual games only",
            ));
        }
        if req.rated {
            if user.guest {
                return Err(ProtoError::new(
                    ErrorCode::RatedNeedsAccounts,
                    "guests play casual games only; register to play rated",
                ));
            }
            if seats.iter().any(|s| matches!(s, Occupant::Computer(_))) {
                return Err(ProtoError::new(
                    ErrorCode::RatedNeedsAccounts,
                    "games with computer seats are casual",
                ));
            }
        }
        Ok(NewTable {
            variant,
            control,
            rated: req.rated,
            seats,
            created_by: Some(user.id),
            invite: req.private.then(|| crate::ids::random_id(20)),
            bots: req.bots,
            move_time: match req.move_time {
                Some(s) if !crate::protocol::MOVE_TIMES.contains(&s) => {
                    return Err(ProtoError::new(
                        ErrorCode::BadTimeControl,
                        format!(
                            "move_time must be one of {:?} seconds; got {s}",
                            crate::protocol::MOVE_TIMES
                        ),
                    ))
                }
                other => other,
            },
        })
    }

    async fn subscribe_lobby(&mut self) {
        // Subscribed before the list is read, so no change falls between the two.
        self.lobby.follow((), self.state.lobby.subscribe());
        self.send(ServerMsg::Lobby {
            tables: self.state.lobby.list(),
        })
        .await;
        if let Some(user) = self.user.as_ref().filter(|u| !u.guest) {
            let challenges = self.state.challenges.involving(&user.id);
            self.send(ServerMsg::Challenges { challenges }).await;
        }
    }

    /// Sends what the client missed (or a snapshot) and follows later events.
    async fn watch(
        &mut self,
        handle: &TableHandle,
        since: Option<u64>,
        invite: Option<String>,
    ) -> Result<(), ProtoError> {
        self.watches.remove(&handle.id);
        self.tables.forget(&handle.id);
        let reply = handle.watch(since, self.viewer(), invite.clone()).await?;
        self.follow(handle, since, invite, reply).await;
        Ok(())
    }

    /// The signed-in user's id, as a table shows them its view.
    fn viewer(&self) -> Option<String> {
        self.user.as_ref().map(|u| u.id.clone())
    }

    /// Sends a table's watch answer and follows its later events.
    async fn follow(
        &mut self,
        handle: &TableHandle,
        since: Option<u64>,
        invite: Option<String>,
        reply: WatchReply,
    ) {
        let WatchReply {
            snapshot,
            events,
            receiver,
        } = reply;
        let last = send_watch_reply(&self.out, snapshot, events, since).await;
        self.tables.follow(handle.id.clone(), receiver);
        self.watches.insert(
            handle.id.clone(),
            Watch {
                handle: handle.clone(),
                invite,
                last,
                _counted: Counted::new(&self.state),
                _presence: self.viewer().map(|id| Presence::new(handle.tx.clone(), id)),
            },
        );
    }
}

/// Sends a watch answer; returns the last version the client now has.
async fn send_watch_reply(
    out: &mpsc::Sender<ServerMsg>,
    snapshot: Option<super::TableSnapshot>,
    events: Vec<super::EventEnvelope>,
    since: Option<u64>,
) -> u64 {
    let mut last = since.unwrap_or(0);
    if let Some(s) = snapshot {
        last = s.v;
        let _ = out.send(ServerMsg::Table(Box::new(s))).await;
    }
    for e in events {
        last = e.v;
        let _ = out.send(ServerMsg::Event(e)).await;
    }
    last
}
