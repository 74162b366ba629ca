//! One simulated player: a guest session over HTTP, one WebSocket, classic-2 games
//! against its partner, greedy moves from the engine, reconnection and resync.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::time::{sleep, sleep_until, timeout, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use stella_ai::greedy::greedy_move;
use stella_ai::rng::Rng;
use stella_engine::{Game, MovePath, Variant};

use super::nodes::Node;
use super::stats::{GameLog, Stats};

/// What every player shares.
#[derive(Debug)]
pub struct Shared {
    /// The servers, each with the counters of its clients.
    pub nodes: Vec<Node>,
    /// When players stop.
    pub deadline: Instant,
    /// Mean think time before a move.
    pub think: Duration,
    /// Time control of created tables, as `{"minutes", "increment"}`.
    pub time: Option<Value>,
    /// A game this long is resigned (guards against endless games).
    pub max_plies: usize,
    /// Keep per-game logs for the JSON report.
    pub keep_logs: bool,
}

/// A player's part in its pair.
pub enum Role {
    /// Creates each table and passes its id on.
    Creator(mpsc::Sender<String>),
    /// Joins the tables its partner creates.
    Joiner(mpsc::Receiver<String>),
}

type Ws = WebSocketStream<TcpStream>;

/// Why a game loop stopped early.
enum Stop {
    /// The run is over.
    Deadline,
    /// The connection could not be restored before the deadline.
    Gone,
}

/// One simulated player.
pub struct Player {
    index: usize,
    /// The node (of [`Shared::nodes`]) this player connects to.
    node: usize,
    role: Role,
    local_ip: Option<IpAddr>,
    shared: Arc<Shared>,
    cookie: String,
    user_id: String,
    ws: Option<Ws>,
    rng: Rng,
    next_ack: u64,
}

/// A move sent and not yet answered.
struct Inflight {
    ack: u64,
    ply: u64,
    path: String,
    sent: Instant,
}

/// The client's view of its current table.
struct Table {
    id: String,
    seat_colours: Vec<String>,
    colour: Option<String>,
    game: Game,
    last_v: u64,
    live: bool,
    ended: bool,
    inflight: Option<Inflight>,
    /// The ply of the last acknowledged move: no new move before its `moved` event.
    acked_ply: u64,
    move_at: Option<Instant>,
    resigned: bool,
    log: GameLog,
}

impl Table {
    fn new(id: String) -> Table {
        Table {
            log: GameLog {
                table: id.clone(),
                ..GameLog::default()
            },
            id,
            seat_colours: Vec::new(),
            colour: None,
            game: Game::new(Variant::Classic2),
            last_v: 0,
            live: false,
            ended: false,
            inflight: None,
            acked_ply: 0,
            move_at: None,
            resigned: false,
        }
    }

    fn my_turn(&self) -> bool {
        self.live
            && !self.ended
            && !self.game.is_over()
            && self.game.moves().len() as u64 >= self.acked_ply
            && self
                .colour
                .as_deref()
                .is_some_and(|c| c == self.game.turn().name())
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}

impl Player {
    /// A player of `node`; `index` seeds its choices and picks its source address.
    pub fn new(
        index: usize,
        node: usize,
        role: Role,
        local_ip: Option<IpAddr>,
        shared: Arc<Shared>,
    ) -> Self {
        Player {
            index,
            node,
            role,
            local_ip,
            shared,
            cookie: String::new(),
            user_id: String::new(),
            ws: None,
            rng: Rng::new(index as u64 * 7919 + 1),
            next_ack: 1,
        }
    }

    fn target(&self) -> &Node {
        &self.shared.nodes[self.node]
    }

    fn stats(&self) -> &Stats {
        &self.target().stats
    }

    /// Logs in, connects and plays games until the deadline.
    pub async fn run(mut self) {
        if !self.login().await {
            return;
        }
        if self.connect_with_retry().await.is_none() {
            return;
        }
        self.stats().ever_connected.fetch_add(1, Ordering::Relaxed);
        while Instant::now() < self.shared.deadline {
            match self.one_game().await {
                Ok(()) => {}
                Err(Stop::Deadline) | Err(Stop::Gone) => break,
            }
        }
        if let Some(mut ws) = self.ws.take() {
            self.stats().connected.fetch_sub(1, Ordering::Relaxed);
            let _ = timeout(Duration::from_secs(2), ws.close(None)).await;
        }
    }

    // ----- session and connection -----

    /// Gets a guest session (retrying on rate limits and server errors).
    async fn login(&mut self) -> bool {
        let mut builder = reqwest::Client::builder().timeout(Duration::from_secs(30));
        if let Some(ip) = self.local_ip {
            builder = builder.local_address(ip);
        }
        let http = match builder.build() {
            Ok(c) => c,
            Err(_) => {
                self.stats().error("http:client");
                return false;
            }
        };
        let mut backoff = Duration::from_millis(200);
        while Instant::now() < self.shared.deadline {
            let res = http
                .post(format!("{}/api/guest", self.target().base))
                .json(&json!({}))
                .send()
                .await;
            match res {
                Ok(res) if res.status().is_success() => {
                    let cookie = res
                        .headers()
                        .get_all("set-cookie")
                        .iter()
                        .filter_map(|v| v.to_str().ok())
                        .find(|v| v.starts_with("stella_session="))
                        .map(|v| v.split(';').next().unwrap_or_default().to_owned());
                    let body: Value = res.json().await.unwrap_or(Value::Null);
                    match (cookie, body["user"]["id"].as_str()) {
                        (Some(c), Some(id)) => {
                            self.cookie = c;
                            self.user_id = id.to_owned();
                            return true;
                        }
                        _ => {
                            self.stats().error("http:guest:no_session");
                            return false;
                        }
                    }
                }
                Ok(res) => self
                    .stats()
                    .error(format!("http:guest:{}", res.status().as_u16())),
                Err(e) if e.is_timeout() => self.stats().error("http:guest:timeout"),
                Err(_) => self.stats().error("http:guest:connect"),
            }
            sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
        false
    }

    /// Opens the WebSocket with the session cookie and waits for `hello`.
    async fn connect(&self) -> Result<Ws, String> {
        let socket = if self.target().addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(|_| "ws:socket".to_owned())?;
        if let Some(ip) = self.local_ip {
            socket
                .bind(SocketAddr::new(ip, 0))
                .map_err(|_| "ws:bind".to_owned())?;
        }
        let tcp = timeout(Duration::from_secs(10), socket.connect(self.target().addr))
            .await
            .map_err(|_| "ws:connect_timeout".to_owned())?
            .map_err(|_| "ws:connect".to_owned())?;
        let _ = tcp.set_nodelay(true);
        let mut req = self
            .target()
            .ws_url
            .as_str()
            .into_client_request()
            .map_err(|_| "ws:request".to_owned())?;
        req.headers_mut().insert(
            "cookie",
            self.cookie.parse().map_err(|_| "ws:cookie".to_owned())?,
        );
        let (mut ws, _) = timeout(
            Duration::from_secs(10),
            tokio_tungstenite::client_async_with_config(req, tcp, Some(ws_config())),
        )
        .await
        .map_err(|_| "ws:handshake_timeout".to_owned())?
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Http(r) => {
                format!("ws:handshake:{}", r.status().as_u16())
            }
            _ => "ws:handshake".to_owned(),
        })?;
        let hello = timeout(Duration::from_secs(10), next_json(&mut ws))
            .await
            .map_err(|_| "ws:hello_timeout".to_owned())?
            .ok_or_else(|| "ws:closed".to_owned())?;
        if hello["t"] != "hello" {
            return Err("protocol:no_hello".into());
        }
        if hello["d"]["user"]["id"].as_str() != Some(self.user_id.as_str()) {
            return Err("protocol:hello_not_me".into());
        }
        Ok(ws)
    }

    /// Connects, retrying with backoff until the deadline; `None` if it never worked.
    async fn connect_with_retry(&mut self) -> Option<()> {
        let mut backoff = Duration::from_millis(100);
        while Instant::now() < self.shared.deadline {
            match self.connect().await {
                Ok(ws) => {
                    self.ws = Some(ws);
                    self.stats().connected.fetch_add(1, Ordering::Relaxed);
                    return Some(());
                }
                Err(kind) => self.stats().error(kind),
            }
            let wake = (Instant::now() + backoff).min(self.shared.deadline);
            sleep_until(wake).await;
            backoff = (backoff * 2).min(Duration::from_secs(1));
        }
        None
    }

    async fn send(&mut self, msg: Value) -> bool {
        let Some(ws) = self.ws.as_mut() else {
            return false;
        };
        ws.send(Message::text(msg.to_string())).await.is_ok()
    }

    /// Marks the connection lost, reconnects and asks for what was missed.
    async fn reconnect(&mut self, table: Option<&mut Table>) -> Result<(), Stop> {
        if let Some(ws) = self.ws.take() {
            drop(ws);
            self.stats().connected.fetch_sub(1, Ordering::Relaxed);
        }
        if self.connect_with_retry().await.is_none() {
            return Err(Stop::Gone);
        }
        self.stats().reconnects.fetch_add(1, Ordering::Relaxed);
        if let Some(t) = table {
            if let Some(f) = t.inflight.take() {
                // Unknown fate: the resync below shows whether it was stored.
                let _ = f;
                self.stats().error("move:unanswered_at_disconnect");
            }
            t.move_at = None;
            t.log.disconnects += 1;
            let since = (t.last_v > 0).then_some(t.last_v);
            if !self
                .send(json!({"t": "watch", "d": {"table": t.id, "since": since}}))
                .await
            {
                return Box::pin(self.reconnect(Some(t))).await;
            }
            t.log
                .ply_at_resync
                .get_or_insert(t.game.moves().len() as u64);
        }
        Ok(())
    }

    // ----- one game -----

    /// Sets up a table with the partner and plays it to the end (or the deadline).
    async fn one_game(&mut self) -> Result<(), Stop> {
        let deadline = self.shared.deadline;
        let mut table = match &mut self.role {
            Role::Creator(_) => {
                let mut d = json!({"variant": "classic-2"});
                if let Some(t) = &self.shared.time {
                    d["time"] = t.clone();
                }
                if !self.send(json!({"t": "create_table", "d": d})).await {
                    self.stats().error("ws:send");
                    self.reconnect(None).await?;
                    return Ok(());
                }
                Table::new(String::new())
            }
            Role::Joiner(rx) => {
                let id = tokio::select! {
                    id = rx.recv() => match id {
                        Some(id) => id,
                        None => return Err(Stop::Deadline),
                    },
                    _ = sleep_until(deadline) => return Err(Stop::Deadline),
                };
                let mut t = Table::new(id);
                if !self.send(json!({"t": "join", "d": {"table": t.id}})).await {
                    self.stats().error("ws:send");
                    self.reconnect(Some(&mut t)).await?;
                }
                t
            }
        };
        let r = self.play(&mut table).await;
        if !table.id.is_empty() {
            table.log.last_ply = table.game.moves().len() as u64;
            table.log.ended = table.ended;
            table.log.colour = table.colour.clone().unwrap_or_default();
            if self.shared.keep_logs {
                self.stats().game_log(std::mem::take(&mut table.log));
            }
            if r.is_ok() {
                let _ = self
                    .send(json!({"t": "unwatch", "d": {"table": table.id}}))
                    .await;
            }
        }
        r
    }

    /// The message loop of one table.
    async fn play(&mut self, t: &mut Table) -> Result<(), Stop> {
        let deadline = self.shared.deadline;
        let mut start_by = Instant::now() + Duration::from_secs(30);
        loop {
            if t.ended {
                return Ok(());
            }
            if t.live {
                start_by = far_future();
            } else if Instant::now() >= start_by {
                self.stats().error("timeout:start");
                if matches!(self.role, Role::Creator(_)) && !t.id.is_empty() {
                    let _ = self.send(json!({"t": "leave", "d": {"table": t.id}})).await;
                }
                return Ok(());
            }
            if t.my_turn() && t.inflight.is_none() && t.move_at.is_none() {
                let think = self.shared.think.as_secs_f64() * (0.5 + self.rng.unit());
                t.move_at = Some(Instant::now() + Duration::from_secs_f64(think));
            }
            let ack_by = t
                .inflight
                .as_ref()
                .map_or_else(far_future, |f| f.sent + Duration::from_secs(15));
            let move_at = t.move_at.unwrap_or_else(far_future);
            // One timer for the earliest of the four times (a timer per time, set up
            // again for every message, was a measurable part of the load generator's
            // CPU); which one it was is sorted out when it fires.
            let wake = move_at.min(ack_by).min(start_by).min(deadline);
            let Some(ws) = self.ws.as_mut() else {
                self.reconnect(Some(t)).await?;
                continue;
            };
            tokio::select! {
                msg = next_json(ws) => match msg {
                    Some(m) => self.on_message(t, m).await,
                    None => {
                        self.stats().error("ws:lost");
                        self.reconnect(Some(t)).await?;
                    }
                },
                _ = sleep_until(wake) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(Stop::Deadline);
                    }
                    if now >= move_at {
                        t.move_at = None;
                        if t.my_turn() && t.inflight.is_none() {
                            self.make_move(t).await?;
                        }
                    } else if now >= ack_by {
                        self.stats().error("timeout:ack");
                        t.inflight = None;
                        let since = t.last_v;
                        self.send(json!({"t": "watch", "d": {"table": t.id, "since": since}})).await;
                    }
                    // Past `start_by`, the top of the loop gives up on the table.
                }
            }
        }
    }

    async fn make_move(&mut self, t: &mut Table) -> Result<(), Stop> {
        let plies = t.game.moves().len();
        if plies >= self.shared.max_plies && !t.resigned {
            t.resigned = true;
            self.stats().resigned.fetch_add(1, Ordering::Relaxed);
            self.send(json!({"t": "resign", "d": {"table": t.id}}))
                .await;
            return Ok(());
        }
        let position = t.game.position();
        let Some(mv) = greedy_move(position, self.index as u64 ^ plies as u64) else {
            self.stats().error("engine:no_move");
            return Ok(());
        };
        let path = position.path_of(&mv).to_string();
        let confirm = t.game.would_eliminate(&mv);
        let ack = self.next_ack;
        self.next_ack += 1;
        let msg = json!({"t": "move", "d": {"table": t.id, "path": path, "ack": ack, "confirm": confirm}});
        t.inflight = Some(Inflight {
            ack,
            ply: plies as u64 + 1,
            path,
            sent: Instant::now(),
        });
        if !self.send(msg).await {
            self.stats().error("ws:send");
            self.reconnect(Some(t)).await?;
        }
        Ok(())
    }

    async fn on_message(&mut self, t: &mut Table, m: Value) {
        let d = &m["d"];
        match m["t"].as_str().unwrap_or("") {
            "table_created" if t.id.is_empty() => {
                t.id = d["table"].as_str().unwrap_or_default().to_owned();
                t.log.table = t.id.clone();
                if let Role::Creator(tx) = &self.role {
                    if tx.send(t.id.clone()).await.is_err() && Instant::now() < self.shared.deadline
                    {
                        self.stats().error("pair:partner_gone");
                    }
                }
            }
            "table" if d["id"] == t.id.as_str() => self.on_snapshot(t, d).await,
            "event" if d["table"] == t.id.as_str() => self.on_event(t, d).await,
            "ack" => {
                let ack = d["ack"].as_u64();
                if let Some(f) = t.inflight.as_ref().filter(|f| Some(f.ack) == ack) {
                    self.stats().acked(f.sent.elapsed());
                    t.log.acked.push((f.ply, f.path.clone()));
                    t.acked_ply = f.ply;
                    t.inflight = None;
                }
            }
            "error" => {
                let code = d["code"].as_str().unwrap_or("unknown");
                self.stats().error(format!("server:{code}"));
                let ack = d["ack"].as_u64();
                if ack.is_some() && t.inflight.as_ref().map(|f| f.ack) == ack {
                    t.inflight = None;
                    // Refused: get the table's state again before the next try.
                    self.send(json!({"t": "watch", "d": {"table": t.id}})).await;
                }
                if code == "no_such_table" {
                    t.ended = true;
                }
            }
            _ => {}
        }
    }

    async fn on_snapshot(&mut self, t: &mut Table, d: &Value) {
        t.seat_colours = d["seats"]
            .as_array()
            .map(|s| {
                s.iter()
                    .map(|s| s["colour"].as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        if let Some(seats) = d["seats"].as_array() {
            for s in seats {
                if s["player"]["id"].as_str() == Some(self.user_id.as_str()) {
                    t.colour = s["colour"].as_str().map(str::to_owned);
                }
            }
        }
        let mut game = Game::new(Variant::Classic2);
        for p in d["moves"].as_array().into_iter().flatten() {
            let ok = p
                .as_str()
                .and_then(|p| p.parse::<MovePath>().ok())
                .is_some_and(|p| game.play_path(&p).is_ok());
            if !ok {
                self.stats().error("engine:snapshot_move_rejected");
                t.ended = true;
                return;
            }
        }
        t.game = game;
        // The snapshot is the truth (the report still has every acked move to check).
        t.acked_ply = t.acked_ply.min(t.game.moves().len() as u64);
        t.last_v = d["v"].as_u64().unwrap_or(0);
        match d["status"].as_str() {
            Some("live") => self.set_live(t),
            Some("finished") | Some("closed") => self.set_ended(t),
            _ => {}
        }
        t.move_at = None;
    }

    fn set_live(&self, t: &mut Table) {
        if !t.live {
            t.live = true;
            if matches!(self.role, Role::Creator(_)) {
                self.stats().games_started.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    fn set_ended(&self, t: &mut Table) {
        if !t.ended {
            t.ended = true;
            if matches!(self.role, Role::Creator(_)) && t.live {
                self.stats().games_finished.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    async fn on_event(&mut self, t: &mut Table, d: &Value) {
        let v = d["v"].as_u64().unwrap_or(0);
        if v <= t.last_v {
            return;
        }
        if v != t.last_v + 1 {
            self.stats().error("event:gap");
            let since = t.last_v;
            self.send(json!({"t": "watch", "d": {"table": t.id, "since": since}}))
                .await;
            return;
        }
        t.last_v = v;
        match d["type"].as_str().unwrap_or("") {
            "seated" if d["player"]["id"].as_str() == Some(self.user_id.as_str()) => {
                let seat = d["seat"].as_u64().unwrap_or(0) as usize;
                t.colour = t.seat_colours.get(seat).cloned();
            }
            "started" => self.set_live(t),
            "moved" => {
                let ply = d["ply"].as_u64().unwrap_or(0);
                let path = d["path"].as_str().unwrap_or_default();
                if ply != t.game.moves().len() as u64 + 1 {
                    self.stats().error("event:ply_mismatch");
                    self.send(json!({"t": "watch", "d": {"table": t.id}})).await;
                    return;
                }
                let ok = path
                    .parse::<MovePath>()
                    .ok()
                    .is_some_and(|p| t.game.play_path(&p).is_ok());
                if !ok {
                    self.stats().error("engine:event_move_rejected");
                    self.send(json!({"t": "watch", "d": {"table": t.id}})).await;
                }
            }
            "ended" | "closed" => self.set_ended(t),
            _ => {}
        }
    }
}

/// Bytes read from the socket at a time. The WebSocket library zero-fills its whole
/// read buffer before every read, so its default of 128 KiB made that fill the load
/// generator's largest cost; the server's messages to a player are a few hundred
/// bytes (a longer one takes more reads).
const READ_BUFFER: usize = 8 * 1024;

/// The WebSocket settings of every player's connection.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(READ_BUFFER)
}

/// The next JSON text message; `None` when the connection is gone.
async fn next_json(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(text)) => match serde_json::from_str(text.as_str()) {
                Ok(v) => return Some(v),
                Err(_) => continue,
            },
            Ok(Message::Close(_)) => return None,
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}
