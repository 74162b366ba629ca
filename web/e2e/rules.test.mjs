// The rules page for players: the same sections and board diagrams in English,
// Italian, Greek and Portuguese, and no engine internals.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch, startStatic, RESULTS } from "./helpers.mjs";

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

/** What the rules page shows: title, sections, and each diagram with its marbles and moves. */
async function rulesOnPage(page) {
  return page.evaluate(() => ({
    h1: [...document.querySelectorAll("h1")].map((e) => e.textContent),
    sections: [...document.querySelectorAll(".rules section")].map((s) => s.getAttribute("data-section")),
    figures: [...document.querySelectorAll(".rules figure")].map((f) => {
      const svg = f.querySelector("svg[data-diagram]");
      const box = svg?.getBoundingClientRect();
      return {
        diagram: svg?.getAttribute("data-diagram"),
        label: svg?.getAttribute("aria-label"),
        caption: f.querySelector("figcaption")?.textContent,
        marbles: svg ? svg.querySelectorAll("[data-marble]").length : 0,
        moves: svg ? svg.querySelectorAll("[data-move]").length : 0,
        width: box?.width ?? 0,
        height: box?.height ?? 0,
      };
    }),
    text: document.querySelector(".rules")?.textContent ?? "",
  }));
}

test("the rules page renders in all four languages with the same diagrams", { timeout: 90_000 }, async () => {
  mkdirSync(RESULTS, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/rules`);
  await page.waitForSelector(".rules figure svg[data-diagram]");
  const seen = {};
  for (const [lang, deadline] of [
    ["en", "The home-leaving deadline"],
    ["it", "Termine per uscire di casa"],
    ["el", "Προθεσμία εξόδου"],
    ["pt", "Prazo para sair de casa"],
  ]) {
    await page.selectOption("#lang-switch", lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    const r = await rulesOnPage(page);
    seen[lang] = r;
    assert.equal(r.h1.length, 1, `${lang}: one h1`);
    assert.ok(r.text.includes(deadline), `${lang}: the deadline section`);
    assert.ok(r.figures.length >= 12, `${lang}: ${r.figures.length} diagrams`);
    for (const f of r.figures) {
      assert.ok(f.label && f.label === f.caption, `${lang} ${f.diagram}: the picture is named by its caption`);
      assert.ok(f.width > 100 && f.height > 60, `${lang} ${f.diagram}: drawn at a visible size (${f.width}×${f.height})`);
    }
    for (const word of ["axial", "canonical", "docs/rules", "§"]) assert.ok(!r.text.includes(word), `${lang}: no "${word}"`);
    await page.screenshot({ path: join(RESULTS, `rules-${lang}.png`), fullPage: true });
  }
  // The same sections and the same pictures, with the same marbles and moves, in every language.
  const shape = (r) => ({ sections: r.sections, figures: r.figures.map((f) => [f.diagram, f.marbles, f.moves]) });
  for (const lang of ["it", "el", "pt"]) assert.deepEqual(shape(seen[lang]), shape(seen.en), lang);
  const byId = Object.fromEntries(seen.en.figures.map((f) => [f.diagram, f]));
  assert.equal(byId.start.marbles, 20, "the two-player start shows both homes");
  assert.equal(byId.step.moves, 6, "a step to each of six neighbours");
  assert.equal(byId.chain.moves, 1);
  for (const id of ["board", "step", "jump", "chain", "foreign", "walled", "afterDeadline", "arrival", "long", "symmetric"]) {
    assert.ok(byId[id], `the ${id} diagram is shown`);
  }
  await page.close();
});

test("the rules page fits a phone", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${site.url}/rules`);
  await page.waitForSelector(".rules figure svg[data-diagram]");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px)`);
  await page.screenshot({ path: join(RESULTS, "rules-phone.png"), fullPage: true });
  await page.close();
});
