// A phone in portrait: the whole star fits the width; a first tap magnifies the board
// around the tapped spot so that holes lie at least 40 px apart, and a move is then made
// by tapping near (not exactly on) the holes.
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
  const centre = (hole) =>
    page.$eval(`[data-hole="${hole}"] .pit`, (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width };
    });
  const spacing = async () => {
    const [a, b] = [await centre("l4"), await centre("l5")];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const settled = () => page.waitForTimeout(400); // the zoom animation takes 180 ms
  assert.ok((await spacing()) < 40, "unzoomed, the holes are too close for a finger");
  // Tap a little off the centre of each hole.
  const tapNear = async (hole) => {
    const c = await centre(hole);
    await page.touchscreen.tap(c.x + c.w * 0.7, c.y);
  };
  // The first tap only magnifies: nothing is picked up.
  await tapNear("l4");
  await page.waitForSelector(".board.zoomed");
  await settled();
  assert.equal(await page.$$eval(".hole.selected", (e) => e.length), 0);
  const zoomed = await spacing();
  assert.ok(zoomed >= 40, `zoomed, holes are ${zoomed.toFixed(1)} px apart`);
  assert.ok(await page.isVisible(".board-unzoom"), "a button leads back to the whole board");
  // A tap outside the board shows the whole board again.
  await page.touchscreen.tap(195, 830);
  await page.waitForSelector(".board:not(.zoomed)");
  await settled();
  assert.ok((await spacing()) < 40);
  assert.ok(!(await page.isVisible(".board-unzoom")));
  // Zoom again, pick up and play with taps.
  await tapNear("l4");
  await page.waitForSelector(".board.zoomed");
  await settled();
  await tapNear("l4");
  await page.waitForSelector('[data-hole="l4"].selected');
  await page.screenshot({ path: join(RESULTS, "phone-zoomed.png") });
  await tapNear("l5");
  await page.waitForFunction(() => document.querySelector('[data-hole="l5"]')?.getAttribute("data-marble") === "white");
  assert.equal((await pieces(page)).l4, undefined);
  // Playing the move shows the whole board again.
  await page.waitForSelector(".board:not(.zoomed)");
  await page.screenshot({ path: join(RESULTS, "phone-after-tap.png") });
  await context.close();
});

test("phone: the whole-board button zooms out, and a mouse never zooms", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector(".hole.movable");
  const at = await page.$eval('[data-hole="i9"] .pit', (e) => e.getBoundingClientRect().toJSON());
  await page.touchscreen.tap(at.x + at.width / 2, at.y + at.height / 2);
  await page.waitForSelector(".board.zoomed");
  await page.tap(".board-unzoom");
  await page.waitForSelector(".board:not(.zoomed)");
  await page.waitForTimeout(400);
  // A mouse click on the same small board picks the marble up at once.
  const l4 = await page.$eval('[data-hole="l4"] .pit', (e) => e.getBoundingClientRect().toJSON());
  await page.mouse.click(l4.x + l4.width / 2, l4.y + l4.height / 2);
  await page.waitForSelector('[data-hole="l4"].selected');
  assert.equal(await page.$$eval(".board.zoomed", (e) => e.length), 0);
  await context.close();
});
