//! The bot's life on the server: connecting (again and again when the connection
//! drops), answering challenges, following its tables and moving at them.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use anyhow::bail;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::engine::Engine;
use super::reconnect_delay;

/// How many times in a row one turn may fail (engine error or refused move) before
/// the bot stops trying at that table and lets its clock run.
const ATTEMPTS_PER_TURN: u32 = 3;

/// Least time between two messages the bot sends: the server takes 20 a second from
/// one connection and drops the excess, so the bot stays under that.
const MIN_GAP: Duration = Duration::from_millis(60);

/// What the bot was started with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The `/ws` address.
    pub url: String,
    /// The API token.
    pub token: String,
    /// The engine command.
    pub engine: String,
    /// Games at once.
    pub max_games: usize,
    /// Longest think per move.
    pub max_think: Duration,
    /// Games still to play against a computer seat.
    pub computer_games: u64,
    /// Level of that computer seat.
    pub computer_level: u8,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Why a connection could not be made.
enum ConnectError {
    /// The server refused the token: trying again cannot help.
    Refused(String),
    /// Anything else (server down, network): try again later.
    Other(String),
}

async fn connect(s: &Settings) -> Result<Socket, ConnectError> {
    let mut req = s
        .url
        .as_str()
        .into_client_request()
        .map_err(|e| ConnectError::Refused(format!("bad server address {:?}: {e}", s.url)))?;
    let bearer = format!("Bearer {}", s.token)
        .parse()
        .map_err(|_| ConnectError::Refused("the token is not valid header text".into()))?;
    req.headers_mut().insert("authorization", bearer);
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(WsError::Http(res)) if res.status().as_u16() == 401 => {
            let body = res
                .body()
                .as_ref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            Err(ConnectError::Refused(body))
        }
        Err(e) => Err(ConnectError::Other(e.to_string())),
    }
}

/// Plays until the token is refused.
pub async fn run(settings: Settings) -> anyhow::Result<()> {
    let mut bot = Bot::new(settings);
    let mut attempt = 0;
    loop {
        match connect(&bot.s).await {
            Ok(ws) => {
                attempt = 0;
                eprintln!("bot: connected to {}", bot.s.url);
                if let Err(e) = bot.session(ws).await {
                    eprintln!("bot: connection ended: {e}");
                }
            }
            Err(ConnectError::Refused(why)) => {
                bail!("the server refused the token: {why}")
            }
            Err(ConnectError::Other(why)) => eprintln!("bot: cannot connect: {why}"),
        }
        let wait = reconnect_delay(attempt);
        attempt += 1;
        eprintln!("bot: reconnecting in {} ms", wait.as_millis());
        tokio::time::sleep(wait).await;
    }
}

/// One table the bot sits at.
#[derive(Debug, Default)]
struct Table {
    variant: String,
    my_colour: String,
    my_seat: usize,
    moves: Vec<String>,
    turn: Option<String>,
    live: bool,
    remaining_ms: Vec<i64>,
    increment_ms: i64,
    /// The table's engine, absent while it thinks (or before the first move).
    engine: Option<Engine>,
    thinking: bool,
    /// Failed attempts at the current turn.
    failures: u32,
    /// The ply of a move sent and not yet answered.
    sent_for: Option<usize>,
}

impl Table {
    fn my_turn(&self) -> bool {
        self.live && self.turn.as_deref() == Some(self.my_colour.as_str())
    }

    fn think_time(&self, max: Duration) -> Duration {
        let Some(&left) = self.remaining_ms.get(self.my_seat) else {
            return max;
        };
        let budget = (left / 30 + self.increment_ms * 3 / 4)
            .min(left / 2)
            .max(20);
        max.min(Duration::from_millis(budget as u64))
    }
}

/// What a finished think sends back.
struct Thought {
    table: String,
    ply: usize,
    result: anyhow::Result<String>,
    engine: Option<Engine>,
}

struct Bot {
    s: Settings,
    me: Option<String>,
    tables: HashMap<String, Table>,
    /// Tables to follow again after reconnecting.
    known: HashSet<String>,
    computer_table: Option<String>,
    computer_asked: bool,
    next_ack: u64,
    acks: HashMap<u64, String>,
    /// Tables that invite bots the bot has asked to sit at (once each).
    tried: HashSet<String>,
}

impl Bot {
    fn new(s: Settings) -> Self {
        Bot {
            s,
            me: None,
            tables: HashMap::new(),
            known: HashSet::new(),
            computer_table: None,
            computer_asked: false,
            next_ack: 1,
            acks: HashMap::new(),
            tried: HashSet::new(),
        }
    }

    async fn session(&mut self, ws: Socket) -> anyhow::Result<()> {
        let (mut sink, mut stream) = ws.split();
        let (think_tx, mut think_rx) = mpsc::unbounded_channel::<Thought>();
        // Engines of a previous connection keep their tables; thinks in flight are lost.
        for t in self.tables.values_mut() {
            t.thinking = false;
            t.sent_for = None;
        }
        self.computer_asked = false;
        let mut out: Vec<Value> = Vec::new();
        let mut last_sent = tokio::time::Instant::now() - MIN_GAP;
        loop {
            tokio::select! {
                frame = stream.next() => {
                    let text = match frame {
                        Some(Ok(Message::Text(t))) => t,
                        Some(Ok(Message::Close(_))) | None => bail!("closed by the server"),
                        Some(Ok(_)) => continue,
                        Some(Err(e)) => bail!("{e}"),
                    };
                    let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else {
                        continue;
                    };
                    self.on_message(&msg, &mut out);
                }
                Some(thought) = think_rx.recv() => self.on_thought(thought, &mut out),
            }
            self.think_where_due(&think_tx);
            self.play_computer(&mut out);
            for m in out.drain(..) {
                tokio::time::sleep_until(last_sent + MIN_GAP).await;
                sink.send(Message::Text(m.to_string().into())).await?;
                last_sent = tokio::time::Instant::now();
            }
        }
    }

    fn on_message(&mut self, msg: &Value, out: &mut Vec<Value>) {
        let d = &msg["d"];
        match msg["t"].as_str().unwrap_or("") {
            "hello" => {
                self.me = d["user"]["id"].as_str().map(str::to_owned);
                out.push(json!({"t": "lobby_subscribe"}));
                for table in &self.known {
                    out.push(json!({"t": "watch", "d": {"table": table}}));
                }
            }
            "challenges" => {
                for c in d["challenges"].as_array().into_iter().flatten() {
                    self.answer_challenge(c, out);
                }
            }
            "challenge" => self.answer_challenge(d, out),
            "challenge_accepted" => {
                if let Some(table) = d["table"].as_str() {
                    self.known.insert(table.to_owned());
                    out.push(json!({"t": "watch", "d": {"table": table}}));
                }
            }
            "table_created" => {
                if let Some(table) = d["table"].as_str() {
                    self.known.insert(table.to_owned());
                    self.computer_table = Some(table.to_owned());
                    // The ask is answered: once this game ends, the next may be asked for.
                    self.computer_asked = false;
                }
            }
            "lobby" => {
                for t in d["tables"].as_array().into_iter().flatten() {
                    self.consider_table(t, out);
                }
            }
            "lobby_update" => self.consider_table(d, out),
            "table" => self.on_snapshot(d),
            "event" => self.on_event(d, out),
            "ack" => {
                if let Some(ack) = d["ack"].as_u64() {
                    self.acks.remove(&ack);
                }
            }
            "error" => self.on_error(d),
            _ => {}
        }
    }

    fn answer_challenge(&mut self, c: &Value, out: &mut Vec<Value>) {
        if c["to"]["id"].as_str() != self.me.as_deref() {
            return;
        }
        let id = c["id"].clone();
        let from = c["from"]["name"].as_str().unwrap_or("?");
        if self.tables.len() >= self.s.max_games {
            eprintln!(
                "bot: declining the challenge of {from}: playing {} games",
                self.tables.len()
            );
            out.push(json!({"t": "challenge_decline", "d": {"id": id}}));
        } else {
            eprintln!("bot: accepting the challenge of {from}");
            out.push(json!({"t": "challenge_accept", "d": {"id": id}}));
        }
    }

    /// Sits at a casual table of the lobby that invites bots and has a free seat.
    fn consider_table(&mut self, t: &Value, out: &mut Vec<Value>) {
        let Some(id) = t["id"].as_str() else { return };
        let free = t["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| s["player"]["kind"] == "open");
        if t["bots"] != true
            || t["status"] != "open"
            || t["rated"] == true
            || !free
            || self.tables.len() >= self.s.max_games
            || self.tried.contains(id)
        {
            return;
        }
        self.tried.insert(id.to_owned());
        eprintln!("bot: sitting at {id}, which invites bots");
        out.push(json!({"t": "join", "d": {"table": id}}));
    }

    fn on_snapshot(&mut self, d: &Value) {
        let Some(id) = d["id"].as_str() else { return };
        let me = self.me.clone().unwrap_or_default();
        let Some(seat) = d["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["player"]["id"].as_str() == Some(me.as_str()))
        else {
            // Not seated here (any more): nothing to play.
            self.forget(id);
            return;
        };
        if d["result"].is_object() || d["status"] == "finished" {
            self.forget(id);
            return;
        }
        let t = self.tables.entry(id.to_owned()).or_default();
        t.variant = d["variant"].as_str().unwrap_or("classic-2").to_owned();
        t.my_colour = seat["colour"].as_str().unwrap_or("").to_owned();
        t.my_seat = seat["seat"].as_u64().unwrap_or(0) as usize;
        t.moves = d["moves"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect();
        t.turn = d["turn"].as_str().map(str::to_owned);
        t.live = d["status"] == "live";
        t.increment_ms = d["time"]["increment"].as_i64().unwrap_or(0) * 1000;
        set_clock(t, &d["clock"]);
        self.known.insert(id.to_owned());
    }

    fn on_event(&mut self, d: &Value, out: &mut Vec<Value>) {
        let Some(id) = d["table"].as_str() else {
            return;
        };
        match d["type"].as_str().unwrap_or("") {
            // Sat down at a table joined from the lobby: take its state again, now
            // with the bot in it.
            "seated"
                if d["player"]["id"].as_str() == self.me.as_deref()
                    && !self.tables.contains_key(id) =>
            {
                self.known.insert(id.to_owned());
                out.push(json!({"t": "watch", "d": {"table": id}}));
            }
            "started" => {
                if let Some(t) = self.tables.get_mut(id) {
                    t.live = true;
                    t.turn = d["turn"].as_str().map(str::to_owned);
                    set_clock(t, &d["clock"]);
                }
            }
            "moved" => {
                if let Some(t) = self.tables.get_mut(id) {
                    if let Some(p) = d["path"].as_str() {
                        t.moves.push(p.to_owned());
                    }
                    t.turn = d["turn"].as_str().map(str::to_owned);
                    t.failures = 0;
                    t.sent_for = None;
                    set_clock(t, &d["clock"]);
                }
            }
            "ended" | "closed" | "aborted" => {
                eprintln!(
                    "bot: the game at {id} is over ({})",
                    d["reason"]
                        .as_str()
                        .unwrap_or(d["type"].as_str().unwrap_or(""))
                );
                self.forget(id);
            }
            _ => {}
        }
    }

    fn on_error(&mut self, d: &Value) {
        let message = d["message"].as_str().unwrap_or("");
        let code = d["code"].as_str().unwrap_or("?");
        eprintln!("bot: the server says {code}: {message}");
        if code == "rate_limited" {
            // A dropped message is not answered: send the unanswered moves again.
            self.acks.clear();
            for t in self.tables.values_mut() {
                t.sent_for = None;
            }
            return;
        }
        let Some(table) = d["ack"].as_u64().and_then(|a| self.acks.remove(&a)) else {
            return;
        };
        if let Some(t) = self.tables.get_mut(&table) {
            // The move was refused: the clock runs; ask the engine again.
            t.sent_for = None;
            t.failures += 1;
        }
    }

    fn forget(&mut self, id: &str) {
        self.tables.remove(id);
        self.known.remove(id);
        if self.computer_table.as_deref() == Some(id) {
            self.computer_table = None;
            self.s.computer_games = self.s.computer_games.saturating_sub(1);
        }
    }

    fn play_computer(&mut self, out: &mut Vec<Value>) {
        if self.s.computer_games == 0
            || self.computer_table.is_some()
            || self.computer_asked
            || self.me.is_none()
            || self.tables.len() >= self.s.max_games
        {
            return;
        }
        self.computer_asked = true;
        out.push(json!({"t": "create_table", "d": {
            "variant": "classic-2",
            "seats": ["me", {"computer": self.s.computer_level}],
        }}));
    }

    fn think_where_due(&mut self, tx: &mpsc::UnboundedSender<Thought>) {
        for (id, t) in self.tables.iter_mut() {
            if !t.my_turn() || t.thinking || t.sent_for.is_some() || t.failures >= ATTEMPTS_PER_TURN
            {
                continue;
            }
            let engine = match t.engine.take() {
                Some(e) => Ok(e),
                None => Engine::start(&self.s.engine),
            };
            t.thinking = true;
            let (variant, moves, ply) = (t.variant.clone(), t.moves.clone(), t.moves.len());
            let think = t.think_time(self.s.max_think);
            let tx = tx.clone();
            let table = id.clone();
            tokio::spawn(async move {
                let (result, engine) = match engine {
                    Ok(mut e) => {
                        let r = e.best_move(&variant, &moves, think).await;
                        // An engine that failed is replaced for the next attempt.
                        let keep = r.is_ok();
                        (r, keep.then_some(e))
                    }
                    Err(e) => (Err(e), None),
                };
                let _ = tx.send(Thought {
                    table,
                    ply,
                    result,
                    engine,
                });
            });
        }
    }

    fn on_thought(&mut self, thought: Thought, out: &mut Vec<Value>) {
        let Some(t) = self.tables.get_mut(&thought.table) else {
            return;
        };
        t.thinking = false;
        t.engine = thought.engine;
        if !t.my_turn() || t.moves.len() != thought.ply {
            return;
        }
        match thought.result {
            Ok(path) => {
                let ack = self.next_ack;
                self.next_ack += 1;
                self.acks.insert(ack, thought.table.clone());
                t.sent_for = Some(thought.ply);
                out.push(json!({"t": "move", "d": {
                    "table": thought.table, "path": path, "ack": ack, "confirm": true,
                }}));
            }
            Err(e) => {
                eprintln!("bot: the engine failed at {}: {e:#}", thought.table);
                t.failures += 1;
            }
        }
    }
}

fn set_clock(t: &mut Table, clock: &Value) {
    if let Some(r) = clock["remaining_ms"].as_array() {
        t.remaining_ms = r.iter().filter_map(Value::as_i64).collect();
    }
}
