//! PostgreSQL and Redis for the tests: installed from Debian when missing, started as
//! ordinary child processes (never system services) on free loopback ports with their
//! data in a temporary folder, and stopped again when the tests end.
//!
//! Every started process is remembered in a process-wide list, so that [`stop_all`]
//! stops them on every path out of the tests, failures included.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

use stella_test_support::free_port;

/// How long a service may take to start answering.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a service may take to stop after being asked before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);

/// Whether services start in process groups of their own (see [`set_own_process_group`]).
static OWN_PROCESS_GROUP: AtomicBool = AtomicBool::new(false);

/// Processes started here and not yet stopped, with the folder each one owns.
static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());

struct Running {
    name: &'static str,
    child: Child,
    /// The signal that asks the process for a quick clean exit.
    stop_signal: &'static str,
    dir: PathBuf,
}

/// A running PostgreSQL server.
#[derive(Debug, Clone)]
pub struct Postgres {
    /// `postgres://postgres@127.0.0.1:PORT` (no database: tests add their own).
    pub url: String,
    /// The folder of Debian's PostgreSQL programs (`initdb`, `postgres`, `pg_ctl`).
    pub bin: PathBuf,
}

/// A running Redis server.
#[derive(Debug, Clone)]
pub struct Redis {
    /// `redis://127.0.0.1:PORT`.
    pub url: String,
}

/// A failure to install or start a service, with what was being done.
pub type ServiceResult<T> = Result<T, String>;

/// Installs Debian's `postgresql` and `redis-server` when either is missing.
pub fn ensure_installed() -> ServiceResult<()> {
    let mut missing = Vec::new();
    if postgres_bin().is_none() {
        missing.push("postgresql");
    }
    if !on_path("redis-server") {
        missing.push("redis-server");
    }
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("xtask: installing {} with apt-get", missing.join(" "));
    let install = |args: &[&str]| -> bool {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    let mut args = vec!["install", "-y", "--no-install-recommends"];
    args.extend(&missing);
    // The package lists may be stale or absent on a fresh machine: update, then retry.
    let installed = install(&args) || (install(&["update"]) && install(&args));
    if !installed {
        return Err(format!("apt-get install {} failed", missing.join(" ")));
    }
    if postgres_bin().is_none() {
        return Err("postgresql installed but no /usr/lib/postgresql/*/bin/postgres".into());
    }
    if !on_path("redis-server") {
        return Err("redis-server installed but not on PATH".into());
    }
    Ok(())
}

/// The newest `/usr/lib/postgresql/NN/bin` that holds `postgres` and `initdb`.
pub fn postgres_bin() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("postgres").is_file() && bin.join("initdb").is_file())
                .then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// A new empty folder under the system's temporary folder.
fn temp_dir(prefix: &str) -> ServiceResult<PathBuf> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// The user and group PostgreSQL runs as: itself when not root; Debian's `postgres`
/// account when root, because PostgreSQL refuses to run as root.
fn postgres_account() -> ServiceResult<Option<(u32, u32)>> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| format!("cannot run id: {e}"))?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd")
        .map_err(|e| format!("cannot read /etc/passwd: {e}"))?;
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            if fields.first() == Some(&"postgres") && fields.len() > 3 {
                Some((fields[2].parse().ok()?, fields[3].parse().ok()?))
            } else {
                None
            }
        })
        .map(Some)
        .ok_or_else(|| "running as root and there is no postgres account".into())
}

fn as_account(command: &mut Command, account: Option<(u32, u32)>) -> &mut Command {
    use std::os::unix::process::CommandExt;
    if let Some((uid, gid)) = account {
        command.uid(uid).gid(gid);
    }
    command
}

/// Whether services started from now on run in process groups of their own. By
/// default they share the terminal's, so Ctrl-C stops them with the tests; a task
/// that stops them itself, in order, after its other children (`cluster`) sets this,
/// so that Ctrl-C reaches the task alone.
pub fn set_own_process_group(own: bool) {
    OWN_PROCESS_GROUP.store(own, Ordering::Relaxed);
}

/// `command` in a process group of its own when [`set_own_process_group`] says so.
fn in_group(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    if OWN_PROCESS_GROUP.load(Ordering::Relaxed) {
        command.process_group(0);
    }
    command
}

/// Starts a PostgreSQL server on a free loopback port with trust authentication for
/// user `postgres`, its data in a new temporary folder. Durability settings are
/// relaxed (`fsync=off`): the data is thrown away when the tests end.
pub fn start_postgres() -> ServiceResult<Postgres> {
    let bin = postgres_bin().ok_or("PostgreSQL is not installed")?;
    let account = postgres_account()?;
    let dir = temp_dir("stella-postgres")?;
    if let Some((uid, gid)) = account {
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
            .map_err(|e| format!("cannot give {} to postgres: {e}", dir.display()))?;
    }
    let data = dir.join("data");
    let log = std::fs::File::create(dir.join("initdb.log"))
        .map_err(|e| format!("cannot create initdb.log: {e}"))?;
    let status = as_account(&mut Command::new(bin.join("initdb")), account)
        .arg("-D")
        .arg(&data)
        .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .status()
        .map_err(|e| format!("cannot run initdb: {e}"))?;
    if !status.success() {
        return Err(format!(
            "initdb failed ({status}): see {}",
            dir.join("initdb.log").display()
        ));
    }
    let port = free_port();
    let log = std::fs::File::create(dir.join("postgres.log"))
        .map_err(|e| format!("cannot create postgres.log: {e}"))?;
    let child = in_group(as_account(&mut Command::new(bin.join("postgres")), account))
        .arg("-D")
        .arg(&data)
        .arg("-k")
        .arg(&dir)
        .args(["-p", &port.to_string(), "-h", "127.0.0.1"])
        .args(["-c", "fsync=off", "-c", "full_page_writes=off"])
        .args(["-c", "max_connections=400"])
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .spawn()
        .map_err(|e| format!("cannot start postgres: {e}"))?;
    remember("postgres", child, "INT", dir.clone());
    let ready = || {
        Command::new(bin.join("pg_isready"))
            .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string()])
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    wait_until("postgres", ready, &dir.join("postgres.log"))?;
    Ok(Postgres {
        url: format!("postgres://postgres@127.0.0.1:{port}"),
        bin,
    })
}

/// Starts a Redis server on a free loopback port, without persistence.
pub fn start_redis() -> ServiceResult<Redis> {
    let dir = temp_dir("stella-redis")?;
    let port = free_port();
    let log = std::fs::File::create(dir.join("redis.log"))
        .map_err(|e| format!("cannot create redis.log: {e}"))?;
    let child = in_group(&mut Command::new("redis-server"))
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .arg("--dir")
        .arg(&dir)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .spawn()
        .map_err(|e| format!("cannot start redis-server: {e}"))?;
    remember("redis-server", child, "TERM", dir.clone());
    wait_until("redis-server", || redis_pong(port), &dir.join("redis.log"))?;
    Ok(Redis {
        url: format!("redis://127.0.0.1:{port}"),
    })
}

/// Whether a Redis server on `port` answers `PING`.
fn redis_pong(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}

fn remember(name: &'static str, child: Child, stop_signal: &'static str, dir: PathBuf) {
    RUNNING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Running {
            name,
            child,
            stop_signal,
            dir,
        });
}

/// Polls `ready` until it holds; fails (stopping everything started) when the
/// process exits first or [`START_TIMEOUT`] passes.
fn wait_until(name: &str, ready: impl Fn() -> bool, log: &Path) -> ServiceResult<()> {
    let start = Instant::now();
    loop {
        if ready() {
            return Ok(());
        }
        let exited = RUNNING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
            .filter(|r| r.name == name)
            .any(|r| matches!(r.child.try_wait(), Ok(Some(_))));
        if exited || start.elapsed() > START_TIMEOUT {
            let why = if exited { "exited" } else { "did not answer" };
            let tail = std::fs::read_to_string(log).unwrap_or_default();
            stop_all();
            return Err(format!("{name} {why}; its log:\n{tail}"));
        }
        sleep(Duration::from_millis(100));
    }
}

/// Stops every service started here (asks, then kills after [`STOP_TIMEOUT`]) and
/// removes their folders.
pub fn stop_all() {
    let running = std::mem::take(&mut *RUNNING.lock().unwrap_or_else(|e| e.into_inner()));
    for mut r in running {
        let _ = Command::new("kill")
            .args([&format!("-{}", r.stop_signal), &r.child.id().to_string()])
            .status();
        let start = Instant::now();
        while matches!(r.child.try_wait(), Ok(None)) && start.elapsed() < STOP_TIMEOUT {
            sleep(Duration::from_millis(50));
        }
        if matches!(r.child.try_wait(), Ok(None)) {
            eprintln!("xtask: {} did not stop; killing it", r.name);
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
        let _ = std::fs::remove_dir_all(&r.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_dirs_are_distinct_and_exist() {
        let a = temp_dir("stella-xtask-test").unwrap();
        let b = temp_dir("stella-xtask-test").unwrap();
        assert_ne!(a, b);
        assert!(a.is_dir() && b.is_dir());
        std::fs::remove_dir_all(a).unwrap();
        std::fs::remove_dir_all(b).unwrap();
    }

    #[test]
    fn nothing_answers_pong_on_a_closed_port() {
        let port = free_port();
        assert!(!redis_pong(port));
    }
}
