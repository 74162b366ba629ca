// A move that would eliminate its player asks for confirmation first (docs/rules.md §5):
// after the home-leaving deadline, going back home eliminates.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, startStatic, pieces, playGreedyMoveByMouse, POINTS } from "./helpers.mjs";

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

// White has made its 30 moves; l5 may step back into white's home on l4, which
// eliminates white.
const POSITION = "classic-2 white 31 white:i9,l5 black:e17,e16 made:30,30";

test("an eliminating move asks first; cancel keeps the position, confirm plays it", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=2&position=${encodeURIComponent(POSITION)}`);
  await page.waitForSelector('[data-hole="l5"].movable');
  await page.click('[data-hole="l5"]');
  await page.waitForSelector('[data-hole="l4"][data-dest].eliminates');
  assert.equal(await page.$('[data-hole="l6"][data-dest].eliminates'), null, "a move that stays out of home is not flagged");
  await page.click('[data-hole="l4"]');
  await page.waitForSelector("dialog.confirm[open]");
  await page.click('dialog.confirm [data-confirm="no"]');
  await page.waitForSelector("dialog.confirm", { state: "detached" });
  assert.equal((await pieces(page)).l5, "white");
  // Again, and confirm: white is eliminated and the game is over.
  await page.waitForSelector('[data-hole="l5"].movable');
  await page.click('[data-hole="l5"]');
  await page.click('[data-hole="l4"]');
  await page.click('dialog.confirm [data-confirm="yes"]');
  await page.waitForSelector(".result:not([hidden])");
  assert.equal(await page.$eval(".result .reason", (e) => e.getAttribute("data-reason")), "eliminated");
  const places = await page.$$eval(".result [data-place]", (els) => els.map((e) => [e.getAttribute("data-seat"), e.getAttribute("data-place")]));
  assert.deepEqual(places, [["black", "1"], ["white", "2"]]);
  await page.close();
});

// White's last marble is walled in on l5 except for the two holes of its home behind
// it; both moves eliminate white.
const WALLED = "classic-2 white 31 white:l5 black:k5,m5,l6,k6,j5,n5,l7,j7 made:30,30";

test("the greedy mouse player of the other tests declines eliminating moves and confirms one when nothing else is left", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=2&position=${encodeURIComponent(WALLED)}`);
  await page.waitForSelector('[data-hole="l5"].movable');
  const asked = [];
  await page.exposeFunction("noteQuestion", (q) => asked.push(q));
  await page.evaluate(() => {
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n.matches?.("dialog.confirm")) window.noteQuestion(n.getAttribute("aria-label"));
    }).observe(document.body, { childList: true });
  });
  const [from, to] = await playGreedyMoveByMouse(page, POINTS.black);
  assert.equal(from, "l5");
  assert.ok(["l4", "m4"].includes(to));
  assert.equal(asked.length, 3, "asked for both moves, declined both, then asked again and confirmed");
  await page.waitForSelector(".result:not([hidden])");
  assert.equal(await page.$eval(".result .reason", (e) => e.getAttribute("data-reason")), "eliminated");
  assert.equal(await page.$("dialog.confirm"), null, "no question left open");
  await page.close();
});

// After the deadline m1 is still at home: it was excused there (walled in), so it may
// move inside its home on its way out without eliminating white, and nothing is asked.
const EXCUSED = "classic-2 white 31 white:m1,i9 black:l2,k3,m3,e17 made:30,30";

test("an excused marble moves inside its home without a question and without elimination", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=2&position=${encodeURIComponent(EXCUSED)}`);
  await page.waitForSelector('[data-hole="m1"].movable');
  await page.click('[data-hole="m1"]');
  await page.waitForSelector('[data-hole="m2"][data-dest]');
  assert.equal(await page.$('[data-hole="m2"][data-dest].eliminates'), null, "the move inside the home is not flagged");
  await page.click('[data-hole="m2"]');
  // Black is to move now: the move was played at once, no question asked.
  await page.waitForFunction(() => document.querySelector('[data-hole="m2"]')?.getAttribute("data-marble") === "white");
  assert.equal(await page.$("dialog.confirm"), null, "no question asked");
  assert.equal((await pieces(page)).m1, undefined);
  assert.ok(await page.$eval(".result", (r) => r.hasAttribute("hidden")), "the game goes on");
  await page.waitForSelector('[data-hole="e17"].movable');
  await page.close();
});
