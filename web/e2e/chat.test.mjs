// Two browser contexts talk at an online table: a line reaches the other player as
// plain text (never HTML), a player hides the other's lines and shows them again, a
// refused line explains itself, and the game's replay shows the chat.
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

/** The chat lines a page shows, as "name: text". */
function lines(page) {
  return page.$$eval(".chat .chat-line", (els) =>
    els.map((li) => `${li.querySelector("strong").textContent}: ${li.querySelector(".chat-text").textContent}`),
  );
}

async function say(page, text) {
  await page.fill('[data-action="chat-text"]', text);
  await page.click('[data-action="chat-send"]');
}

test("two players chat at a table; lines are text, can be hidden, and stay in the replay", { timeout: 300_000 }, async () => {
  const a = await guest();
  const b = await guest();
  const tableId = await startDuel(a, b, server.url);
  await a.page.waitForSelector('[data-action="resign"]:not([hidden])');

  const html = "hello <b>there</b> <img src=x onerror=alert(1)>";
  await say(a.page, html);
  await b.page.waitForFunction(() => document.querySelectorAll(".chat .chat-line").length === 1);
  assert.deepEqual(await lines(b.page), [`${a.name}: ${html}`]);
  assert.equal(await b.page.$$eval(".chat-lines b, .chat-lines img", (els) => els.length), 0, "never HTML");
  assert.equal(await a.page.inputValue('[data-action="chat-text"]'), "", "the box empties after sending");

  await say(b.page, "good luck");
  await a.page.waitForFunction(() => document.querySelectorAll(".chat .chat-line").length === 2);
  assert.deepEqual(await lines(a.page), [`${a.name}: ${html}`, `${b.name}: good luck`]);

  // B hides A's lines, then shows them again.
  await b.page.click(`.chat-line[data-from] [data-action="chat-hide"]`);
  await b.page.waitForFunction(() => document.querySelectorAll(".chat .chat-line").length === 1);
  assert.deepEqual(await lines(b.page), [`${b.name}: good luck`]);
  await say(a.page, "can you hear me?");
  await a.page.waitForFunction(() => document.querySelectorAll(".chat .chat-line").length === 3);
  assert.deepEqual(await lines(b.page), [`${b.name}: good luck`], "hidden lines stay hidden");
  await b.page.screenshot({ path: join(RESULTS, "chat-hidden.png") });
  await b.page.click('[data-action="chat-unhide"]');
  await b.page.waitForFunction(() => document.querySelectorAll(".chat .chat-line").length === 3);

  // Too fast: the server's refusal is shown.
  for (let i = 0; i < 6; i++) await say(a.page, `spam ${i}`);
  await a.page.waitForFunction(() => [...document.querySelectorAll(".note")].some((n) => /too fast/.test(n.textContent ?? "")));

  await a.page.screenshot({ path: join(RESULTS, "chat.png") });
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);

  // After the game, the replay shows the chat.
  await b.page.click('[data-action="resign"]');
  await b.page.click('dialog.confirm [data-confirm="yes"]');
  await a.page.waitForFunction(() => !document.querySelector(".result")?.hasAttribute("hidden"), null, { timeout: 30_000 });
  await a.page.goto(`${server.url}/replay/${tableId}`);
  await a.page.waitForSelector(".replay-chat .chat-line");
  const replayed = await lines(a.page);
  assert.equal(replayed[0], `${a.name}: ${html}`);
  assert.ok(replayed.includes(`${b.name}: good luck`));
  await a.context.close();
  await b.context.close();
});
