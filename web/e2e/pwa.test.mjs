// The offline app: after one visit the service worker has precached the site, and with
// the browser context offline `/offline` loads and the computer replies; the manifest
// makes Stella installable. An engine that cannot load is reported with a retry.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, startStatic, POINTS, playGreedyMoveByMouse, waitForTurnOrEnd } from "./helpers.mjs";

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

test("after one visit, offline: /offline loads and the computer replies", { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(site.url);
  // The service worker is active once every precached file is stored.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForSelector("html[data-offline-ready]", { state: "attached", timeout: 30_000 });
  const href = await page.getAttribute('link[rel="manifest"]', "href");
  const manifest = await page.evaluate(async (u) => (await fetch(u)).json(), href);
  assert.equal(manifest.display, "standalone");
  assert.ok(manifest.icons.some((i) => i.sizes === "512x512"));
  assert.ok(manifest.icons.some((i) => i.sizes === "192x192"));

  await context.setOffline(true);
  await page.goto(`${site.url}/offline?players=2&humans=1&level=2`);
  await waitForTurnOrEnd(page);
  await playGreedyMoveByMouse(page, POINTS.black);
  await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 2, null, { timeout: 30_000 });
  await waitForTurnOrEnd(page);
  // The rules and a lesson come from the cache too.
  await page.goto(`${site.url}/rules`);
  await page.waitForSelector("h1");
  assert.ok((await page.textContent("main")).length > 500);
  await page.goto(`${site.url}/learn/step`);
  await page.waitForSelector(".lesson [data-hole]");
  await context.setOffline(false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("an engine that cannot load is reported, with a retry that recovers", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  await context.route("**/*.wasm", (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector("[data-engine-failed]");
  assert.match(await page.textContent("[data-engine-failed]"), /could not be loaded/);
  await context.unroute("**/*.wasm");
  await page.click('[data-action="retry"]');
  await page.waitForSelector(".hole.movable");
  await context.close();
});
