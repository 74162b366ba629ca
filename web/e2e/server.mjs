// Starts the real Stella server (target/debug/stella serve) on a free loopback port
// with a fresh SQLite database in a temporary folder, serving web/dist.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../scripts/tools.mjs";

/** Path of the `stella` binary: `$STELLA_BIN`, else the debug build. */
export const STELLA = process.env.STELLA_BIN ?? join(ROOT, "target", "debug", "stella");

/** Starts `stella serve` with `args` added; resolves with its base URL once it listens. */
export async function startServer(args = []) {
  if (!existsSync(STELLA)) throw new Error(`${STELLA} is missing: cargo build -p stella-cli`);
  const dir = mkdtempSync(join(tmpdir(), "stella-e2e-"));
  const child = spawn(STELLA, ["serve", "--listen", "127.0.0.1:0", "--db", join(dir, "stella.db"), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
    const onData = (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/[0-9.]+:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return {
    url,
    log: () => log,
    async close() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
