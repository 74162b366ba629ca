// Puzzle ratings of registered players on the real server (`stella serve --puzzles`):
// the page takes the server's puzzle set, a solved puzzle raises the rating kept with
// the account (the server checks the moves played), and the rating survives a reload.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, noAnimation, RESULTS } from "./helpers.mjs";
import { startServer } from "./server.mjs";

/** White finishes in two moves (h12-h13, h13-h14). Not in the built-in file. */
const PUZZLE = {
  id: "served-40",
  position: "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39",
  moves: 2,
  rating: 1300,
  game: "served",
  ply: 40,
};

let dir;
let server;
let browser;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "stella-puzzles-"));
  const file = join(dir, "puzzles.json");
  writeFileSync(file, JSON.stringify({ format: "stella-puzzles/1", puzzles: [PUZZLE] }));
  server = await startServer(["--puzzles", file]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function play(page, from, to) {
  await page.waitForSelector(`[data-hole="${from}"].movable`);
  await page.click(`[data-hole="${from}"]`);
  await page.click(`[data-hole="${to}"]`);
}

const ratingLine = (page) =>
  page.$eval("[data-puzzle-rating]", (e) => ({ source: e.getAttribute("data-source"), text: e.textContent }));

test("a registered player's puzzle rating is kept by the server", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  await noAnimation(context);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/register`);
  await page.fill("#username", "solver");
  await page.fill("#password", "correct horse battery");
  await page.click('form button[type="submit"]');
  await page.waitForURL(/\/lobby$/);

  // The daily puzzle comes from the server's set, not the built-in file.
  await page.goto(`${server.url}/puzzles`);
  await page.waitForSelector("[data-puzzle-status][data-state=playing]");
  assert.match(await page.$eval(".puzzle-page", (e) => e.textContent), /served-40/);
  const before = await ratingLine(page);
  assert.equal(before.source, "account");
  assert.match(before.text, /1500 \(± 350\), kept with your account/);

  await play(page, "h12", "h13");
  await page.waitForFunction(() => document.querySelector("[data-puzzle-status]")?.textContent === "Moves left: 1.");
  await play(page, "h13", "h14");
  await page.waitForSelector("[data-puzzle-status][data-state=solved]");
  await page.waitForFunction(() => !/: 1500 /.test(document.querySelector("[data-puzzle-rating]")?.textContent ?? ""));
  const solved = await ratingLine(page);
  const rating = Number(/: (\d+) /.exec(solved.text)[1]);
  assert.ok(rating > 1500, solved.text);
  // The guest record on this device is untouched.
  assert.equal(await page.evaluate(() => localStorage.getItem("stella.puzzles")), null);
  await page.screenshot({ path: join(RESULTS, "puzzle-account.png") });

  // After a reload the rating comes back from the server; a second try is not rated.
  await page.reload();
  await page.waitForSelector("[data-puzzle-status][data-state=playing]");
  await page.waitForFunction(() => document.querySelector("[data-puzzle-rating]")?.getAttribute("data-source") === "account");
  assert.equal((await ratingLine(page)).text, solved.text);
  await play(page, "h12", "h11");
  await page.waitForSelector("[data-puzzle-status][data-state=failed]");
  await page.waitForFunction(() => document.querySelector("[data-puzzle-note]")?.textContent !== "");
  assert.match(await page.$eval("[data-puzzle-note]", (e) => e.textContent), /does not change your rating/);
  assert.equal((await ratingLine(page)).text, solved.text);

  const me = await page.evaluate(async () => (await fetch("/api/puzzles/me")).json());
  assert.deepEqual(me.tried, { [PUZZLE.id]: true });
  assert.equal(Math.round(me.rating.rating), rating);
  assert.deepEqual(errors, []);
  await context.close();
});
