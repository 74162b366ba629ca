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
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
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

/** Turns the animation of moves off in a page or context (long games stay quick). */
export async function noAnimation(target) {
  await target.addInitScript(() => localStorage.setItem("stella.animate", "off"));
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

/** The ten holes of each point, by the colour whose home it is. */
export const POINTS = {
  white: ["m1", "l2", "m2", "k3", "l3", "m3", "j4", "k4", "l4", "m4"],
  black: ["e17", "e16", "f16", "e15", "f15", "g15", "e14", "f14", "g14", "h14"],
};

/**
 * Plays one move for `colour` by mouse, picking the marble and destination that gain
 * the most distance towards `goal` (ties broken at random). A move the table asks to
 * confirm because it would eliminate the mover (docs/rules.md §5) is declined, as a person
 * would, and the next best move played instead; only when every move eliminates is
 * one confirmed. Returns the path of holes clicked.
 */
export async function playGreedyMoveByMouse(page, goal) {
  const declined = new Set();
  for (;;) {
    const best = await pickGreedyMove(page, goal, declined);
    const forced = best.key === null;
    await page.waitForSelector(`[data-hole="${best.to}"][data-dest]`);
    await page.click(`[data-hole="${best.to}"]`);
    // The table opens its question in the click's own handler, so it is there now.
    if (!(await page.$("dialog.confirm[open]"))) return [best.from, best.to];
    await page.click(`dialog.confirm[open] [data-confirm="${forced ? "yes" : "no"}"]`);
    if (forced) return [best.from, best.to];
    declined.add(best.key);
    if (await page.$(`[data-hole="${best.from}"].selected`)) await page.click(`[data-hole="${best.from}"]`);
  }
}

/**
 * Picks up every movable marble in turn and returns the best move by distance gained
 * towards `goal` among those not in `declined` (keys `from-to`), with that move's
 * marble left picked up. When every move is declined, the best of them, with `key`
 * null.
 */
async function pickGreedyMove(page, goal, declined) {
  const tip = goal[0];
  const score = (h) => 4 * Math.min(...goal.map((g) => holeDistance(h, g))) + holeDistance(h, tip);
  const movable = await page.$$eval(".hole.movable", (els) => els.map((e) => e.getAttribute("data-hole")));
  if (movable.length === 0) throw new Error("no movable marble");
  let best = null;
  let bestDeclined = null;
  for (const from of movable) {
    await page.click(`[data-hole="${from}"]`);
    await page.waitForSelector(`[data-hole="${from}"].selected`);
    for (const to of await dests(page)) {
      const gain = score(from) - score(to) + Math.random() * 0.5;
      const key = `${from}-${to}`;
      if (declined.has(key)) {
        if (!bestDeclined || gain > bestDeclined.gain) bestDeclined = { from, to, gain, key: null };
      } else if (!best || gain > best.gain) {
        best = { from, to, gain, key };
      }
    }
  }
  const pick = best ?? bestDeclined;
  // Clicking the picked-up marble again puts it down, so click only if needed.
  if (!(await page.$(`[data-hole="${pick.from}"].selected`))) await page.click(`[data-hole="${pick.from}"]`);
  return pick;
}

/** Resolves when the page shows a finished game or it is the person's turn to move. */
export async function waitForTurnOrEnd(page, timeout = 30000) {
  await page.waitForFunction(
    () => !document.querySelector(".result")?.hasAttribute("hidden") || document.querySelector(".hole.movable") !== null,
    null,
    { timeout },
  );
  return page.$eval(".result", (r) => !r.hasAttribute("hidden"));
}

/**
 * A new browser context at `baseUrl`'s lobby, logged in as a fresh guest: its page, the
 * page errors it raises, and the guest's name.
 */
export async function guestPage(browser, baseUrl) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-GB" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${baseUrl}/lobby`);
  await page.click('[data-action="guest"]');
  await page.waitForSelector("[data-user]");
  const name = await page.$eval("[data-user]", (e) => e.getAttribute("data-user"));
  return { context, page, errors, name };
}

/**
 * Guest `a` creates a classic-2 table (`a` white, one open seat) from the lobby and guest
 * `b` opens it at `baseUrl` and sits down; returns the table id.
 */
export async function startDuel(a, b, baseUrl) {
  await a.page.selectOption("#create-variant", "classic-2");
  await a.page.selectOption("#create-seat-0", "me");
  await a.page.selectOption("#create-seat-1", "open");
  await a.page.click('[data-action="create"]');
  await a.page.waitForURL(/\/table\//);
  const id = a.page.url().split("/table/")[1];
  await b.page.goto(`${baseUrl}/table/${id}`);
  await b.page.waitForSelector('[data-action="join"]:not([hidden])');
  await b.page.click('[data-action="join"]');
  return id;
}
