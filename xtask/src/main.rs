//! `cargo xtask`: the project's build and test tasks.
//!
//! - `cargo xtask run [ARGS…]`: builds the WebAssembly engine and the web client,
//!   then runs `stella serve ARGS…` (release build).
//! - `cargo xtask test`: installs what the tests need (wasm target,
//!   wasm-bindgen-cli, npm packages, Debian chromium) and runs every test:
//!   formatting, the repository's self-reference check (`self_reference`),
//!   clippy, Rust unit/integration/doc tests, the wasm builds, the
//!   fuzz targets' build, the web unit tests and the browser end-to-end tests, and
//!   `cargo xtask cluster --check` on two nodes of the debug build.
//!   The server's integration suite runs twice: on SQLite with the workspace's
//!   tests, then on a PostgreSQL server (with a Redis server beside it) that the
//!   task installs from Debian if missing, starts for the run and stops after it
//!   (`services`); that second run goes on while the web tests run.
//! - `cargo xtask test-postgres [FILTER]`: the server's integration suite on
//!   PostgreSQL only (with Redis beside it), started as `cargo xtask test` does.
//! - `cargo xtask cluster [--nodes N] [--base-port PORT] [--debug] [--check]`: builds
//!   the web client and `stella` (release unless `--debug`), starts PostgreSQL and
//!   Redis as the tests do and N `stella serve` nodes (3 by default) on loopback ports
//!   from PORT (8080 by default), prints their addresses and waits for Ctrl-C or
//!   SIGTERM, then stops the nodes gracefully and the services after them
//!   (`cluster`). `--check` stops as soon as every node answers `/healthz`.
//! - `cargo xtask web`: builds the web client (with the wasm package) only.

mod cluster;
mod self_reference;
mod services;

use std::path::{Path, PathBuf};
use std::process::{exit, Command};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn run(dir: &Path, program: &str, args: &[&str]) {
    eprintln!(
        "xtask: {} $ {} {}",
        dir.strip_prefix(root()).unwrap_or(dir).display(),
        program,
        args.join(" ")
    );
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap_or_else(|e| {
            eprintln!("xtask: cannot start {program}: {e}");
            services::stop_all();
            exit(1)
        });
    if !status.success() {
        eprintln!("xtask: {program} {} failed ({status})", args.join(" "));
        services::stop_all();
        exit(status.code().unwrap_or(1));
    }
}

fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn ensure_wasm_target() {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if !installed {
        run(
            &root(),
            "rustup",
            &["target", "add", "wasm32-unknown-unknown"],
        );
    }
}

fn ensure_npm_packages() {
    let web = root().join("web");
    if !web.join("node_modules").exists() {
        run(&web, "npm", &["ci", "--no-audit", "--no-fund"]);
    }
}

fn build_web() {
    ensure_wasm_target();
    ensure_npm_packages();
    run(&root().join("web"), "npm", &["run", "build"]);
}

/// Fails when a tracked file mentions sessions, issues, closing work or files
/// outside the repository, naming every line found.
fn check_self_reference(root: &Path) {
    eprintln!(
        "xtask: git grep -nE '{}' (tracked files, lock files excluded)",
        self_reference::PATTERN
    );
    match self_reference::hits(root) {
        Ok(hits) => {
            if let Some(text) = self_reference::report(&hits) {
                eprint!("xtask: {text}");
                exit(1);
            }
        }
        Err(e) => {
            eprintln!("xtask: {e}");
            exit(1);
        }
    }
}

fn test() {
    let root = root();
    ensure_wasm_target();
    if !succeeds("cargo", &["clippy", "--version"]) || !succeeds("cargo", &["fmt", "--version"]) {
        run(&root, "rustup", &["component", "add", "clippy", "rustfmt"]);
    }
    run(&root, "cargo", &["fmt", "--all", "--check"]);
    check_self_reference(&root);
    build_web();
    run(
        &root,
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    );
    // PostgreSQL and Redis are installed before the Rust tests, and `CI` is set, so the
    // cluster tests run against real servers and fail rather than skip without them.
    if let Err(e) = services::ensure_installed() {
        eprintln!("xtask: {e}");
        exit(1);
    }
    if std::env::var_os("CI").is_none() {
        std::env::set_var("CI", "1");
    }
    run(&root, "cargo", &["test", "--workspace"]);
    check_cluster(&root);
    run(
        &root,
        "cargo",
        &[
            "build",
            "-p",
            "stella-engine",
            "-p",
            "stella-ai",
            "--target",
            "wasm32-unknown-unknown",
        ],
    );
    run(&root.join("fuzz"), "cargo", &["check", "--bins"]);
    let server_on_postgres = start_server_suite_on_postgres(&root, None);
    run(&root.join("web"), "npm", &["run", "test:all"]);
    let passed = server_on_postgres
        .join()
        .unwrap_or_else(|_| Err("the PostgreSQL run panicked".into()));
    services::stop_all();
    if let Err(e) = passed {
        eprintln!("xtask: {e}");
        exit(1);
    }
}

/// The path of the server's integration-test binary, built if needed.
fn server_suite_binary(root: &Path) -> Result<PathBuf, String> {
    let args = [
        "test",
        "-p",
        "stella-server",
        "--test",
        "suite",
        "--no-run",
        "--message-format=json",
    ];
    eprintln!("xtask: $ cargo {}", args.join(" "));
    let out = Command::new("cargo")
        .args(args)
        .current_dir(root)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("building the server suite failed ({})", out.status));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(r#""name":"suite""#) && l.contains(r#""kind":["test"]"#))
        .find_map(|l| {
            let start = l.find(r#""executable":""#)? + r#""executable":""#.len();
            let len = l[start..].find('"')?;
            Some(PathBuf::from(&l[start..start + len]))
        })
        .ok_or_else(|| "cargo named no executable for the server suite".into())
}

/// Starts PostgreSQL and Redis, then the server's integration suite against them in
/// a thread; its output is printed in one piece when it ends. The binary is run
/// directly (not through cargo) so that it does not hold cargo's build lock while
/// the web tests build.
fn start_server_suite_on_postgres(
    root: &Path,
    filter: Option<String>,
) -> std::thread::JoinHandle<Result<(), String>> {
    let started = services::ensure_installed()
        .and_then(|()| Ok((services::start_postgres()?, services::start_redis()?)))
        .and_then(|(pg, redis)| Ok((server_suite_binary(root)?, pg, redis)));
    let (suite, pg, redis) = match started {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask: {e}");
            services::stop_all();
            exit(1);
        }
    };
    eprintln!("xtask: server suite on {} (Redis {})", pg.url, redis.url);
    let dir = root.join("crates").join("server");
    std::thread::spawn(move || {
        let out = Command::new(&suite)
            .args(filter)
            .current_dir(&dir)
            .env("STELLA_TEST_POSTGRES", &pg.url)
            .env("STELLA_TEST_POSTGRES_BIN", &pg.bin)
            .env("STELLA_TEST_REDIS", &redis.url)
            .output()
            .map_err(|e| format!("cannot start {}: {e}", suite.display()))?;
        eprintln!("xtask: the server suite on PostgreSQL:");
        eprint!("{}", String::from_utf8_lossy(&out.stdout));
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "the server suite on PostgreSQL failed ({})",
                out.status
            ))
        }
    })
}

/// The `cargo xtask cluster --check` run on the debug `stella` the tests built: two
/// nodes on free ports, each answering `/healthz`, stopped gracefully.
fn check_cluster(root: &Path) {
    let nodes = 2;
    let started = cluster::free_base_port(nodes).and_then(|base_port| {
        let options = cluster::Options {
            nodes,
            base_port,
            profile: cluster::Profile::Debug,
            check: true,
        };
        eprintln!(
            "xtask: cargo xtask cluster --debug --check --nodes {nodes} --base-port {base_port}"
        );
        let binary = cluster::stella_binary(root, options.profile);
        cluster::run(&binary, &options, &root.join("target").join("cluster"))
    });
    if let Err(e) = started {
        eprintln!("xtask: the cluster check failed: {e}");
        exit(1);
    }
}

/// `cargo xtask cluster`: builds, then runs the nodes until stopped.
fn cluster_task(args: &[String]) {
    let options = cluster::parse_options(args).unwrap_or_else(|e| {
        eprintln!("xtask: {e}");
        exit(2)
    });
    let root = root();
    build_web();
    run(&root, "cargo", &cluster::build_args(options.profile));
    let binary = cluster::stella_binary(&root, options.profile);
    let logs = root.join("target").join("cluster");
    if let Err(e) = cluster::run(&binary, &options, &logs) {
        eprintln!("xtask: {e}");
        exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("web") => build_web(),
        Some("test-postgres") => {
            let passed = start_server_suite_on_postgres(&root(), args.get(1).cloned())
                .join()
                .unwrap_or_else(|_| Err("the PostgreSQL run panicked".into()));
            services::stop_all();
            if let Err(e) = passed {
                eprintln!("xtask: {e}");
                exit(1);
            }
        }
        Some("cluster") => cluster_task(&args[1..]),
        Some("run") => {
            build_web();
            let mut serve = vec!["run", "--release", "-p", "stella-cli", "--", "serve"];
            serve.extend(args[1..].iter().map(String::as_str));
            run(&root(), "cargo", &serve);
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <run [serve args…] | test | test-postgres [filter] | web | {}>",
                cluster::USAGE
            );
            exit(2);
        }
    }
}
