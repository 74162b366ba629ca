// The analysis board and the game review, against the built site (web/dist): a
// finished offline game opened with "Analyse" shows an evaluation and a best line, a
// variation played on the board appears in the exported record; the review of a game
// with a planted blunder marks it and jumps to it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, noAnimation, startStatic, RESULTS, waitForTurnOrEnd } from "./helpers.mjs";

/**
 * White to move, one marble two steps from its goal; Black's last marble is three
 * moves from its goal. White wins with h12-h13 and h13-h14; stepping back (h12-h11)
 * lets Black arrive first.
 */
const CLOSE_RACE =
  "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

/** The race above thrown away by the planted blunder h12-h11: Black arrives first. */
const BLUNDER = ["h12-h11", "i7-i6", "h11-h12", "i6-i5", "h12-h13", "i5-j4"];

let site;
let browser;
before(async () => {
  site = await startStatic();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

async function click(page, hole) {
  await page.click(`[data-hole="${hole}"]`);
}

test("a finished offline game opens on the analysis board: evaluation, best line, a variation exported", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1&position=${encodeURIComponent(CLOSE_RACE)}`);
  await waitForTurnOrEnd(page);
  await click(page, "h12");
  await click(page, "h13");
  await waitForTurnOrEnd(page);
  await click(page, "h13");
  await click(page, "h14");
  assert.equal(await waitForTurnOrEnd(page), true, "the game is over");
  await page.click('[data-action="analyse"]');
  await page.waitForURL(/\/analysis\?/);
  // The last position is over (Black answered h13-h14): go back one move, to Black's last choice.
  await page.waitForSelector('[data-tree] [data-path="h13-h14"] + [aria-current]');
  assert.match(await page.$eval("[data-eval]", (e) => e.textContent), /over/);
  await page.click('[data-step="prev"]');
  await page.waitForSelector('[data-tree] [data-path="h13-h14"][aria-current]');
  await page.waitForSelector("[data-line]");
  await page.waitForSelector("[data-best-line] .best-move");
  const score = await page.$eval("[data-eval]", (e) => e.getAttribute("data-score"));
  assert.ok(score !== null && Number.isFinite(Number(score)), `an evaluation: ${score}`);
  assert.match(await page.$eval("[data-eval]", (e) => e.textContent), /^Black: /);
  const lines = await page.$$eval("[data-line]", (els) => els.map((e) => e.getAttribute("data-move")));
  assert.ok(lines.length >= 2 && new Set(lines).size === lines.length, `distinct best moves: ${lines}`);
  // A race is solved at once: the engine rests.
  await page.waitForFunction(() => /^Depth \d+$/.test(document.querySelector("[data-depth]")?.textContent ?? ""), null, { timeout: 30_000 });
  await page.screenshot({ path: join(RESULTS, "analysis-desktop.png") });
  // Go back to White's last choice and try another finish: a variation.
  await page.click('[data-step="prev"]');
  await page.waitForSelector('[data-tree] [data-path="h12-h13"] + [aria-current]');
  await page.waitForSelector(".hole.movable");
  const other = await page.$$eval("[data-hole][data-marble=\"white\"]", (els) => els.map((e) => e.getAttribute("data-hole")));
  assert.ok(other.includes("h13"));
  await click(page, "h13");
  await page.waitForSelector('[data-hole="h14"][data-dest]');
  // Both sides of the tree: the game's h13-h14 stays the main line, g14... is another move.
  const dests = await page.$$eval("[data-hole][data-dest]", (els) => els.map((e) => e.getAttribute("data-hole")));
  const alternative = dests.find((d) => d !== "h14");
  assert.ok(alternative, `another destination than h14: ${dests}`);
  await click(page, alternative);
  await page.waitForSelector(`[data-tree] .variation [data-path="h13-${alternative}"][aria-current]`);
  await page.click('[data-action="export"]');
  const record = await page.$eval("[data-export]", (e) => e.value);
  assert.match(record, /^\[Variant "classic-2"\]/m);
  assert.ok(record.includes(`[Start "${CLOSE_RACE}"]`), record);
  assert.ok(record.includes(`(2. h13-${alternative})`), record);
  assert.ok(record.includes("h13-h14"), record);
  // The exported record loads back with its variation.
  await page.click(".analysis-load summary");
  await page.fill("[data-input]", record);
  await page.click('[data-action="load"]');
  await page.waitForSelector(`[data-tree] .variation [data-path="h13-${alternative}"]`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS, "analysis-phone.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the engine deepens on its own until stopped", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/analysis`);
  await page.waitForFunction(() => /Depth ([3-9]|\d\d)/.test(document.querySelector("[data-depth]")?.textContent ?? ""), null, { timeout: 45_000 });
  assert.equal(await page.$$eval("[data-line]", (els) => els.length), 3);
  // Stopped, it keeps the last depth on show and thinks no more.
  await page.click('[data-action="engine"]');
  await page.waitForFunction(() => /^Depth \d+$/.test(document.querySelector("[data-depth]")?.textContent ?? ""));
  assert.equal(await page.$eval('[data-action="engine"]', (e) => e.textContent), "Start the engine");
  await page.close();
});

test("the review of a game with a planted blunder marks it and jumps to it", { timeout: 180_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const q = new URLSearchParams({ variant: "classic-2", start: CLOSE_RACE, moves: BLUNDER.join(",") });
  await page.goto(`${site.url}/analysis?${q}`);
  await page.waitForSelector('[data-tree] [data-path="i5-j4"][aria-current]');
  assert.match(await page.$eval("[data-eval]", (e) => e.textContent), /over/);
  await page.click('[data-action="review"]');
  await page.waitForFunction(() => /Review done/.test(document.querySelector("[data-review] [role=status]")?.textContent ?? ""), null, { timeout: 150_000 });
  const marked = await page.$$eval("[data-review] li[data-judgement]", (els) =>
    els.map((e) => ({ ply: e.getAttribute("data-ply"), judgement: e.getAttribute("data-judgement"), better: e.querySelector("[data-better]")?.getAttribute("data-better") })),
  );
  const blunder = marked.find((m) => m.ply === "1");
  assert.ok(blunder, `the first move is marked: ${JSON.stringify(marked)}`);
  assert.equal(blunder.judgement, "mistake");
  assert.equal(blunder.better, "h12-h13");
  assert.equal(await page.$eval('[data-tree] [data-path="h12-h11"]', (e) => e.getAttribute("data-judgement")), "mistake");
  await page.click('[data-action="biggest-mistake"]');
  // The position before the blunder: the start, White to move.
  await page.waitForSelector('[data-tree] .tree-move[aria-current]', { state: "detached" });
  await page.waitForSelector("[data-line]");
  await page.screenshot({ path: join(RESULTS, "review-desktop.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS, "review-phone.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("after one visit, offline: the analysis board thinks and the daily puzzle opens", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(site.url);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForSelector("html[data-offline-ready]", { state: "attached", timeout: 30_000 });
  await context.setOffline(true);
  await page.goto(`${site.url}/analysis?variant=classic-2&moves=m3-m5`);
  await page.waitForSelector("[data-line]", { timeout: 45_000 });
  assert.ok(Number.isFinite(Number(await page.$eval("[data-eval]", (e) => e.getAttribute("data-score")))));
  await page.goto(`${site.url}/puzzles`);
  await page.waitForSelector("[data-puzzle-status][data-state=playing]");
  await context.setOffline(false);
  assert.deepEqual(errors, []);
  await context.close();
});
