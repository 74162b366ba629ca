// Two browser contexts finish a game, then one asks for a rematch and the other
// accepts: both pages move to the new table, where the seats have rotated (the
// player who was second now moves first).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { guestPage, launch, RESULTS, startDuel } from "./helpers.mjs";
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

const guest = () => guestPage(browser, server.url);

test("a rematch moves both players to a new table with the seats rotated", { timeout: 300_000 }, async () => {
  const a = await guest();
  const b = await guest();
  const first = await startDuel(a, b, server.url);
  // A plays white and moves first.
  await a.page.waitForSelector(".hole.movable");
  assert.equal(await b.page.$(".hole.movable"), null);

  await b.page.waitForSelector('[data-action="resign"]:not([hidden])');
  await b.page.click('[data-action="resign"]');
  await b.page.click('dialog.confirm [data-confirm="yes"]');
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('[data-action="rematch"]:not([hidden])');
  }
  await a.page.click('[data-action="rematch"]');
  await a.page.waitForFunction(() => /waiting for 1 more/.test(document.querySelector(".rematch-status")?.textContent ?? ""));
  await b.page.waitForFunction(() => document.querySelector('[data-action="rematch"]')?.textContent === "Accept the rematch");
  await b.page.screenshot({ path: join(RESULTS, "rematch-offer.png") });
  await b.page.click('[data-action="rematch"]');

  for (const p of [a.page, b.page]) {
    await p.waitForFunction((old) => location.pathname.startsWith("/table/") && !location.pathname.endsWith(old), first);
  }
  const second = a.page.url().split("/table/")[1];
  assert.notEqual(second, first);
  assert.equal(b.page.url().split("/table/")[1], second);
  // Seats rotated: B is white now and moves first.
  await b.page.waitForSelector(".hole.movable");
  assert.equal(await a.page.$(".hole.movable"), null);
  await a.page.screenshot({ path: join(RESULTS, "rematch-started.png") });
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});
