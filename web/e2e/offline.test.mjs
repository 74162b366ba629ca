// An offline game against the computer, played by mouse to the end, and a
// pass-and-play game: both run against the built site (web/dist).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, noAnimation, startStatic, RESULTS, POINTS, pieces, playGreedyMoveByMouse, waitForTurnOrEnd } from "./helpers.mjs";

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

/** Fails the test on any page error and on any request that leaves the page's origin. */
function watch(page, origin) {
  const errors = [];
  const foreign = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) foreign.push(r.url());
  });
  return { errors, foreign };
}

test("offline game against the computer played by mouse to the end", { timeout: 600_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  const seen = watch(page, site.url);
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector("[data-hole][data-marble]");
  assert.equal(Object.keys(await pieces(page)).length, 20);
  // Network requests made after start-up: an offline game sends nothing anywhere.
  const requestsAtStart = [];
  page.on("request", (r) => requestsAtStart.push(r.url()));
  let moves = 0;
  let screenshotTaken = false;
  for (;;) {
    const over = await waitForTurnOrEnd(page, 60_000);
    if (over) break;
    await playGreedyMoveByMouse(page, POINTS.black);
    moves++;
    if (moves === 12 && !screenshotTaken) {
      await waitForTurnOrEnd(page);
      await page.screenshot({ path: join(RESULTS, "table-desktop.png") });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(RESULTS, "table-phone.png"), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      screenshotTaken = true;
    }
    assert.ok(moves < 400, "game too long");
  }
  const places = await page.$$eval(".result [data-place]", (els) => els.map((e) => [e.getAttribute("data-seat"), e.getAttribute("data-place")]));
  assert.equal(places.length, 2);
  const reason = await page.$eval(".result .reason", (e) => e.getAttribute("data-reason"));
  assert.ok(reason && reason.length > 0);
  // The end screen says how it went for the person, in words.
  const headline = await page.$eval(".result [data-headline]", (e) => e.textContent);
  assert.match(headline, /^(You won!|You finished 2nd of 2\.|Draw\.)$/);
  await page.screenshot({ path: join(RESULTS, "table-finished.png") });
  // The record for this setup counts the game.
  const record = await page.evaluate(() =>
    Object.entries(localStorage).filter(([k]) => k.startsWith("stella.record.")).map(([, v]) => JSON.parse(v)),
  );
  assert.equal(record.length, 1);
  assert.equal(record[0].wins + record[0].losses + record[0].draws, 1);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  assert.deepEqual(requestsAtStart.filter((u) => !u.startsWith("blob:") && !u.startsWith("data:")), []);
  await context.close();
});

test("undo takes back the person's move and the computer's reply", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await waitForTurnOrEnd(page);
  const start = await pieces(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 2);
  await waitForTurnOrEnd(page);
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 0);
  assert.deepEqual(await pieces(page), start);
  await page.close();
});

test("pass-and-play game: two people at one screen, each sees their point at the bottom", { timeout: 600_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await noAnimation(page);
  const seen = watch(page, site.url);
  await page.goto(`${site.url}/offline?players=2&humans=2`);
  await page.waitForSelector(".hole.movable");
  assert.equal(await page.$('[data-action="undo"]'), null, "no undo without the computer");
  const yOf = (hole) => page.$eval(`[data-hole="${hole}"]`, (e) => e.getBoundingClientRect().top);
  let moves = 0;
  for (;;) {
    const over = await waitForTurnOrEnd(page);
    if (over) break;
    const toMove = await page.$eval(".player.to-move", (e) => e.getAttribute("data-seat"));
    // The mover's home tip is drawn below the opposite tip.
    const [home, away] = toMove === "white" ? ["m1", "e17"] : ["e17", "m1"];
    assert.ok((await yOf(home)) > (await yOf(away)), `${toMove}'s point is at the bottom`);
    await playGreedyMoveByMouse(page, toMove === "white" ? POINTS.black : POINTS.white);
    moves++;
    assert.ok(moves < 600, "game too long");
  }
  const places = await page.$$eval(".result [data-place]", (els) => els.length);
  assert.equal(places, 2);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});
