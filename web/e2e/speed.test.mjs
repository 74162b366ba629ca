// How long the computer at level 8 takes to reply in the browser (the wasm engine in a
// Web Worker), at classic-2 from the start and in the middle game, at classic-3 (two
// computer seats, three rounds) and at classic-6 (five computer seats in a row). The
// times are printed, not asserted: this machine may be loaded. Each figure is one search
// as the page measured it (`data-think-ms`: from the request to the worker until its
// answer). The last test times level 8's tree search without its time cap (the page's
// clock frozen: each search runs to its budget or until its move is decided) on the main
// thread of a page, and prints the tree iterations run per second of CPU
// (web/scripts/wasm-speed.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WEB } from "../scripts/tools.mjs";
import { median, timeSearches } from "../scripts/wasm-speed.mjs";
import { launch, noAnimation, startStatic, RESULTS, POINTS, playGreedyMoveByMouse, waitForTurnOrEnd } from "./helpers.mjs";

let site;
let browser;
const figures = {};
before(async () => {
  site = await startStatic();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, "speed.json"), `${JSON.stringify(figures, null, 2)}\n`);
});

function report(name, times) {
  figures[name] = { times, median: median(times), max: Math.max(...times) };
  console.log(`# level 8, ${name}: ${times.join(", ")} ms (median ${median(times)}, max ${Math.max(...times)})`);
}

/** Search times the page has measured so far. */
async function thinkTimes(page) {
  const raw = await page.getAttribute(".offline-game", "data-think-ms");
  return raw ? raw.split(",").map(Number) : [];
}

/** Plays `n` moves as white; the computer replies to each. Returns the replies' search times. */
async function playAndTime(page, n, plies) {
  for (let i = 0; i < n; i++) {
    await waitForTurnOrEnd(page, 120_000);
    const count = await page.$$eval(".move-list [data-ply]", (els) => els.length);
    await playGreedyMoveByMouse(page, POINTS.black);
    await page.waitForFunction((c) => document.querySelectorAll(".move-list [data-ply]").length >= c, count + plies, { timeout: 120_000 });
  }
  await waitForTurnOrEnd(page, 120_000);
  return thinkTimes(page);
}

test("level 8 at classic-2, start and middle game", { timeout: 600_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=8`);
  report("classic-2, moves 1-3", await playAndTime(page, 3, 2));
  // A middle game: 20 rounds against level 1, then the same game continued against level 8.
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.click('[data-action="new"]');
  await playAndTime(page, 20, 2);
  await page.evaluate(() => {
    const g = JSON.parse(localStorage.getItem("stella.offline.game"));
    g.query = g.query.replace("level=1", "level=8");
    localStorage.setItem("stella.offline.game", JSON.stringify(g));
  });
  await page.goto(`${site.url}/offline?players=2&humans=1&level=8&variant=classic-2`);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 40);
  const times = await playAndTime(page, 3, 2);
  assert.equal(times.length, 3);
  report("classic-2, moves 21-23", times);
  await context.close();
});

test("level 8 at classic-3: two computer seats over the first three rounds", { timeout: 600_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=3&humans=1&level=8&variant=classic-3`);
  const times = await playAndTime(page, 3, 3);
  assert.equal(times.length, 6);
  report("classic-3, rounds 1-3", times);
  await context.close();
});

test("level 8 at classic-6: five computer seats after the person's first move", { timeout: 600_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=6&humans=1&level=8`);
  const times = await playAndTime(page, 1, 6);
  assert.equal(times.length, 5);
  report("classic-6, round 1", times);
  await context.close();
});

test("level 8's tree iterations per second without its time cap, classic-3 and classic-6", { timeout: 600_000 }, async () => {
  const pkg = join(WEB, "src", "wasm-pkg");
  for (const [variant, step] of [["classic-3", 12], ["classic-6", 18]]) {
    const opts = { variant, step, count: 3, first: step, level: 8, pkg };
    const { iterations, rows } = await timeSearches(opts, { browser });
    assert.equal(rows.length, 3);
    for (const r of rows) {
      assert.ok(r.iterations > 0 && r.iterations <= iterations, `ply ${r.ply}: ${r.iterations} iterations of ${iterations}`);
      assert.ok(r.cpuMs > 0 && Number.isFinite(r.perSecond), `ply ${r.ply}: ${r.cpuMs} ms of CPU`);
    }
    const perSecond = rows.map((r) => Math.round(r.perSecond));
    const med = median(perSecond);
    figures[`${variant}, tree iterations per second`] = {
      budget: iterations,
      plies: rows.map((r) => r.ply),
      iterations: rows.map((r) => r.iterations),
      perSecond,
      median: med,
    };
    console.log(
      `# level 8, ${variant}: ${perSecond.join(", ")} iterations per second of CPU at plies ${rows.map((r) => r.ply).join(", ")} ` +
        `(${rows.map((r) => r.iterations).join(", ")} iterations run) ` +
        `(median ${med}: ${Math.min(100, Math.round((100 * med) / iterations))}% of its ${iterations} iterations within a second)`,
    );
  }
});
