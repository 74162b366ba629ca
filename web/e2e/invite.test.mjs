// A private table between two browser contexts: the creator gets an invitation link;
// the table is not in the lobby, opening it without the link is refused, and the
// friend who opens the link sits down and plays; the page title shows whose turn it is.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { guestPage, launch, RESULTS } from "./helpers.mjs";
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

test("a friend joins a private table through its invitation link", { timeout: 300_000 }, async () => {
  const a = await guest();
  const b = await guest();
  await a.page.selectOption("#create-variant", "classic-2");
  await a.page.selectOption("#create-seat-0", "me");
  await a.page.selectOption("#create-seat-1", "open");
  await a.page.check("#create-private");
  await a.page.click('[data-action="create"]');
  await a.page.waitForURL(/\/table\/.+\?invite=/);
  const tableId = new URL(a.page.url()).pathname.split("/table/")[1];
  await a.page.waitForSelector('.invite:not([hidden]) [data-action="invite-link"]');
  const link = await a.page.inputValue('[data-action="invite-link"]');
  assert.match(link, new RegExp(`/table/${tableId}\\?invite=\\w{16,}`));
  await a.page.screenshot({ path: join(RESULTS, "invite-link.png") });

  // Not in B's lobby; without the link the table refuses.
  await b.page.waitForSelector(".lobby-tables, [data-action='create']");
  assert.equal(await b.page.$(`[data-table="${tableId}"]`), null);
  await b.page.goto(`${server.url}/table/${tableId}`);
  await b.page.waitForFunction(() => [...document.querySelectorAll(".note")].some((n) => /private/.test(n.textContent ?? "")));
  assert.equal(await b.page.$("[data-hole][data-marble]"), null, "nothing of the table is shown");

  // With the link B sits down and the game starts: A (white) may move.
  await b.page.goto(link);
  await b.page.waitForSelector('[data-action="join"]:not([hidden])');
  await b.page.click('[data-action="join"]');
  await a.page.waitForSelector(".hole.movable");
  await b.page.waitForSelector('[data-action="resign"]:not([hidden])');
  // The page title tells whose turn it is.
  await a.page.waitForFunction(() => document.title.startsWith("Your turn · "));
  assert.doesNotMatch(await b.page.title(), /Your turn/);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});
