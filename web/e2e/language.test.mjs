// The language: picked from the browser, switchable, remembered.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, startStatic } from "./helpers.mjs";

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

const navText = (page) => page.$eval('.main-nav a[href="/rules"]', (e) => e.textContent);

test("language switch: browser language, switch, remembered after reload", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ locale: "el-GR" });
  const page = await context.newPage();
  await page.goto(`${site.url}/offline?players=2&humans=1&level=1`);
  await page.waitForSelector(".player");
  assert.equal(await page.getAttribute("html", "lang"), "el");
  assert.equal(await navText(page), "Κανόνες");
  assert.match(await page.$eval(".player .arrived", (e) => e.textContent), /^0 από 10 έφτασαν$/);
  // Switch to Italian during a game: the table relabels and the game goes on.
  await page.selectOption("#lang-switch", "it");
  assert.equal(await page.getAttribute("html", "lang"), "it");
  assert.equal(await navText(page), "Regole");
  assert.match(await page.$eval(".player .arrived", (e) => e.textContent), /^0 su 10 arrivate$/);
  assert.match(await page.$eval('[data-hole="m1"]', (e) => e.getAttribute("aria-label")), /^m1, biglia Bianco, punta di casa$/);
  await page.reload();
  await page.waitForSelector(".player");
  assert.equal(await navText(page), "Regole");
  await page.selectOption("#lang-switch", "pt");
  assert.equal(await navText(page), "Regras");
  await page.selectOption("#lang-switch", "en");
  assert.equal(await navText(page), "Rules");
  await context.close();
});

test("rules page in every language", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/rules`);
  for (const [lang, word] of [["it", "Termine per uscire di casa"], ["el", "Προθεσμία εξόδου"], ["pt", "Prazo para sair de casa"]]) {
    await page.selectOption("#lang-switch", lang);
    assert.ok((await page.textContent(".rules")).includes(word), `${lang} rules`);
  }
  await page.selectOption("#lang-switch", "en");
  assert.ok((await page.textContent(".rules")).includes("m1"));
  await page.close();
});
