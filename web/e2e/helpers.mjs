// Helpers of the end-to-end tests: a static server for web/dist with the SPA
// fallback the real server has, and headless Chromium through playwright-core.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { ensureChromium, WEB } from "../scripts/tools.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/** Serves web/dist on a free loopback port; unknown paths get index.html. */
export async function startStatic(dist = join(WEB, "dist")) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    let file = join(dist, path);
    try {
      if (!(await stat(file)).isFile()) throw new Error("dir");
    } catch {
      file = join(dist, "index.html");
    }
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Launches Debian's headless Chromium. */
export async function launch() {
  return chromium.launch({
    executablePath: ensureChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Folder for screenshots and other test output. */
export const RESULTS = join(WEB, "test-results");

/** The marbles on the board as { hole: colour }. */
export async function pieces(page) {
  return page.$$eval("[data-hole][data-marble]", (els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute("data-hole"), e.getAttribute("data-marble")])),
  );
}

/** Hole names currently marked as destinations. */
export async function dests(page) {
  return page.$$eval("[data-hole][data-dest]", (els) => els.map((e) => e.getAttribute("data-hole")));
}

/** Row number of a hole name. */
export function rowOf(hole) {
  return Number(hole.slice(1));
}

/** Letter index (1–17) of a hole name. */
export function letterOf(hole) {
  return hole.charCodeAt(0) - 96;
}

/** Distance in steps between two holes (cube metric). */
export function holeDistance(a, b) {
  const x = letterOf(a) - letterOf(b);
  const y = rowOf(a) - rowOf(b);
  return Math.max(Math.abs(x), Math.abs(y), Math.abs(x + y));
}
