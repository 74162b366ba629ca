//! `cargo xtask`: the project's build and test tasks.
//!
//! - `cargo xtask run [ARGS…]`: builds the WebAssembly engine and the web client,
//!   then runs `stella serve ARGS…` (release build).
//! - `cargo xtask test`: installs what the tests need (wasm target,
//!   wasm-bindgen-cli, npm packages, Debian chromium) and runs every test:
//!   formatting, the repository's self-reference check (`self_reference`),
//!   clippy, Rust unit/integration/doc tests, the wasm builds, the
//!   fuzz targets' build, the web unit tests and the browser end-to-end tests.
//! - `cargo xtask web`: builds the web client (with the wasm package) only.

mod self_reference;

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
            exit(1)
        });
    if !status.success() {
        eprintln!("xtask: {program} {} failed ({status})", args.join(" "));
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
    run(&root, "cargo", &["test", "--workspace"]);
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
    run(&root.join("web"), "npm", &["run", "test:all"]);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("web") => build_web(),
        Some("run") => {
            build_web();
            let mut serve = vec!["run", "--release", "-p", "stella-cli", "--", "serve"];
            serve.extend(args[1..].iter().map(String::as_str));
            run(&root(), "cargo", &serve);
        }
        _ => {
            eprintln!("usage: cargo xtask <run [serve args…] | test | web>");
            exit(2);
        }
    }
}
