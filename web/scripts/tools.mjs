// Shared helpers of the build and test scripts: paths, running commands, and
// installing the tools the wasm build needs when they are missing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The `web/` folder. */
export const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The repository root (the Cargo workspace). */
export const ROOT = join(WEB, "..");

/** Runs a command with inherited output; throws when it fails. */
export function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: ROOT, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} failed with ${r.status ?? r.signal}`);
}

/** Output of a command, or `null` when it cannot run. */
export function output(cmd, args) {
  try {
    return execFileSync(cmd, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

/** The wasm-bindgen crate version pinned in Cargo.lock (resolving it if needed). */
export function lockedWasmBindgenVersion() {
  const lock = join(ROOT, "Cargo.lock");
  if (!existsSync(lock)) run("cargo", ["generate-lockfile"]);
  const text = readFileSync(lock, "utf8");
  const m = /name = "wasm-bindgen"\nversion = "([^"]+)"/.exec(text);
  if (!m) throw new Error("wasm-bindgen is not in Cargo.lock");
  return m[1];
}

/** Makes sure the wasm32 target and the matching wasm-bindgen CLI are installed. */
export function ensureWasmTools() {
  const targets = output("rustup", ["target", "list", "--installed"]) ?? "";
  if (!targets.includes("wasm32-unknown-unknown")) run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
  const want = lockedWasmBindgenVersion();
  const have = output("wasm-bindgen", ["--version"]);
  if (!have || !have.includes(want)) {
    const install = ["install", "wasm-bindgen-cli", "--version", want, "-j", "2"];
    // The CLI's own lock file first; a registry mirror may lack one of the
    // versions it pins, and then cargo resolves the dependencies itself.
    try {
      run("cargo", [...install, "--locked"]);
    } catch (e) {
      console.log(`${e.message}: installing wasm-bindgen-cli ${want} without its lock file`);
      run("cargo", install);
    }
  }
}

/** Path of Debian's Chromium, installing it with apt when it is missing. */
export function ensureChromium() {
  const candidates = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "chromium"]);
  return "/usr/bin/chromium";
}
