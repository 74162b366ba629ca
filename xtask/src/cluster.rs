//! `cargo xtask cluster`: several `stella serve` nodes on one machine, as a site of
//! several machines runs them (docs/deploy.md): one PostgreSQL database, one Redis bus,
//! each node on its own loopback port.
//!
//! PostgreSQL and Redis are started by [`crate::services`] (installed from Debian when
//! missing, data in a temporary folder); the nodes' logs go to `target/cluster/`. The
//! task stays in the foreground until Ctrl-C or SIGTERM, then stops the nodes as
//! SIGTERM asks them to (moves being stored are stored, leases are released) and the
//! services after them. Every child runs in its own process group, so Ctrl-C at the
//! terminal reaches this task only and the order of the stop is kept.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::services;

/// The most nodes one machine runs.
const MAX_NODES: usize = 16;
/// The name of the database the nodes share.
const DATABASE: &str = "stella";
/// How long a node may take to answer `/healthz` after it started.
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a node may take to stop after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);
/// How often the foreground loop looks at the nodes and the stop signals.
const POLL: Duration = Duration::from_millis(200);

/// Which build of `stella` the nodes run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// `cargo build --release` (the default).
    Release,
    /// `cargo build` (quicker to build, slower to run).
    Debug,
}

/// The options of `cargo xtask cluster`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// How many nodes.
    pub nodes: usize,
    /// The first node's port; node `i` listens on `base_port + i`.
    pub base_port: u16,
    /// Which build to run.
    pub profile: Profile,
    /// Start, wait until every node answers `/healthz`, then stop (a smoke test).
    pub check: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            nodes: 3,
            base_port: 8080,
            profile: Profile::Release,
            check: false,
        }
    }
}

/// The usage line of the task.
pub const USAGE: &str = "cluster [--nodes N] [--base-port PORT] [--debug] [--check]";

/// Reads the task's arguments (those after `cluster`).
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "--nodes" => {
                let v = value("--nodes")?;
                options.nodes = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_NODES).contains(n))
                    .ok_or_else(|| {
                        format!("--nodes {v:?}: expected a number from 1 to {MAX_NODES}")
                    })?;
            }
            "--base-port" => {
                let v = value("--base-port")?;
                options.base_port =
                    v.parse().ok().filter(|p| *p > 0).ok_or_else(|| {
                        format!("--base-port {v:?}: expected a port from 1 to 65535")
                    })?;
            }
            "--debug" if inline.is_none() => options.profile = Profile::Debug,
            "--check" if inline.is_none() => options.check = true,
            _ => {
                return Err(format!(
                    "unknown option {arg:?}; usage: cargo xtask {USAGE}"
                ))
            }
        }
    }
    node_addresses(options.base_port, options.nodes)?;
    Ok(options)
}

/// The loopback address of each node: ports `base_port`, `base_port + 1`, …
pub fn node_addresses(base_port: u16, nodes: usize) -> Result<Vec<SocketAddrV4>, String> {
    (0..nodes)
        .map(|i| {
            u16::try_from(i)
                .ok()
                .and_then(|i| base_port.checked_add(i))
                .map(|port| SocketAddrV4::new(Ipv4Addr::LOCALHOST, port))
                .ok_or_else(|| {
                    format!("--base-port {base_port} leaves no room for {nodes} nodes below 65536")
                })
        })
        .collect()
}

/// A port from which `nodes` loopback ports in a row were free a moment ago,
/// below the ephemeral range like every port a test server gets.
pub fn free_base_port(nodes: usize) -> Result<u16, String> {
    let count = u16::try_from(nodes)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("cannot find ports for {nodes} nodes"))?;
    // The same walk hands out the ports of the databases started after this,
    // and never one of these.
    Ok(stella_test_support::free_ports(count))
}

/// The URL of database `name` on the server at `server_url` (which names none).
pub fn database_url(server_url: &str, name: &str) -> String {
    format!("{}/{name}", server_url.trim_end_matches('/'))
}

/// The arguments of one node's `stella serve`.
pub fn serve_args(listen: SocketAddrV4, db: &str, bus: &str) -> Vec<String> {
    [
        "serve",
        "--listen",
        &listen.to_string(),
        "--db",
        db,
        "--bus",
        bus,
    ]
    .map(str::to_owned)
    .to_vec()
}

/// The path of the `stella` binary `profile` builds.
pub fn stella_binary(root: &Path, profile: Profile) -> PathBuf {
    let dir = match profile {
        Profile::Release => "release",
        Profile::Debug => "debug",
    };
    root.join("target").join(dir).join("stella")
}

/// The arguments of `cargo` that build the `stella` binary.
pub fn build_args(profile: Profile) -> Vec<&'static str> {
    let mut args = vec!["build", "-p", "stella-cli"];
    if profile == Profile::Release {
        args.push("--release");
    }
    args
}

/// Whether an HTTP response begins with a 200 status line.
pub fn answers_ok(response: &str) -> bool {
    let mut status = response.lines().next().unwrap_or("").split_whitespace();
    status.next().is_some_and(|v| v.starts_with("HTTP/")) && status.next() == Some("200")
}

/// Asks `GET /healthz` of the node at `addr`; true on 200.
fn healthz(addr: SocketAddrV4) -> bool {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr.into(), Duration::from_secs(1)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut head = [0u8; 64];
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let n = stream.read(&mut head).unwrap_or(0);
    answers_ok(&String::from_utf8_lossy(&head[..n]))
}

/// One running node.
struct Node {
    number: usize,
    addr: SocketAddrV4,
    log: PathBuf,
    child: Child,
    /// Whether it was seen to exit (reported once).
    exited: bool,
}

/// The last lines of a log file, for an error message.
fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Fails, naming it, when a node's port is taken already.
fn ensure_free(addrs: &[SocketAddrV4]) -> Result<(), String> {
    for addr in addrs {
        TcpListener::bind(addr).map_err(|e| {
            format!(
                "port {} is not free ({e}); pick another --base-port",
                addr.port()
            )
        })?;
    }
    Ok(())
}

/// Creates database [`DATABASE`] on the PostgreSQL server.
fn create_database(pg: &services::Postgres) -> Result<String, String> {
    let out = Command::new(pg.bin.join("psql"))
        .arg(database_url(&pg.url, "postgres"))
        .args(["-v", "ON_ERROR_STOP=1", "-q", "-c"])
        .arg(format!("CREATE DATABASE {DATABASE}"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run psql: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "creating database {DATABASE} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(database_url(&pg.url, DATABASE))
}

fn start_node(
    binary: &Path,
    number: usize,
    addr: SocketAddrV4,
    db: &str,
    bus: &str,
    logs: &Path,
) -> Result<Node, String> {
    use std::os::unix::process::CommandExt;
    let log = logs.join(format!("node-{number}.log"));
    let file =
        std::fs::File::create(&log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
    let child = Command::new(binary)
        .args(serve_args(addr, db, bus))
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(file.try_clone().map_err(|e| e.to_string())?)
        .stderr(file)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    Ok(Node {
        number,
        addr,
        log,
        child,
        exited: false,
    })
}

/// Waits until `node` answers `/healthz`; fails when it exits first, the time runs
/// out, or a stop signal arrives.
fn wait_ready(node: &mut Node, stop: &AtomicBool) -> Result<(), String> {
    let start = Instant::now();
    loop {
        if healthz(node.addr) {
            return Ok(());
        }
        if let Ok(Some(status)) = node.child.try_wait() {
            node.exited = true;
            return Err(format!(
                "node {} exited ({status}) before answering /healthz; its log:\n{}",
                node.number,
                tail(&node.log, 20)
            ));
        }
        if stop.load(Ordering::Relaxed) {
            return Err("stopped while starting".into());
        }
        if start.elapsed() > READY_TIMEOUT {
            return Err(format!(
                "node {} did not answer /healthz within {} s; its log:\n{}",
                node.number,
                READY_TIMEOUT.as_secs(),
                tail(&node.log, 20)
            ));
        }
        sleep(Duration::from_millis(100));
    }
}

/// Asks every node to stop (SIGTERM), waits for each, kills those that do not stop.
fn stop_nodes(nodes: &mut [Node]) {
    for node in nodes.iter_mut() {
        if matches!(node.child.try_wait(), Ok(None)) {
            let _ = Command::new("kill")
                .args(["-TERM", &node.child.id().to_string()])
                .status();
        }
    }
    for node in nodes.iter_mut() {
        let start = Instant::now();
        while matches!(node.child.try_wait(), Ok(None)) && start.elapsed() < STOP_TIMEOUT {
            sleep(Duration::from_millis(50));
        }
        match node.child.try_wait() {
            Ok(Some(status)) if !node.exited => {
                eprintln!("xtask: node {} stopped ({status})", node.number)
            }
            Ok(_) | Err(_) if !node.exited => {
                eprintln!("xtask: node {} did not stop; killing it", node.number);
                let _ = node.child.kill();
                let _ = node.child.wait();
            }
            _ => {}
        }
    }
}

/// SIGINT and SIGTERM caught while the cluster runs; once dropped, they end the
/// process as by default again.
struct StopSignals {
    stop: Arc<AtomicBool>,
    released: Arc<AtomicBool>,
}

impl StopSignals {
    fn catch() -> Result<StopSignals, String> {
        let signals = StopSignals {
            stop: Arc::new(AtomicBool::new(false)),
            released: Arc::new(AtomicBool::new(false)),
        };
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register_conditional_default(signal, signals.released.clone())
                .and_then(|_| signal_hook::flag::register(signal, signals.stop.clone()))
                .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
        }
        Ok(signals)
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        self.released.store(true, Ordering::Relaxed);
    }
}

/// Runs a cluster of `stella` nodes from `binary` on the ports `options` names, with
/// logs in `logs`: in the foreground until a stop signal, or (with `check`) until
/// every node answered `/healthz` once. Stops everything it started on every path.
pub fn run(binary: &Path, options: &Options, logs: &Path) -> Result<(), String> {
    let addrs = node_addresses(options.base_port, options.nodes)?;
    ensure_free(&addrs)?;
    std::fs::create_dir_all(logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let signals = StopSignals::catch()?;
    services::set_own_process_group(true);
    let mut nodes = Vec::new();
    let result = start_and_serve(binary, options, &addrs, logs, &signals.stop, &mut nodes);
    stop_nodes(&mut nodes);
    services::stop_all();
    services::set_own_process_group(false);
    if result.is_ok() {
        eprintln!("xtask: the cluster stopped");
    }
    result
}

fn start_and_serve(
    binary: &Path,
    options: &Options,
    addrs: &[SocketAddrV4],
    logs: &Path,
    stop: &AtomicBool,
    nodes: &mut Vec<Node>,
) -> Result<(), String> {
    services::ensure_installed()?;
    let pg = services::start_postgres()?;
    let redis = services::start_redis()?;
    let db = create_database(&pg)?;
    for (i, addr) in addrs.iter().enumerate() {
        nodes.push(start_node(binary, i + 1, *addr, &db, &redis.url, logs)?);
    }
    for node in nodes.iter_mut() {
        wait_ready(node, stop)?;
    }
    println!("PostgreSQL  {db}");
    println!("Redis       {}", redis.url);
    for node in nodes.iter() {
        println!(
            "node {:<6} http://{}  (log {})",
            node.number,
            node.addr,
            node.log.display()
        );
    }
    if options.check {
        println!("every node answers /healthz; stopping");
        return Ok(());
    }
    println!("the cluster runs; Ctrl-C stops it");
    loop {
        if stop.load(Ordering::Relaxed) {
            eprintln!("xtask: stopping the nodes, then PostgreSQL and Redis");
            return Ok(());
        }
        for node in nodes.iter_mut().filter(|n| !n.exited) {
            if let Ok(Some(status)) = node.child.try_wait() {
                node.exited = true;
                eprintln!(
                    "xtask: node {} ({}) exited ({status}); the others go on",
                    node.number, node.addr
                );
            }
        }
        if nodes.iter().all(|n| n.exited) {
            return Err("every node exited".into());
        }
        sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn defaults_are_three_release_nodes_from_8080() {
        assert_eq!(parse_options(&[]).unwrap(), Options::default());
        let addrs = node_addresses(8080, 3).unwrap();
        let ports: Vec<u16> = addrs.iter().map(|a| a.port()).collect();
        assert_eq!(ports, [8080, 8081, 8082]);
        assert!(addrs.iter().all(|a| a.ip().is_loopback()));
    }

    #[test]
    fn options_parse_with_spaces_or_equals() {
        let o = parse_options(&args("--nodes 5 --base-port=9000 --debug --check")).unwrap();
        assert_eq!(
            o,
            Options {
                nodes: 5,
                base_port: 9000,
                profile: Profile::Debug,
                check: true
            }
        );
    }

    #[test]
    fn bad_options_are_named() {
        let err = |a: &str| parse_options(&args(a)).unwrap_err();
        assert!(
            err("--nodes 0").contains("--nodes \"0\""),
            "{}",
            err("--nodes 0")
        );
        assert!(err("--nodes 17").contains("1 to 16"));
        assert!(err("--nodes").contains("--nodes needs a value"));
        assert!(err("--base-port x").contains("--base-port \"x\""));
        assert!(err("--base-port 0").contains("--base-port"));
        assert!(err("--base-port 65535 --nodes 2").contains("no room for 2 nodes"));
        assert!(err("--frobnicate").contains("unknown option \"--frobnicate\""));
        assert!(err("--debug=yes").contains("unknown option"));
    }

    #[test]
    fn the_last_port_may_be_65535() {
        let addrs = node_addresses(65_533, 3).unwrap();
        assert_eq!(addrs[2].port(), 65_535);
    }

    #[test]
    fn urls_and_command_lines() {
        assert_eq!(
            database_url("postgres://postgres@127.0.0.1:5433", "stella"),
            "postgres://postgres@127.0.0.1:5433/stella"
        );
        assert_eq!(
            database_url("postgres://postgres@127.0.0.1:5433/", "postgres"),
            "postgres://postgres@127.0.0.1:5433/postgres"
        );
        let listen = SocketAddrV4::new(Ipv4Addr::LOCALHOST, 8081);
        assert_eq!(
            serve_args(listen, "postgres://p@h:1/stella", "redis://127.0.0.1:2").join(" "),
            "serve --listen 127.0.0.1:8081 --db postgres://p@h:1/stella --bus redis://127.0.0.1:2"
        );
        let root = Path::new("/r");
        assert_eq!(
            stella_binary(root, Profile::Release),
            Path::new("/r/target/release/stella")
        );
        assert_eq!(
            stella_binary(root, Profile::Debug),
            Path::new("/r/target/debug/stella")
        );
        assert_eq!(
            build_args(Profile::Release),
            ["build", "-p", "stella-cli", "--release"]
        );
        assert_eq!(build_args(Profile::Debug), ["build", "-p", "stella-cli"]);
    }

    #[test]
    fn only_a_200_status_line_is_healthy() {
        assert!(answers_ok("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"));
        assert!(!answers_ok(
            "HTTP/1.1 503 Service Unavailable\r\n\r\nbus unreachable"
        ));
        assert!(!answers_ok(""));
        assert!(!answers_ok("200 OK"));
    }

    #[test]
    fn a_taken_port_is_named() {
        let taken = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = taken.local_addr().unwrap().port();
        let err = ensure_free(&[SocketAddrV4::new(Ipv4Addr::LOCALHOST, port)]).unwrap_err();
        assert!(err.contains(&format!("port {port} is not free")), "{err}");
    }

    #[test]
    fn a_free_base_port_has_room_for_every_node() {
        let base = free_base_port(3).unwrap();
        let addrs = node_addresses(base, 3).unwrap();
        let held: Vec<TcpListener> = addrs
            .iter()
            .map(|a| TcpListener::bind(a).unwrap())
            .collect();
        assert_eq!(held.len(), 3);
    }

    #[test]
    fn nothing_listening_is_not_healthy() {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        assert!(!healthz(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port)));
    }
}
