// The table as players see it, against the built site (web/dist): every move since
// your turn marked and animated, the computer seats paced, drag-and-drop, a game that
// survives reload and Back/Forward, the move list, the end of the game in four
// languages with "Play again", the home page's one-click game, one h1 and a skip link.
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

/** The moves in the move list as { ply, colour, path }. */
async function moveList(page) {
  return page.$$eval(".move-list [data-ply]", (els) =>
    els.map((e) => ({ ply: Number(e.getAttribute("data-ply")), colour: e.getAttribute("data-colour"), path: e.textContent })),
  );
}

/** Records when the move list grows and whether a marble flies, from now on. */
async function watchMoves(page) {
  await page.evaluate(() => {
    window.__moveTimes = [];
    window.__flew = 0;
    let count = document.querySelectorAll(".move-list [data-ply]").length;
    new MutationObserver(() => {
      const n = document.querySelectorAll(".move-list [data-ply]").length;
      if (n > count) window.__moveTimes.push(performance.now());
      count = n;
    }).observe(document.querySelector(".move-list"), { childList: true, subtree: true });
    new MutationObserver(() => {
      if (document.querySelector(".flyer")?.getAttribute("visibility") === "visible") window.__flew++;
    }).observe(document.querySelector(".flyer"), { attributes: true });
  });
}

test("after a 4-player round every opponent's last move is marked; the computer seats play one after another", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${site.url}/offline?players=4&humans=1&level=1`);
  await waitForTurnOrEnd(page);
  await watchMoves(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 4);
  await waitForTurnOrEnd(page);
  const moves = await moveList(page);
  assert.deepEqual(moves.map((m) => m.colour), ["white", "red", "black", "yellow"]);
  // Each opponent's move: start and end hole carry its colour, and its path is drawn above the marbles.
  for (const m of moves.slice(1)) {
    const holes = m.path.split("-");
    const [from, to] = [holes[0], holes[holes.length - 1]];
    assert.equal(await page.getAttribute(`[data-hole="${to}"]`, "data-last"), m.colour, `${m.colour} ends on ${to}`);
    assert.equal(await page.getAttribute(`[data-hole="${from}"]`, "data-last"), m.colour, `${m.colour} starts on ${from}`);
    assert.ok(await page.$(`.marks [data-colour="${m.colour}"] polyline`), `${m.colour}'s path is drawn`);
  }
  assert.equal(await page.$$eval("[data-last]", (els) => els.length), 6);
  // The live region reads out those three moves, and only them.
  const said = await page.textContent("[data-announce]");
  assert.equal(said.match(/played/g)?.length, 3, said);
  // The computer's moves were animated and came one after another, not all at once.
  const { times, flew } = await page.evaluate(() => ({ times: window.__moveTimes, flew: window.__flew }));
  assert.ok(flew >= 3, `a marble flew for each computer move (${flew})`);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  console.log(`# computer seats: gaps between moves shown ${gaps.map((g) => Math.round(g)).join(", ")} ms`);
  for (const g of gaps.slice(1)) assert.ok(g >= 300, `computer moves ${Math.round(g)} ms apart`);
  await page.screenshot({ path: join(RESULTS, "table-4-marks.png") });

  // With animation off, the next round appears without a flying marble.
  await page.uncheck("#opt-animate");
  await watchMoves(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 8);
  await waitForTurnOrEnd(page);
  assert.equal(await page.evaluate(() => window.__flew), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem("stella.animate")), "off");

  // The move list: grouped by round, each move in its colour; clicking one shows that moment.
  assert.equal(await page.$$eval(".move-list .round", (els) => els.length), 2);
  await page.click("details.moves summary");
  const before = await pieces(page);
  await page.click('.move-list [data-ply="1"]');
  await page.waitForSelector(".review:not([hidden])");
  const first = moves[0].path.split("-");
  const atOne = await pieces(page);
  assert.equal(atOne[first[first.length - 1]], "white");
  assert.equal(Object.values(atOne).filter((c) => c === "red").length, 10);
  assert.equal(await page.$(".hole.movable"), null, "no moves while looking back");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector('.move-list [data-ply="2"][aria-current]');
  await page.click('[data-action="back-to-game"]');
  await page.waitForSelector(".review[hidden]", { state: "attached" });
  assert.deepEqual(await pieces(page), before);
  assert.ok(await page.$(".hole.movable"), "the game goes on");
  // Board coordinates can be switched on.
  await page.check("#opt-coords");
  await page.waitForSelector('.coords[visibility="visible"]', { state: "attached" });
  assert.equal(await page.$$eval(".coords text", (els) => els.length), 34);
  await page.screenshot({ path: join(RESULTS, "table-4-coords.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("six players: the table with five computer seats", { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${site.url}/offline?players=6&humans=1&level=1`);
  await waitForTurnOrEnd(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 6, null, { timeout: 60_000 });
  await waitForTurnOrEnd(page);
  assert.equal(await page.$$eval("[data-last]", (els) => new Set(els.map((e) => e.getAttribute("data-last"))).size), 5);
  const m1 = await page.$eval('[data-hole="m1"]', (e) => e.getBoundingClientRect().bottom);
  assert.ok(m1 <= 768, "the own point is in view");
  await page.screenshot({ path: join(RESULTS, "table-6.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(RESULTS, "table-6-phone.png") });
  const status = await page.$eval(".status", (e) => e.getBoundingClientRect().bottom);
  assert.ok(status <= 844, `the status line is on the phone's screen (${status})`);
  await page.close();
});

test("a move by drag and drop", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector(".hole.movable");
  const centre = async (hole) => {
    const r = await page.$eval(`[data-hole="${hole}"] .pit`, (e) => e.getBoundingClientRect().toJSON());
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  };
  const from = await centre("l4");
  const to = await centre("l5");
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  assert.equal(await page.getAttribute(".flyer", "visibility"), "visible", "the marble follows the pointer");
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-hole="l5"]')?.getAttribute("data-marble") === "white");
  assert.equal((await pieces(page)).l4, undefined);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 2);
  await page.close();
});

test("the game in progress survives reload, Back/Forward and a computer move being thought about", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await noAnimation(context);
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  for (let i = 0; i < 3; i++) {
    await waitForTurnOrEnd(page);
    await playGreedyMoveByMouse(page, POINTS.black);
  }
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 6);
  await waitForTurnOrEnd(page);
  const moves = await moveList(page);
  const position = await pieces(page);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 6);
  assert.deepEqual(await moveList(page), moves);
  assert.deepEqual(await pieces(page), position);
  await page.waitForSelector(".hole.movable");
  // Away to the rules and back: the same game.
  await page.click('.main-nav a[href="/rules"]');
  await page.waitForURL(/\/rules/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 6);
  assert.deepEqual(await pieces(page), position);
  await page.goForward();
  await page.waitForURL(/\/rules/);
  await page.goBack();
  await page.waitForSelector(".hole.movable");
  // The tab closes right after the person moved, before the computer answered: a new
  // tab picks the game up and the computer answers.
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.close();
  const again = await context.newPage();
  await again.goto(`${site.url}/offline`);
  await again.click('[data-action="continue"]');
  await again.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 8, null, { timeout: 30_000 });
  await waitForTurnOrEnd(again);
  await context.close();
});

test("New game stops a level-8 search at once", { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${site.url}/offline?players=6&humans=1&level=8`);
  await waitForTurnOrEnd(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelector(".status")?.textContent?.includes("thinking"));
  const t0 = Date.now();
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 0 && document.querySelector(".hole.movable"));
  console.log(`# New game during a level-8 search at classic-6: the new board was ready after ${Date.now() - t0} ms`);
  // Undo during a search takes the person's move back at once, too.
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelector(".status")?.textContent?.includes("thinking"));
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 0 && document.querySelector(".hole.movable"));
  await page.close();
});

/** A classic-2 game one step from white's last marble arriving (white to move). */
const ALMOST_WON =
  "classic-2 white 30 white:e13,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:e9,f9,g9,h9,i9,j9,k9,l9,m9,i8 made:29,29";

test("the end screen names the winner in every language, and Play again rotates the seats", { timeout: 120_000 }, async () => {
  const expected = {
    en: ["You won!", "White brought all their marbles into the goal first."],
    it: ["Hai vinto!", "Bianco ha portato per primo tutte le sue biglie nella punta d'arrivo."],
    el: ["Κέρδισες!", "Τα Λευκά έφεραν πρώτα όλους τους βόλους τους στην κορυφή προορισμού."],
    pt: ["Você ganhou!", "As Brancas levaram primeiro todas as suas bolas à ponta de chegada."],
  };
  for (const [lang, [words, reason]] of Object.entries(expected)) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((l) => localStorage.setItem("stella.lang", l), lang);
    const page = await context.newPage();
    await page.goto(`${site.url}/offline?players=2&humans=1&level=1&position=${encodeURIComponent(ALMOST_WON)}`);
    // The marble can be picked once the engine has given the position's moves.
    await page.waitForSelector('[data-hole="e13"].movable');
    await page.click('[data-hole="e13"]');
    await page.click('[data-hole="e14"]');
    await page.waitForSelector(".result:not([hidden]) [data-headline]");
    assert.equal(await page.textContent(".result [data-headline]"), words);
    assert.equal(await page.getAttribute(".result .reason", "data-reason"), "arrived");
    assert.equal(await page.textContent(".result .reason"), reason);
    if (lang === "en") {
      await page.screenshot({ path: join(RESULTS, "end-screen.png") });
      await page.click('[data-action="play-again"]');
      await page.waitForURL(/first=1/);
      await page.waitForSelector("[data-hole][data-marble]");
      // The person now plays black, so black's point is at the bottom.
      const y = (hole) => page.$eval(`[data-hole="${hole}"]`, (e) => e.getBoundingClientRect().top);
      assert.ok((await y("e17")) > (await y("m1")));
    }
    await context.close();
  }
});

test("home: one click starts a game against the computer; one h1 per page; a skip link to the board", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(site.url);
  assert.equal(await page.$$eval("h1", (els) => els.length), 1);
  assert.equal(await page.$$eval(".home-board [data-marble]", (els) => els.length), 20);
  await page.screenshot({ path: join(RESULTS, "home.png") });
  await page.click('[data-action="play-now"]');
  await page.waitForSelector(".hole.movable");
  assert.equal(await page.$$eval("h1", (els) => els.filter((e) => !e.closest("[hidden]")).length), 1);
  // The first Tab stop inside the page is the skip link; it lands on a marble that can move.
  await page.focus("#main");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.className), "skip-link");
  await page.keyboard.press("Enter");
  const focused = await page.evaluate(() => document.activeElement?.closest("[data-hole]")?.classList.contains("movable"));
  assert.equal(focused, true);
  // Hole labels say whose point a hole is in.
  assert.match(await page.getAttribute('[data-hole="m1"]', "aria-label"), /home point/);
  assert.match(await page.getAttribute('[data-hole="e17"]', "aria-label"), /goal point/);
  assert.match(await page.getAttribute('[data-hole="a13"]', "aria-label"), /foreign point/);
  await page.close();
});
