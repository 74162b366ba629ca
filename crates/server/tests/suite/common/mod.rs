//! Test helpers: a real server on port 0 with a fresh SQLite file, HTTP and WebSocket
//! clients.
#![allow(dead_code, missing_docs)]

pub mod cluster;
pub mod listing;
pub mod metrics;
pub mod play;
pub mod stored;

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use stella_server::computer::{ComputerPlayer, Greedy};
use stella_server::{
    Application, Config, ManualTime, ShutdownHandle, SystemTimeSource, TimeSource,
};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A running test server.
pub struct TestApp {
    pub base: String,
    pub port: u16,
    /// The database URL (an SQLite file, or a fresh PostgreSQL database when
    /// `STELLA_TEST_POSTGRES` names a server, e.g. `postgres://postgres:pw@localhost`).
    pub database_url: String,
    pub dir: Arc<tempfile::TempDir>,
    pub time: Arc<dyn TimeSource>,
    /// The server's shared state (for counts that tests check).
    pub state: stella_server::state::AppState,
    shutdown: ShutdownHandle,
    join: JoinHandle<()>,
}

/// A game of [`TestApp::guest_duel`].
pub struct GuestDuel {
    pub table: String,
    /// White's client.
    pub w: Ws,
    /// Black's client.
    pub b: Ws,
    pub white_cookie: String,
    pub black_cookie: String,
    /// The `started` event black saw.
    pub started: Value,
}

/// The entry of `colour` in the `places` of an `ended` event.
pub fn place_of<'a>(ended: &'a Value, colour: &str) -> &'a Value {
    ended["d"]["places"]
        .as_array()
        .expect("places")
        .iter()
        .find(|p| p["colour"] == colour)
        .unwrap_or_else(|| panic!("no place of {colour} in {ended}"))
}

/// Options of [`spawn_app_with`].
#[derive(Default)]
pub struct Options {
    pub manual_time: Option<Arc<ManualTime>>,
    pub dir: Option<Arc<tempfile::TempDir>>,
    /// Reuse this database (a restart).
    pub database_url: Option<String>,
    pub config: Option<fn(&mut Config)>,
    /// The computer player of computer seats (the greedy player if none).
    pub computer: Option<Arc<dyn ComputerPlayer>>,
    /// The message bus: the server runs as a node of a cluster.
    pub bus_url: Option<String>,
    /// The puzzle file served.
    pub puzzles: Option<std::path::PathBuf>,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

/// A server for scripted players, which move as fast as the server answers:
/// their per-connection message rate is raised far above a person's, so a
/// long game is never cut by the flood limit (tested in bad_input.rs with
/// the real limit).
pub async fn spawn_app_for_scripts() -> TestApp {
    spawn_app_with(Options {
        config: Some(|c| {
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
        }),
        ..Options::default()
    })
    .await
}

/// A server on a manual clock that starts at `start_ms`, with its configuration changed
/// by `config` when given, and that clock.
pub async fn spawn_app_at(
    start_ms: i64,
    config: Option<fn(&mut Config)>,
) -> (TestApp, Arc<ManualTime>) {
    let time = Arc::new(ManualTime::new(start_ms));
    let app = spawn_app_with(Options {
        manual_time: Some(time.clone()),
        config,
        ..Options::default()
    })
    .await;
    (app, time)
}

pub async fn spawn_app_with(opts: Options) -> TestApp {
    let dir = opts
        .dir
        .unwrap_or_else(|| Arc::new(tempfile::tempdir().expect("temp dir")));
    let database_url = match opts.database_url {
        Some(url) => url,
        None => fresh_database(&dir).await,
    };
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        database_url: database_url.clone(),
        auth_burst: 50,
        // Background reviews would load the machine under every test; the review
        // tests turn them on.
        reviews: stella_server::review::ReviewSettings {
            workers: 0,
            ..Default::default()
        },
        ..Config::default()
    };
    if let Some(f) = opts.config {
        f(&mut config);
    }
    config.bus_url = opts.bus_url;
    if opts.puzzles.is_some() {
        config.puzzles = opts.puzzles;
    }
    let time: Arc<dyn TimeSource> = match opts.manual_time {
        Some(t) => t,
        None => Arc::new(SystemTimeSource),
    };
    let computer = opts.computer.unwrap_or_else(|| Arc::new(Greedy));
    let app = Application::build_with(config, time.clone(), computer)
        .await
        .expect("server builds");
    let port = app.port();
    let state = app.state();
    let shutdown = app.shutdown_handle();
    let join = tokio::spawn(async move {
        app.run_until_stopped().await.expect("server runs");
    });
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        port,
        database_url,
        dir,
        time,
        state,
        shutdown,
        join,
    }
}

/// A fresh database: a new PostgreSQL database when `STELLA_TEST_POSTGRES` is set,
/// else a new SQLite file in `dir`.
pub async fn fresh_database(dir: &tempfile::TempDir) -> String {
    use sqlx::{Connection, Executor};
    match std::env::var("STELLA_TEST_POSTGRES") {
        Ok(server) => {
            let name = format!(
                "stella_test_{}",
                stella_server::ids::random_id(12).to_lowercase()
            );
            let mut admin = sqlx::PgConnection::connect(&format!("{server}/postgres"))
                .await
                .expect("STELLA_TEST_POSTGRES reachable");
            admin
                .execute(format!("CREATE DATABASE {name}").as_str())
                .await
                .expect("create test database");
            format!("{server}/{name}")
        }
        Err(_) => dir
            .path()
            .join("stella-test.db")
            .to_string_lossy()
            .into_owned(),
    }
}

/// The `stella_session=...` pair of a response's Set-Cookie.
pub fn session_cookie(res: &reqwest::Response) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("stella_session="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
}

impl TestApp {
    /// Stops the server and waits for it; the database stays.
    pub async fn stop(self) -> Arc<tempfile::TempDir> {
        self.shutdown.stop();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.join).await;
        self.dir
    }

    pub fn http(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(false)
            .build()
            .expect("http client")
    }

    pub async fn post(&self, path: &str, cookie: Option<&str>, body: Value) -> reqwest::Response {
        let mut req = self.http().post(format!("{}{path}", self.base)).json(&body);
        if let Some(c) = cookie {
            req = req.header("cookie", c);
        }
        req.send().await.expect("request")
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> reqwest::Response {
        let mut req = self.http().get(format!("{}{path}", self.base));
        if let Some(c) = cookie {
            req = req.header("cookie", c);
        }
        req.send().await.expect("request")
    }

    /// GETs `path` (with the session `cookie`, if any) and returns the JSON body.
    pub async fn get_json(&self, path: &str, cookie: Option<&str>) -> Value {
        self.get(path, cookie)
            .await
            .json()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: no JSON body: {e}"))
    }

    /// POSTs `/api/guest` with the `headers` given (name, value): for the checks of where
    /// a request comes from.
    pub async fn post_guest_with(&self, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut req = self.http().post(format!("{}/api/guest", self.base));
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        req.send().await.expect("request")
    }

    /// Registers `name` and returns its session cookie.
    pub async fn register(&self, name: &str) -> String {
        let res = self
            .post(
                "/api/register",
                None,
                json!({"username": name, "password": "correct horse"}),
            )
            .await;
        assert_eq!(res.status(), 201, "register {name}");
        session_cookie(&res).expect("session cookie")
    }

    /// The user id of the session `cookie`.
    pub async fn user_id(&self, cookie: &str) -> String {
        let me: Value = self
            .get("/api/me", Some(cookie))
            .await
            .json()
            .await
            .unwrap();
        me["user"]["id"]
            .as_str()
            .or_else(|| me["id"].as_str())
            .unwrap_or_else(|| panic!("a user id in {me}"))
            .to_owned()
    }

    /// A guest session cookie.
    pub async fn guest(&self) -> String {
        let res = self.post("/api/guest", None, json!({})).await;
        assert_eq!(res.status(), 201);
        session_cookie(&res).expect("session cookie")
    }

    /// A rated classic-2 table at 5+3 between two registered players, `ana` (white,
    /// who created it) and `boris`, started and seen as started by both: the table id
    /// and their clients.
    pub async fn rated_duel(&self) -> (String, Ws, Ws) {
        let ana = self.register("ana").await;
        let bo = self.register("boris").await;
        let mut a = self.ws(Some(&ana)).await;
        let mut b = self.ws(Some(&bo)).await;
        let table = a
            .create(
                json!({"variant": "classic-2", "rated": true, "time": {"minutes": 5, "increment": 3}}),
            )
            .await;
        b.send(json!({"t": "join", "d": {"table": table}})).await;
        a.event("started").await;
        b.event("started").await;
        (table, a, b)
    }

    /// Two guests at a new two-seat table made by `create_table` with `create`: white
    /// created it and black joined; black has seen `started`, white is still to read it.
    pub async fn guest_duel(&self, create: Value) -> GuestDuel {
        let (white_cookie, black_cookie) = (self.guest().await, self.guest().await);
        let mut w = self.ws(Some(&white_cookie)).await;
        let mut b = self.ws(Some(&black_cookie)).await;
        let table = w.create(create).await;
        b.send(json!({"t": "join", "d": {"table": table}})).await;
        let started = b.event("started").await;
        GuestDuel {
            table,
            w,
            b,
            white_cookie,
            black_cookie,
            started,
        }
    }

    /// [`TestApp::guest_duel`] at a classic-2 table timed `minutes` + `increment`.
    pub async fn timed_duel(&self, minutes: i64, increment: i64) -> GuestDuel {
        let time = json!({"minutes": minutes, "increment": increment});
        self.guest_duel(json!({"variant": "classic-2", "time": time}))
            .await
    }

    /// `seats` guests at a new `variant` table whose every seat is a person: the first
    /// creates it, the others join in seat order, and every client has seen `started`.
    /// Returns the clients in seat order and the table id.
    pub async fn seated_guests(&self, variant: &str, seats: usize) -> (Vec<Ws>, String) {
        let mut clients = Vec::new();
        for _ in 0..seats {
            let cookie = self.guest().await;
            clients.push(self.ws(Some(&cookie)).await);
        }
        let mut seat_list = vec!["me"];
        seat_list.resize(seats, "open");
        let table = clients[0]
            .create(json!({"variant": variant, "seats": seat_list}))
            .await;
        for (i, c) in clients.iter_mut().enumerate().skip(1) {
            c.send(json!({"t": "join", "d": {"table": table, "seat": i}}))
                .await;
        }
        for c in clients.iter_mut() {
            c.event("started").await;
        }
        (clients, table)
    }

    /// A WebSocket client, after its `hello`.
    pub async fn ws(&self, cookie: Option<&str>) -> Ws {
        let mut req = format!("ws://127.0.0.1:{}/ws", self.port)
            .into_client_request()
            .expect("ws request");
        if let Some(c) = cookie {
            req.headers_mut()
                .insert("cookie", c.parse().expect("cookie header"));
        }
        let (stream, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("ws connects");
        let mut ws = Ws { stream };
        let hello = ws.recv().await;
        assert_eq!(hello["t"], "hello");
        ws
    }
}

/// A WebSocket test client.
pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Ws {
    pub async fn send(&mut self, msg: Value) {
        self.send_text(&msg.to_string()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.stream
            .send(Message::Text(text.to_owned().into()))
            .await
            .expect("ws send");
    }

    /// The next JSON message (pings are skipped).
    pub async fn recv(&mut self) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let frame = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .expect("a message within 20 s")
                .expect("the connection is open")
                .expect("a frame");
            match frame {
                Message::Text(t) => {
                    if std::env::var_os("WS_TRACE").is_some() {
                        eprintln!("<- {t}");
                    }
                    return serde_json::from_str(t.as_str()).expect("server sends JSON");
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    /// Skips messages until one matches; fails once 60 s have passed in
    /// all, even while other messages keep coming.
    pub async fn recv_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "a matching message within 60 s; the last was {m}"
            );
        }
    }

    /// Waits for an `error` and checks its code.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let m = self.recv_until(|m| m["t"] == "error").await;
        assert_eq!(m["d"]["code"], code, "error was {m}");
        assert!(!m["d"]["message"].as_str().unwrap_or("").is_empty());
        m
    }

    /// Waits for the event of `table` with type `kind`.
    pub async fn event(&mut self, kind: &str) -> Value {
        self.recv_until(|m| m["t"] == "event" && m["d"]["type"] == kind)
            .await
    }

    /// Checks the connection still answers.
    pub async fn assert_alive(&mut self) {
        self.send(json!({"t": "ping", "d": {"n": 42}})).await;
        let pong = self.recv_until(|m| m["t"] == "pong").await;
        assert_eq!(pong["d"]["n"], 42);
    }

    /// Challenges the player named `to`, with the fields of the object `extra` added to
    /// the request (`{}` for none), and returns the answer: `challenge` or an error.
    pub async fn challenge(&mut self, to: &str, extra: Value) -> Value {
        let mut d = json!({"to": to});
        for (k, v) in extra.as_object().expect("extra is a JSON object") {
            d[k] = v.clone();
        }
        self.send(json!({"t": "challenge", "d": d})).await;
        self.recv_until(|m| m["t"] == "challenge" || m["t"] == "error")
            .await
    }

    /// Accepts the challenge `id` that `challenger` sent: both hear it accepted, with the
    /// same new table, whose id this returns.
    pub async fn accept_challenge(&mut self, id: &str, challenger: &mut Ws) -> String {
        self.send(json!({"t": "challenge_accept", "d": {"id": id}}))
            .await;
        let mut tables = Vec::new();
        for ws in [challenger, self] {
            let m = ws.recv_until(|m| m["t"] == "challenge_accepted").await;
            assert_eq!(m["d"]["id"], id, "{m}");
            tables.push(m["d"]["table"].as_str().expect("a table").to_owned());
        }
        assert_eq!(tables[0], tables[1], "both get the same table");
        tables.swap_remove(0)
    }

    /// Asks for a table and returns the answer: `table_created` or an error.
    pub async fn try_create(&mut self, d: Value) -> Value {
        self.send(json!({"t": "create_table", "d": d})).await;
        self.recv_until(|m| m["t"] == "table_created" || m["t"] == "error")
            .await
    }

    /// Creates a table and returns its id (the creator watches it).
    pub async fn create(&mut self, d: Value) -> String {
        let m = self.try_create(d).await;
        assert_eq!(m["t"], "table_created", "{m}");
        m["d"]["table"].as_str().expect("table id").to_owned()
    }
}
