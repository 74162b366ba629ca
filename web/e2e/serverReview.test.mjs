// An online game reviewed by the server: two guests play a few moves and one resigns;
// the server's background worker reviews the game; from the replay, the analysis board
// shows that review at once (marked as computed by the server) instead of searching in
// the browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { guestPage, launch, POINTS, playGreedyMoveByMouse, RESULTS, startDuel, waitForTurnOrEnd } from "./helpers.mjs";
import { startServer } from "./server.mjs";

let server;
let browser;
before(async () => {
  server = await startServer(["--review-workers", "1", "--review-nodes", "200000"]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("the analysis board uses the server's review of a finished online game", { timeout: 180_000 }, async () => {
  const a = await guestPage(browser, server.url);
  const b = await guestPage(browser, server.url);
  const id = await startDuel(a, b, server.url);
  const sides = [
    { p: a.page, goal: POINTS.black },
    { p: b.page, goal: POINTS.white },
  ];
  for (let ply = 0; ply < 4; ply++) {
    const { p, goal } = sides[ply % 2];
    assert.equal(await waitForTurnOrEnd(p), false);
    await playGreedyMoveByMouse(p, goal);
    await p.waitForFunction((n) => document.querySelectorAll(".move-list [data-ply]").length >= n, ply + 1, { timeout: 30_000 });
  }
  await b.page.click('[data-action="resign"]');
  await b.page.click('dialog.confirm [data-confirm="yes"]');
  await a.page.waitForFunction(() => !document.querySelector(".result")?.hasAttribute("hidden"), null, { timeout: 30_000 });

  // The worker reviews the game within seconds.
  const deadline = Date.now() + 60_000;
  let review;
  for (;;) {
    const res = await fetch(`${server.url}/api/games/${id}/review`);
    if (res.status === 200) {
      review = await res.json();
      break;
    }
    assert.ok(Date.now() < deadline, `no review: ${res.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  assert.equal(review.moves.length, 4);

  await a.page.goto(`${server.url}/replay/${id}`);
  await a.page.waitForSelector('[data-action="analyse"][href*="game="]');
  await a.page.click('[data-action="analyse"]');
  await a.page.waitForURL(/\/analysis\?/);
  await a.page.waitForSelector('[data-action="review"]');
  await a.page.click('[data-action="review"]');
  await a.page.waitForSelector('[data-review][data-source="server"]');
  await a.page.waitForFunction(() => /Computed by the server\./.test(document.querySelector("[data-review] [role=status]")?.textContent ?? ""), null, { timeout: 30_000 });
  assert.equal(await a.page.$$eval(".review-graph-svg rect[data-ply]", (r) => r.length), 4);
  await a.page.screenshot({ path: join(RESULTS, "review-server.png") });
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});
