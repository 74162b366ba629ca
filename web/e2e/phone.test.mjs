// A phone in portrait: the whole star fits the width, and a move is made by tapping
// near (not exactly on) the holes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, startStatic, pieces, RESULTS } from "./helpers.mjs";

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

test("phone: the board fits and a move is made by taps", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector(".hole.movable");
  const board = await page.$eval(".board", (e) => e.getBoundingClientRect().toJSON());
  assert.ok(board.left >= 0 && board.right <= 390, "the board fits the width");
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= 390, "no sideways scrolling");
  // Tap a little off the centre of each hole.
  const tapNear = async (hole) => {
    const r = await page.$eval(`[data-hole="${hole}"] .pit`, (e) => e.getBoundingClientRect().toJSON());
    await page.touchscreen.tap(r.x + r.width / 2 + r.width * 0.7, r.y + r.height / 2);
  };
  await tapNear("l4");
  await page.waitForSelector('[data-hole="l4"].selected');
  await tapNear("l5");
  await page.waitForFunction(() => document.querySelector('[data-hole="l5"]')?.getAttribute("data-marble") === "white");
  assert.equal((await pieces(page)).l4, undefined);
  await page.screenshot({ path: join(RESULTS, "phone-after-tap.png") });
  await context.close();
});
