// One move made with the keyboard only: Tab to a marble that can move, Enter, Tab to
// a marked hole (its path is drawn), Enter. Also the arrow keys and Esc.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, startStatic, pieces } from "./helpers.mjs";

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

const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-hole") ?? null);

test("one move made by keyboard only", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector(".hole.movable");
  const before = await pieces(page);
  // Tab until a movable marble has the focus.
  let hole = null;
  for (let i = 0; i < 40 && !hole; i++) {
    await page.keyboard.press("Tab");
    const h = await focused(page);
    if (h && (await page.$(`[data-hole="${h}"].movable`))) hole = h;
  }
  assert.ok(hole, "Tab reached a movable marble");
  await page.keyboard.press("Enter");
  await page.waitForSelector(`[data-hole="${hole}"].selected`);
  assert.equal(await page.$eval(`[data-hole="${hole}"]`, (e) => e.getAttribute("aria-pressed")), "true");
  // Esc puts it down, Enter picks it up again.
  await page.keyboard.press("Escape");
  await page.waitForSelector(`[data-hole="${hole}"]:not(.selected)`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`[data-hole="${hole}"].selected`);
  // Tab on to a marked hole: its path is drawn.
  let dest = null;
  for (let i = 0; i < 40 && !dest; i++) {
    await page.keyboard.press("Tab");
    const h = await focused(page);
    if (h && (await page.$(`[data-hole="${h}"][data-dest]`))) dest = h;
  }
  assert.ok(dest, "Tab reached a marked hole");
  const path = await page.$eval(".preview-path", (e) => e.getAttribute("points"));
  assert.ok(path && path.split(" ").length >= 2, "the path is drawn");
  const label = await page.$eval(`[data-hole="${dest}"]`, (e) => e.getAttribute("aria-label"));
  assert.match(label, new RegExp(`^${dest}, empty, destination$`));
  await page.keyboard.press("Enter");
  await page.waitForFunction((d) => document.querySelector(`[data-hole="${d}"]`)?.getAttribute("data-marble") === "white", dest);
  // The computer answers, its marble flying off the board while the move is shown:
  // count the marbles once white may move again.
  await page.waitForSelector(".hole.movable");
  const after = await pieces(page);
  assert.equal(after[hole], undefined);
  assert.equal(after[dest], "white");
  assert.equal(Object.keys(after).length, Object.keys(before).length);
  await page.close();
});

test("arrow keys move the cursor between holes on screen", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=2`);
  await page.waitForSelector(".hole.movable");
  await page.focus('[data-hole="i9"]');
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(page), "j9");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await focused(page), "h9");
  // Down from the centre towards white's point, then Enter picks up a marble there.
  await page.focus('[data-hole="l5"]');
  await page.keyboard.press("ArrowDown");
  const below = await focused(page);
  assert.ok(["l4", "m4"].includes(below), `moved down to ${below}`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(`[data-hole="${below}"].selected`);
  await page.close();
});
