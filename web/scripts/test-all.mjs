// Every test of the web client, installing what it needs first: npm packages,
// the wasm target and wasm-bindgen CLI, Debian's chromium. Then builds the wasm
// package and the site (web/dist), runs the unit tests (vitest) and the end-to-end
// tests in headless Chromium (node's test runner), which include an online game
// against the real server (built here as target/debug/stella).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureChromium, ensureWasmTools, run, WEB } from "./tools.mjs";

if (!existsSync(join(WEB, "node_modules", ".bin", "vite"))) run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: WEB });
ensureWasmTools();
ensureChromium();
run("npm", ["run", "build"], { cwd: WEB });
run("npx", ["vitest", "run"], { cwd: WEB });
run("cargo", ["build", "-p", "stella-cli"]);
const e2e = readdirSync(join(WEB, "e2e")).filter((f) => f.endsWith(".test.mjs")).map((f) => join("e2e", f));
run("node", ["--test", "--test-concurrency=1", ...e2e], { cwd: WEB });
