// Two browser contexts play an online game through the real server to a result; a
// third watches. One player's connection is dropped mid-game and the page catches up.
// Then the game's replay, its record download, and the leaderboards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, RESULTS, POINTS, pieces, playGreedyMoveByMouse } from "./helpers.mjs";
import { startServer } from "./server.mjs";

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A context whose page keeps its WebSockets in `window.__sockets`, so a test can drop them. */
async function player() {
  const context = await browser.newContext({ viewport: { width: 1100, height: 850 }, locale: "en-GB" });
  await context.addInitScript(() => {
    localStorage.setItem("stella.animate", "off");
    const Native = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        window.__sockets.push(this);
      }
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

async function loginAsGuest(page) {
  await page.goto(`${server.url}/lobby`);
  await page.click('[data-action="guest"]');
  await page.waitForSelector("[data-user]");
  return page.$eval("[data-user]", (e) => e.getAttribute("data-user"));
}

/** Whether the table shows a result; else waits until it is this page's turn. */
async function turnOrEnd(page) {
  await page.waitForFunction(
    () => !document.querySelector(".result")?.hasAttribute("hidden") || document.querySelector(".hole.movable") !== null,
    null,
    { timeout: 60_000 },
  );
  return page.$eval(".result", (r) => !r.hasAttribute("hidden"));
}

test("two browsers play an online game to a result, a third watches", { timeout: 900_000 }, async () => {
  const a = await player();
  const b = await player();
  const nameA = await loginAsGuest(a.page);
  const nameB = await loginAsGuest(b.page);
  assert.notEqual(nameA, nameB);

  // A creates a two-player table: A in the first seat, the second open.
  await a.page.selectOption("#create-variant", "classic-2");
  await a.page.selectOption("#create-seat-0", "me");
  await a.page.selectOption("#create-seat-1", "open");
  await a.page.click('[data-action="create"]');
  await a.page.waitForURL(/\/table\//);
  const tableId = a.page.url().split("/table/")[1];

  // B sees it in the lobby and sits down.
  await b.page.waitForSelector(`[data-table="${tableId}"] [data-action="join"]`);
  await b.page.click(`[data-table="${tableId}"] [data-action="join"]`);
  await b.page.waitForURL(/\/table\//);

  // C watches without an account.
  const c = await player();
  await c.page.goto(`${server.url}/table/${tableId}`);
  await c.page.waitForSelector("[data-hole][data-marble]");

  // Each player sees their own point at the bottom.
  await a.page.waitForSelector(".hole.movable");
  const yOf = (page, hole) => page.$eval(`[data-hole="${hole}"]`, (e) => e.getBoundingClientRect().top);
  assert.ok((await yOf(a.page, "m1")) > (await yOf(a.page, "e17")), "white at the bottom for A");
  assert.ok((await yOf(b.page, "e17")) > (await yOf(b.page, "m1")), "black at the bottom for B");

  // The table fits a laptop and a phone: each player's own point is in view without scrolling.
  const inView = async (page, hole, width, height, shot) => {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    const r = await page.$eval(`[data-hole="${hole}"]`, (e) => e.getBoundingClientRect().toJSON());
    assert.ok(r.top >= 0 && r.bottom <= height && r.left >= 0 && r.right <= width, `${hole} at ${JSON.stringify(r)} in ${width}×${height}`);
    await page.screenshot({ path: join(RESULTS, shot) });
  };
  await inView(a.page, "m1", 1366, 768, "online-1366x768.png");
  await inView(b.page, "e17", 390, 844, "online-phone.png");
  await a.page.setViewportSize({ width: 1100, height: 850 });
  await b.page.setViewportSize({ width: 1100, height: 850 });

  let plies = 0;
  let dropped = false;
  const sides = [
    { p: a.page, goal: POINTS.black },
    { p: b.page, goal: POINTS.white },
  ];
  for (let turn = 0; ; turn = 1 - turn) {
    const { p, goal } = sides[turn];
    if (await turnOrEnd(p)) break;
    await playGreedyMoveByMouse(p, goal);
    plies++;
    // Wait until the move is on the server (the spectator sees it).
    await c.page.waitForFunction((n) => document.querySelectorAll(".move-list [data-ply]").length >= n, plies, { timeout: 30_000 });
    if (plies === 6) {
      await a.page.screenshot({ path: join(RESULTS, "online-table.png") });
      const watching = await c.page.textContent(".status");
      assert.match(watching, /You are watching this table\./);
    }
    if (plies === 7 && !dropped) {
      // Drop B's connection while A is to move; B must reconnect and catch up.
      dropped = true;
      await b.page.evaluate(() => window.__sockets.forEach((s) => s.close()));
      await b.page.waitForSelector(".conn.lost", { timeout: 10_000 }).catch(() => undefined);
    }
    assert.ok(plies < 500, "game too long");
  }
  // Both players and the spectator see the same result.
  for (const { page } of [a, b, c]) {
    await page.waitForSelector(".result:not([hidden]) [data-place]", { timeout: 30_000 });
  }
  const placesA = await a.page.$$eval(".result [data-place]", (els) => els.map((e) => e.getAttribute("data-seat") + e.getAttribute("data-place")));
  const placesB = await b.page.$$eval(".result [data-place]", (els) => els.map((e) => e.getAttribute("data-seat") + e.getAttribute("data-place")));
  assert.deepEqual(placesA, placesB);
  assert.deepEqual(await pieces(a.page), await pieces(b.page));
  assert.deepEqual(await pieces(a.page), await pieces(c.page));
  assert.equal(await b.page.$eval(".conn", (e) => e.classList.contains("lost")), false);

  // The game is in A's list, its replay steps through the moves, its record downloads.
  await a.page.goto(`${server.url}/games/${encodeURIComponent(nameA)}`);
  await a.page.waitForSelector(`[data-game] a`);
  await a.page.click(`[data-game] a`);
  await a.page.waitForSelector(".replay-moves li");
  const total = await a.page.$$eval(".replay-moves li", (els) => els.length);
  assert.equal(total, plies);
  await a.page.click('[data-step="first"]');
  await a.page.waitForFunction((n) => document.querySelector(".status")?.textContent === `0/${n}`, total);
  assert.equal((await pieces(a.page)).m1, "white");
  await a.page.click('[data-step="next"]');
  await a.page.waitForFunction((n) => document.querySelector(".status")?.textContent === `1/${n}`, total);
  await a.page.screenshot({ path: join(RESULTS, "replay.png") });
  const href = await a.page.$eval('[data-action="download"]', (e) => e.getAttribute("href"));
  const record = await a.page.evaluate(async (u) => (await fetch(u)).text(), href);
  assert.ok(record.length > 0);

  await a.page.goto(`${server.url}/leaderboard`);
  await a.page.waitForSelector(".leaderboard-page h1");
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
  await a.context.close();
  await b.context.close();
  await c.context.close();
});

test("quick pairing: two guests get a game at the same table", { timeout: 120_000 }, async () => {
  const a = await player();
  const b = await player();
  await loginAsGuest(a.page);
  await loginAsGuest(b.page);
  await a.page.click('[data-quick="3+2"]');
  await a.page.waitForSelector('[data-action="quick-cancel"]');
  await b.page.click('[data-quick="3+2"]');
  await a.page.waitForURL(/\/table\//);
  await b.page.waitForURL(/\/table\//);
  assert.equal(a.page.url(), b.page.url());
  // A live game with clocks: someone can move.
  await a.page.waitForSelector("[data-clock]");
  await Promise.race([a.page.waitForSelector(".hole.movable"), b.page.waitForSelector(".hole.movable")]);
  for (const p of [a, b]) assert.deepEqual(p.errors, []);
  await a.context.close();
  await b.context.close();
});

test("an unknown table shows the missing-table page with a way back", { timeout: 60_000 }, async () => {
  const p = await player();
  await p.page.goto(`${server.url}/table/doesnotexist`);
  await p.page.waitForSelector("[data-missing]:not([hidden]) h1");
  assert.equal(await p.page.textContent("[data-missing] h1"), "No such table");
  assert.equal(await p.page.$$eval("h1", (els) => els.filter((e) => !e.closest("[hidden]")).length), 1);
  assert.equal(await p.page.$("[data-hole][data-marble]"), null, "no empty board");
  assert.equal(await p.page.isVisible('[data-action="resign"]'), false);
  await p.page.click('[data-missing] a[href="/lobby"]');
  await p.page.waitForSelector(".lobby-page");
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
