// Lessons: the learner makes the move on a live board and is told whether it was right.
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

async function move(page, from, to) {
  await page.click(`[data-hole="${from}"]`);
  await page.waitForSelector(`[data-hole="${to}"][data-dest]`);
  await page.click(`[data-hole="${to}"]`);
}

const verdict = (page) =>
  page.waitForFunction(() => document.querySelector(".feedback")?.getAttribute("data-verdict") || null).then((h) => h.jsonValue());

test("the four-jump chain lesson: wrong, then right", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/learn/chain`);
  await page.waitForSelector('[data-hole="i7"].movable');
  await move(page, "i7", "g11");
  assert.equal(await verdict(page), "wrong");
  // The position is back for another try.
  await page.waitForSelector('[data-hole="i7"][data-marble="white"].movable');
  await move(page, "i7", "i13");
  await page.waitForFunction(() => document.querySelector(".feedback")?.getAttribute("data-verdict") === "right");
  // Redraws are batched to the next animation frame: wait for the marble itself.
  await page.waitForSelector('[data-hole="i13"][data-marble="white"]');
  assert.equal((await pieces(page)).i13, "white");
  await page.close();
});

test("every lesson has a live board with a right answer", { timeout: 120_000 }, async () => {
  const right = {
    goal: ["l4", "l5"],
    step: ["i9", "h9"],
    jump: ["i9", "i11"],
    chain: ["i7", "i13"],
    setups: ["l4", "l5"],
    tenth: ["h13", "h14"],
    directions: ["i9", "i7"],
    colours: ["i9", "k9"],
    optional: ["i7", "i9"],
  };
  const page = await browser.newPage();
  await page.goto(`${site.url}/learn`);
  const ids = await page.$$eval(".lesson-list a", (as) => as.map((a) => a.getAttribute("href").split("/").pop()));
  assert.deepEqual(ids, Object.keys(right));
  for (const id of ids) {
    await page.goto(`${site.url}/learn/${id}`);
    await page.waitForSelector(".hole.movable");
    await move(page, ...right[id]);
    await page.waitForFunction(() => document.querySelector(".feedback")?.getAttribute("data-verdict") === "right");
  }
  await page.close();
});
