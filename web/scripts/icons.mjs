// Draws the app icons (web/public/icons/*.png) from the star of the favicon with
// headless Chromium: run `node scripts/icons.mjs` after changing the drawing.
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ensureChromium, WEB } from "./tools.mjs";

/** The icon as SVG: a gold star on the dark header colour; `pad` leaves the maskable safe zone. */
function svg(pad) {
  const s = 1 - 2 * pad;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="100%" height="100%">
    <rect width="10" height="10" fill="#2b2a26"/>
    <g transform="translate(${10 * pad} ${10 * pad}) scale(${s})">
      <path d="M5 0.6l1.3 3H9.6L7 5.5l0.9 3.9L5 7.3 2.1 9.4 3 5.5 0.4 3.6h3.3z" fill="#c9a227"/>
    </g></svg>`;
}

const browser = await chromium.launch({ executablePath: ensureChromium(), args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (const [name, size, pad] of [["icon-192.png", 192, 0.08], ["icon-512.png", 512, 0.08], ["maskable-512.png", 512, 0.2]]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0">${svg(pad)}</body></html>`);
  await page.screenshot({ path: join(WEB, "public", "icons", name) });
  await page.close();
}
await browser.close();
