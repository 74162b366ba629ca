// Puzzles against the built site (web/dist): a shortest finish is accepted move by
// move and raises the guest's rating; a slower move is refused; the daily puzzle opens
// from the shipped puzzle file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, noAnimation, startStatic, RESULTS } from "./helpers.mjs";

/** White finishes in two moves (h12-h13, h13-h14); h12-h11 needs four. */
const PUZZLE = {
  id: "test-40",
  position: "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39",
  moves: 2,
  rating: 1300,
  game: "test",
  ply: 40,
};

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

/** A page whose puzzle file holds only {@link PUZZLE}. */
async function puzzlePage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/puzzles.json", (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ format: "stella-puzzles/1", puzzles: [PUZZLE] }) }),
  );
  return { context, page, errors };
}

async function play(page, from, to) {
  await page.waitForSelector(`[data-hole="${from}"].movable`);
  await page.click(`[data-hole="${from}"]`);
  await page.click(`[data-hole="${to}"]`);
}

const status = (page) => page.$eval("[data-puzzle-status]", (e) => ({ state: e.getAttribute("data-state"), text: e.textContent }));

test("a puzzle accepts a shortest finish move by move", { timeout: 60_000 }, async () => {
  const { context, page, errors } = await puzzlePage();
  await page.goto(`${site.url}/puzzles/${PUZZLE.id}`);
  await page.waitForSelector("[data-puzzle-status][data-state=playing]");
  assert.match(await page.$eval("[data-task]", (e) => e.textContent), /White to move: .* in 2 moves/);
  await play(page, "h12", "h13");
  await page.waitForFunction(() => document.querySelector("[data-puzzle-status]")?.textContent === "Moves left: 1.");
  await play(page, "h13", "h14");
  await page.waitForSelector("[data-puzzle-status][data-state=solved]");
  assert.match((await status(page)).text, /Solved/);
  const rating = await page.evaluate(() => JSON.parse(localStorage.getItem("stella.puzzles")));
  assert.equal(rating.tried[PUZZLE.id], true);
  assert.ok(rating.rating.rating > 1500, JSON.stringify(rating));
  await page.screenshot({ path: join(RESULTS, "puzzle-desktop.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a puzzle refuses a slower finish and lets the player try again", { timeout: 60_000 }, async () => {
  const { context, page, errors } = await puzzlePage();
  await page.goto(`${site.url}/puzzles/${PUZZLE.id}`);
  await play(page, "h12", "h11");
  await page.waitForSelector("[data-puzzle-status][data-state=failed]");
  assert.match((await status(page)).text, /at least 4 moves/);
  const rating = await page.evaluate(() => JSON.parse(localStorage.getItem("stella.puzzles")));
  assert.equal(rating.tried[PUZZLE.id], false);
  assert.ok(rating.rating.rating < 1500);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS, "puzzle-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Trying again sets the position up again; a later success no longer changes the rating.
  await page.click('[data-action="retry"]');
  await play(page, "h12", "h13");
  await play(page, "h13", "h14");
  await page.waitForSelector("[data-puzzle-status][data-state=solved]");
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem("stella.puzzles")));
  assert.deepEqual(after, rating);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the daily puzzle opens from the shipped puzzle file", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${site.url}/puzzles`);
  await page.waitForSelector("[data-puzzle-status][data-state=playing]");
  assert.equal(await page.$eval("h1", (e) => e.textContent), "Daily puzzle");
  assert.match(await page.$eval("[data-task]", (e) => e.textContent), /in \d+ moves/);
  assert.ok((await page.$$(".hole.movable")).length > 0);
  await page.screenshot({ path: join(RESULTS, "puzzle-daily.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
