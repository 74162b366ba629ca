// The offline app: after one visit the service worker has precached the site, and with
// the browser context offline `/offline` loads and the computer replies; the manifest
// makes Stella installable. An engine that cannot load is reported with a retry.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, startStatic, POINTS, playGreedyMoveByMouse, waitForTurnOrEnd } from "./helpers.mjs";
import { WEB } from "../scripts/tools.mjs";

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

test("installable: the manifest and a service worker that controls the page after one visit", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.url);
  const href = await page.getAttribute('link[rel="manifest"]', "href");
  assert.ok(href, "the page links a manifest");
  const manifest = await page.evaluate(async (u) => (await fetch(u)).json(), href);
  assert.ok(manifest.name && manifest.short_name);
  assert.equal(manifest.start_url, "/");
  assert.equal(manifest.display, "standalone");
  for (const size of ["192x192", "512x512"]) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.purpose !== "maskable");
    assert.ok(icon, `an icon of ${size}`);
    const type = await page.evaluate(async (u) => {
      const r = await fetch(u);
      return r.ok ? r.headers.get("content-type") : `HTTP ${r.status}`;
    }, new URL(icon.src, site.url).href);
    assert.equal(type, "image/png", `${icon.src} is served as a PNG`);
  }
  await page.waitForSelector("html[data-offline-ready]", { state: "attached", timeout: 30_000 });
  await page.reload();
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), "the service worker controls the page");
  await context.close();
});

test("a new version is announced, and the game in progress stays", { timeout: 90_000 }, async () => {
  // A copy of the site whose service worker can be changed as a deployment would.
  const dir = await mkdtemp(join(tmpdir(), "stella-site-"));
  await cp(join(WEB, "dist"), dir, { recursive: true });
  const copy = await startStatic(dir);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(copy.url);
    await page.waitForSelector("html[data-offline-ready]", { state: "attached", timeout: 30_000 });
    // A later visit: the installed version serves and controls the page.
    await page.goto(`${copy.url}/offline?players=2&humans=1&level=1`);
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null));
    await waitForTurnOrEnd(page);
    await playGreedyMoveByMouse(page, POINTS.black);
    await page.waitForFunction(() => document.querySelectorAll(".move-list [data-ply]").length === 2, null, { timeout: 30_000 });
    await page.evaluate(() => (window.stillThisPage = true));
    await appendFile(join(dir, "sw.js"), "\n// next version\n");
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    await page.waitForSelector("html[data-update-ready]", { state: "attached", timeout: 30_000 });
    assert.ok(await page.isVisible('.app-banner [data-action="update"]'), "the banner offers the new version");
    // Nothing was swapped in: same page, same game, same service worker.
    assert.ok(await page.evaluate(() => window.stillThisPage === true));
    assert.equal(await page.$$eval(".move-list [data-ply]", (e) => e.length), 2);
    assert.ok(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).waiting !== null), "the new version waits");
  } finally {
    await context.close();
    await copy.close();
    await rm(dir, { recursive: true, force: true });
  }
});
