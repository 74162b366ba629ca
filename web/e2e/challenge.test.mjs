// Direct challenges between two browser contexts: two registered players; one
// challenges the other by name from the lobby, the other accepts and both land at the
// same table with the game started; a second challenge is declined and the
// challenger is told.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, RESULTS } from "./helpers.mjs";
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

/** A new browser context registered as `name`, at the lobby. */
async function registered(name) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-GB" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/register`);
  await page.fill("#username", name);
  await page.fill("#password", "correct horse battery");
  await page.click('form button[type="submit"]');
  await page.waitForURL(/\/lobby$/);
  await page.waitForSelector("#challenge-name");
  return { context, page, errors };
}

async function challenge(from, name) {
  await from.page.fill("#challenge-name", name);
  await from.page.click('[data-action="challenge"]');
}

test("a challenge accepted brings both players to the same table", { timeout: 300_000 }, async () => {
  const a = await registered("alice");
  const b = await registered("bruno");
  await challenge(a, "Bruno");
  // Alice sees it as sent, Bruno gets it with accept and decline.
  await a.page.waitForSelector('.challenge.outgoing [data-action="challenge-cancel"]');
  await b.page.waitForSelector('.challenge.incoming [data-action="challenge-accept"]');
  const text = await b.page.textContent(".challenge.incoming");
  assert.match(text, /alice challenges you/);
  assert.match(text, /5 min \+ 3 s/);
  await b.page.screenshot({ path: join(RESULTS, "challenge-incoming.png") });

  await b.page.click('.challenge.incoming [data-action="challenge-accept"]');
  await a.page.waitForURL(/\/table\//);
  await b.page.waitForURL(/\/table\//);
  const idA = new URL(a.page.url()).pathname;
  const idB = new URL(b.page.url()).pathname;
  assert.equal(idA, idB, "both at the same table");
  // The game is on: both may resign, one of them is to move.
  await a.page.waitForSelector('[data-action="resign"]:not([hidden])');
  await b.page.waitForSelector('[data-action="resign"]:not([hidden])');
  await Promise.race([a.page.waitForSelector(".hole.movable"), b.page.waitForSelector(".hole.movable")]);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});

test("a declined challenge is taken off both lobbies", { timeout: 300_000 }, async () => {
  const a = await registered("carla");
  const b = await registered("dario");
  await challenge(a, "dario");
  await b.page.waitForSelector('.challenge.incoming [data-action="challenge-decline"]');
  await b.page.click('.challenge.incoming [data-action="challenge-decline"]');
  await a.page.waitForFunction(() => /dario declined the challenge/.test(document.querySelector(".challenges")?.textContent ?? ""));
  assert.equal(await a.page.$(".challenge.outgoing"), null);
  assert.equal(await b.page.$(".challenge.incoming"), null);
  assert.match(a.page.url(), /\/lobby$/);
  // Challenging an unknown name says so.
  await challenge(a, "nobody-here");
  await a.page.waitForFunction(() => /no user named/.test(document.querySelector(".lobby-page [role=alert]")?.textContent ?? ""));
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});

test("a table can be opened to bots from the lobby", { timeout: 120_000 }, async () => {
  const a = await registered("elena");
  await a.page.selectOption("#create-variant", "classic-2");
  await a.page.check("#create-bots");
  await a.page.click('[data-action="create"]');
  await a.page.waitForURL(/\/table\//);
  const id = new URL(a.page.url()).pathname.split("/table/")[1];
  const listed = await (await fetch(`${server.url}/api/tables`)).json();
  assert.equal(listed.tables.find((t) => t.id === id)?.bots, true);
  await a.page.goto(`${server.url}/lobby`);
  await a.page.waitForSelector(`[data-table="${id}"] [data-bots]`);
  await a.page.screenshot({ path: join(RESULTS, "lobby-bots-welcome.png") });
  assert.deepEqual(a.errors, []);
  await a.context.close();
});
