// A player who closes their page in a two-player game: the opponent sees the absence
// bar counting down, then a button to claim the win, which ends the game. The server
// runs with a 4-second absence limit instead of a minute so the test stays quick.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { guestPage, launch, RESULTS, startDuel } from "./helpers.mjs";
import { startServer } from "./server.mjs";

let server;
let browser;
before(async () => {
  server = await startServer(["--abandon-after-secs", "4"]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("the opponent of a player who left claims the win after the limit", { timeout: 300_000 }, async () => {
  const a = await guestPage(browser, server.url);
  const b = await guestPage(browser, server.url);
  await startDuel(a, b, server.url);
  await a.page.waitForSelector(".hole.movable");
  await b.page.waitForSelector('[data-action="resign"]:not([hidden])');

  // B closes the page: A sees who left and the countdown, with no button yet.
  await b.context.close();
  await a.page.waitForSelector(".absence:not([hidden])");
  const counting = await a.page.textContent(".absence-status");
  assert.match(counting, new RegExp(`${b.name} has left the table: you may claim the win in [1-4] s`));
  assert.equal(await a.page.isVisible('[data-action="claim-win"]'), false);
  await a.page.screenshot({ path: join(RESULTS, "absence-countdown.png") });

  // After the limit the button appears; claiming ends the game in A's favour.
  await a.page.waitForSelector('[data-action="claim-win"]:not([hidden])', { timeout: 15_000 });
  assert.match(await a.page.textContent(".absence-status"), /you may claim the win\./);
  await a.page.screenshot({ path: join(RESULTS, "absence-claim.png") });
  await a.page.click('[data-action="claim-win"]');
  await a.page.waitForSelector(".result:not([hidden])");
  assert.match(await a.page.textContent(".result"), /left the game/);
  assert.equal(await a.page.isVisible(".absence"), false, "the bar goes once the game is over");
  assert.deepEqual(a.errors, []);
  await a.context.close();
});
