// The bot account page on the real server: a registered player makes the account a
// bot, creates a token (shown once, copied with the button), a real `stella bot` connects
// with it (the list shows it used), and revoking it disconnects the bot for good.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { launch, noAnimation, RESULTS } from "./helpers.mjs";
import { startServer, STELLA } from "./server.mjs";

let server;
let browser;
let bot;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  if (bot?.child.exitCode === null) bot.child.kill("SIGKILL");
  await browser?.close();
  await server?.close();
});

/** Starts `stella bot` with `token`; resolves once it says it is connected. */
function startBot(token) {
  const child = spawn(STELLA, ["bot", "--url", server.url, "--token", token, "--engine", `${STELLA} engine`], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const exited = new Promise((r) => child.on("exit", (code) => r(code)));
  const connected = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not connect:\n${log}`)), 30_000);
    const onData = (chunk) => {
      log += chunk;
      if (log.includes("bot: connected")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
  });
  return { child, connected, exited, log: () => log };
}

test("a player makes a bot account, a token for it, sees it used and revokes it", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-GB" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await noAnimation(context);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/register`);
  await page.fill("#username", "robo");
  await page.fill("#password", "correct horse battery");
  await page.click('form button[type="submit"]');
  await page.waitForURL(/\/lobby$/);

  // From the account line to the bot page; the account is a person's for now.
  await page.click('[data-action="bot-page"]');
  await page.waitForSelector('[data-bot-state="person"]');
  await page.click('[data-action="become-bot"]');
  await page.click('[data-confirm="yes"]');
  await page.waitForSelector('[data-bot-state="bot"]');
  assert.equal(await page.$eval("[data-tokens]", (e) => e.getAttribute("data-tokens")), "0");

  // A label that is too long is refused by the server with what was wrong.
  await page.$eval("#token-label", (e) => e.removeAttribute("maxlength"));
  await page.fill("#token-label", "x".repeat(41));
  await page.click('[data-action="create-token"]');
  await page.waitForSelector("[data-bot-error]");
  assert.match(await page.$eval("[data-bot-error]", (e) => e.textContent), /1 to 40 characters/);

  await page.fill("#token-label", "stella engine");
  await page.click('[data-action="create-token"]');
  await page.waitForSelector("[data-token-secret]");
  const token = await page.$eval("[data-token-secret]", (e) => e.textContent);
  assert.match(token, /^stb_/);
  await page.click('[data-action="copy-token"]');
  await page.waitForSelector("[data-copied]");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
  assert.equal(await page.$eval("[data-token-label]", (e) => e.textContent), "stella engine");
  assert.equal(await page.$eval("[data-last-used]", (e) => e.textContent), "never");
  await page.screenshot({ path: join(RESULTS, "bot-tokens.png") });

  // The token works: a real bot connects with it, and the list shows it used. The
  // secret is shown once: after a reload it is gone.
  bot = startBot(token);
  await bot.connected;
  await page.reload();
  await page.waitForSelector("[data-token]");
  assert.equal(await page.$("[data-token-secret]"), null);
  assert.notEqual(await page.$eval("[data-last-used]", (e) => e.textContent), "never");

  // Revoking it ends the bot's connection, and the bot stops: the token is refused.
  await page.click('[data-action="revoke"]');
  await page.click('[data-confirm="yes"]');
  await page.waitForSelector('[data-tokens="0"]');
  const code = await Promise.race([bot.exited, new Promise((r) => setTimeout(() => r("running"), 30_000))]);
  assert.notEqual(code, 0, bot.log());
  assert.notEqual(code, "running", bot.log());
  assert.match(bot.log(), /refused the token/);

  // The page speaks the other languages too.
  await page.selectOption("#lang-switch", "pt");
  assert.equal(await page.$eval("h1", (e) => e.textContent), "Conta de bot e tokens da API");
  assert.deepEqual(errors, []);
  await context.close();
});
