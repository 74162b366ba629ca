//! One WebSocket connection: reads client messages in order, answers each, and
//! forwards the lobby and watched tables' events.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

use stella_engine::Variant;

use super::{
    decode_client_msg, ClientMsg, CreateTable, ErrorCode, PlayerView, ProtoError, SeatRequest,
    ServerMsg, TokenBucket, UserInfo,
};
use crate::http::MaybeUser;
use crate::state::AppState;
use crate::table::{create_table, NewTable, Occupant, TableHandle, TimeControl, WatchReply};

/// Largest WebSocket message the transport accepts at all; frames between
/// [`super::MAX_TEXT_BYTES`] and this get a `too_large` error and the connection stays.
const MAX_WS_MESSAGE: usize = 64 * 1024;

/// Open (not yet started) tables a player may sit at, at once.
const MAX_OPEN_TABLES: usize = 5;

/// How often the server pings to measure lag.
const PING_EVERY: Duration = Duration::from_secs(5);

/// `GET /ws`: upgrades to the live protocol. The session cookie, if any, names the
/// user; without one the connection can only watch.
pub async fn ws_handler(
    State(state): State<AppState>,
    user: MaybeUser,
    ws: WebSocketUpgrade,
) -> Response {
    let user = user.info();
    ws.max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| run(state, user, socket))
}

struct Conn {
    id: u64,
    state: AppState,
    user: Option<UserInfo>,
    out: mpsc::Sender<ServerMsg>,
    lobby: Option<JoinHandle<()>>,
    watches: HashMap<String, JoinHandle<()>>,
    lag_ms: i64,
    bucket: TokenBucket,
    last_limit_notice: Option<Instant>,
    started: Instant,
}

async fn run(state: AppState, user: Option<UserInfo>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<ServerMsg>(512);
    let started = Instant::now();
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(PING_EVERY);
        loop {
            tokio::select! {
                msg = out_rx.recv() => {
                    let Some(msg) = msg else { break };
                    let text = serde_json::to_string(&msg).expect("server messages serialize");
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                _ = ping.tick() => {
                    let stamp = (started.elapsed().as_millis() as u64).to_be_bytes();
                    if sink.send(Message::Ping(stamp.to_vec().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    });
    let now = state.time.now_ms();
    let mut conn = Conn {
        id: state.next_connection_id(),
        bucket: TokenBucket::new(state.config.ws_burst, state.config.ws_per_second, now),
        state: state.clone(),
        user,
        out,
        lobby: None,
        watches: HashMap::new(),
        lag_ms: 0,
        last_limit_notice: None,
        started,
    };
    conn.send(ServerMsg::Hello {
        user: conn.user.clone(),
        now,
    })
    .await;
    let mut shutdown = state.deps.shutdown.clone();
    loop {
        tokio::select! {
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(text))) => conn.on_text(text.as_str()).await,
                Some(Ok(Message::Binary(_))) => {
                    conn.send_error(ProtoError::new(ErrorCode::BadMessage, "binary frames are not supported; send JSON text"), None).await;
                }
                Some(Ok(Message::Pong(payload))) => conn.on_pong(&payload),
                Some(Ok(Message::Ping(_))) => {}
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            },
            _ = shutdown.changed() => break,
        }
    }
    state.pairing.cancel(conn.id);
    if let Some(t) = conn.lobby.take() {
        t.abort();
    }
    for (_, t) in conn.watches.drain() {
        t.abort();
    }
    drop(conn);
    let _ = writer.await;
}

impl Conn {
    async fn send(&self, msg: ServerMsg) {
        let _ = self.out.send(msg).await;
    }

    async fn send_error(&self, e: ProtoError, ack: Option<u64>) {
        self.send(ServerMsg::error(e, ack)).await;
    }

    fn on_pong(&mut self, payload: &[u8]) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let sent = u64::from_be_bytes(bytes) as i64;
        let rtt = self.started.elapsed().as_millis() as i64 - sent;
        if (0..60_000).contains(&rtt) {
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

    fn table(&self, id: &str) -> Result<TableHandle, ProtoError> {
        self.state.lobby.get(id).ok_or_else(|| {
            ProtoError::new(
                ErrorCode::NoSuchTable,
                format!("no live table {id:?} (finished games are at /api/games/{id})"),
            )
        })
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
        let user = self.user()?.id.clone();
        let handle = self.table(table)?;
        handle.play(user, path, confirm, self.lag_ms).await?;
        self.send(ServerMsg::Ack { ack }).await;
        Ok(())
    }

    async fn on_request(&mut self, msg: ClientMsg) -> Result<(), ProtoError> {
        match msg {
            ClientMsg::Ping { n } => self.send(ServerMsg::Pong { n }).await,
            ClientMsg::LobbySubscribe => self.subscribe_lobby().await,
            ClientMsg::LobbyUnsubscribe => {
                if let Some(t) = self.lobby.take() {
                    t.abort();
                }
            }
            ClientMsg::CreateTable(req) => {
                let new = self.new_table(req)?;
                let me = self.user()?.id.clone();
                let waiting = self
                    .state
                    .lobby
                    .list()
                    .iter()
                    .filter(|t| t.status == "open")
                    .filter(|t| {
                        t.seats
                            .iter()
                            .any(|s| matches!(&s.player, PlayerView::Human { id, .. } if *id == me))
                    })
                    .count();
                if waiting >= MAX_OPEN_TABLES {
                    return Err(ProtoError::new(
                        ErrorCode::TooManyTables,
                        format!("you already wait at {waiting} open tables; leave one first"),
                    ));
                }
                let invite = new.invite.clone();
                let handle = create_table(&self.state.deps, new).await?;
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
                let handle = self.table(&table)?;
                // Watch first, so the joiner sees its own `seated` and the `started`.
                if !self.watches.contains_key(&table) {
                    self.watch(&handle, None, invite.clone()).await?;
                }
                handle.join(user, seat, invite).await?;
            }
            ClientMsg::Leave { table } => {
                let user = self.user()?.id.clone();
                self.table(&table)?.leave(user).await?;
            }
            ClientMsg::Watch {
                table,
                since,
                invite,
            } => {
                let handle = self.table(&table)?;
                self.watch(&handle, since, invite).await?;
            }
            ClientMsg::Unwatch { table } => {
                if let Some(t) = self.watches.remove(&table) {
                    t.abort();
                }
            }
            ClientMsg::Resign { table } => {
                let user = self.user()?.id.clone();
                self.table(&table)?.resign(user).await?;
            }
            ClientMsg::Abort { table } => {
                let user = self.user()?.id.clone();
                self.table(&table)?.abort(user).await?;
            }
            ClientMsg::Rematch { table } => {
                let user = self.user()?.id.clone();
                self.table(&table)?.rematch(user).await?;
            }
            ClientMsg::Chat { table, text } => {
                let user = self.user()?.clone();
                self.table(&table)?.chat(user, text).await?;
            }
            ClientMsg::QuickPair(spec) => {
                let user = self.user()?.clone();
                let state = self.state.clone();
                state
                    .pairing
                    .request(&state.deps, self.id, user, spec, self.out.clone())
                    .await?;
            }
            ClientMsg::QuickPairCancel => self.state.pairing.cancel(self.id),
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
        if let Some(t) = self.lobby.take() {
            t.abort();
        }
        let lobby = self.state.lobby.clone();
        let mut rx = lobby.subscribe();
        self.send(ServerMsg::Lobby {
            tables: lobby.list(),
        })
        .await;
        let out = self.out.clone();
        self.lobby = Some(tokio::spawn(async move {
            loop {
                let msg = match rx.recv().await {
                    Ok(m) => m,
                    Err(broadcast::error::RecvError::Lagged(_)) => ServerMsg::Lobby {
                        tables: lobby.list(),
                    },
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if out.send(msg).await.is_err() {
                    break;
                }
            }
        }));
    }

    /// Sends what the client missed (or a snapshot) and forwards later events.
    async fn watch(
        &mut self,
        handle: &TableHandle,
        since: Option<u64>,
        invite: Option<String>,
    ) -> Result<(), ProtoError> {
        if let Some(t) = self.watches.remove(&handle.id) {
            t.abort();
        }
        let viewer = self.user.as_ref().map(|u| u.id.clone());
        let WatchReply {
            snapshot,
            events,
            receiver,
        } = handle.watch(since, viewer.clone(), invite.clone()).await?;
        let last = send_watch_reply(&self.out, snapshot, events, since).await;
        let out = self.out.clone();
        let id = handle.id.clone();
        let handle = handle.clone();
        let mut rx = receiver;
        let task = tokio::spawn(async move {
            let mut last = last;
            loop {
                match rx.recv().await {
                    Ok(e) => {
                        if e.v <= last {
                            continue;
                        }
                        last = e.v;
                        let e = e.for_viewer(viewer.as_deref());
                        if out.send(ServerMsg::Event(e)).await.is_err() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        match handle
                            .watch(Some(last), viewer.clone(), invite.clone())
                            .await
                        {
                            Ok(WatchReply {
                                snapshot,
                                events,
                                receiver,
                            }) => {
                                last = send_watch_reply(&out, snapshot, events, Some(last)).await;
                                rx = receiver;
                            }
                            Err(_) => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        self.watches.insert(id, task);
        Ok(())
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
        let _ = out.send(ServerMsg::Table(s)).await;
    }
    for e in events {
        last = e.v;
        let _ = out.send(ServerMsg::Event(e)).await;
    }
    last
}
