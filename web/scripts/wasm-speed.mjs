// Times the computer's tree search in the browser's wasm build (the wasm-bindgen
// package of crates/wasm) at a fixed amount of work, the WebAssembly counterpart of
// `crates/lab/examples/level_speed.rs --budget-only`, over the same positions: from the
// start of VARIANT, level 4 plays the game on (seed 7 + ply), and at every STEP-th ply
// the level's tree search (`treeSearch`, the race solver skipped) chooses a move (seed
// 99 + ply) with the game's history, COUNT times from ply FIRST on. The browser's clock
// (`performance.now`, which the search reads for its time cap) is frozen for the run, so
// every search runs to its work budget (`levelTreeIterations`), or to the point where its
// choice is decided, and chooses the same move on every build and machine.
//
// Each search's CPU time is that of the thread running it: in headless Chromium (the
// default; the page's main thread, `ThreadTime` of the DevTools Performance domain) or
// in Node with `--node` (`/proc/thread-self/schedstat`, Linux). Printed per search: the
// move chosen (so that two builds can be checked to play alike), the iterations run, CPU
// and wall time, and the iterations per second of CPU; then the medians.
//
//   node scripts/wasm-speed.mjs [--node] [--pkg DIR] [--level L] VARIANT [STEP] [COUNT] [FIRST]
//
// (defaults: level 8, every 12th ply, 5 positions, from ply 0; DIR defaults to
// src/wasm-pkg, the package `npm run build:wasm` writes.) Only variants of three or
// more units: at two, the level searches by alpha-beta, not by a tree of iterations.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { WEB } from "./tools.mjs";

/** Most positions one run may time. */
const MAX_COUNT = 100;

/** The command line, checked; throws naming what is wrong. */
export function parseArgs(argv) {
  const opts = { node: false, pkg: join(WEB, "src", "wasm-pkg"), level: 8 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--node") opts.node = true;
    else if (a === "--pkg") opts.pkg = resolve(value());
    else if (a === "--level") opts.level = positiveInt(a, value());
    else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length < 1 || rest.length > 4) {
    throw new Error("usage: wasm-speed.mjs [--node] [--pkg DIR] [--level L] VARIANT [STEP] [COUNT] [FIRST]");
  }
  opts.variant = rest[0];
  opts.step = rest[1] === undefined ? 12 : positiveInt("STEP", rest[1]);
  opts.count = rest[2] === undefined ? 5 : positiveInt("COUNT", rest[2]);
  opts.first = rest[3] === undefined ? 0 : nonNegativeInt("FIRST", rest[3]);
  if (opts.count > MAX_COUNT) throw new Error(`COUNT ${opts.count} is above ${MAX_COUNT}`);
  if (opts.level > 8) throw new Error(`--level ${opts.level} is above 8`);
  return opts;
}

function nonNegativeInt(name, s) {
  if (!/^\d{1,9}$/.test(s)) throw new Error(`${name} must be a whole number, not ${JSON.stringify(s)}`);
  return Number(s);
}

function positiveInt(name, s) {
  const n = nonNegativeInt(name, s);
  if (n === 0) throw new Error(`${name} must be at least 1`);
  return n;
}

/**
 * The benchmark's game, run where the wasm package is loaded (Node, or the page, where
 * it is sent as text, so it is self-contained): `start` freezes the clock, opens the
 * game and answers the level's tree budget; `advance` lets level 4 play on to the next
 * ply to time; `search` lets the level under test choose there, checks that its move is
 * legal, and the game goes on with level 4's move.
 */
function driver(pkg) {
  let game;
  let ply = 0;
  const view = () => JSON.parse(game.view());
  return {
    start(variant, level) {
      performance.now = () => 0;
      const iterations = pkg.levelTreeIterations(level, variant);
      game = new pkg.WasmGame(variant);
      ply = 0;
      return iterations;
    },
    advance(step, first) {
      while (view().outcome == null) {
        if (ply % step === 0 && ply >= first) return ply;
        game.play(game.bestMove(4, BigInt(7 + ply)));
        ply += 1;
      }
      return -1;
    },
    search(level) {
      const found = JSON.parse(game.treeSearch(level, BigInt(99 + ply)));
      if (!view().legal.some((m) => m.path.join("-") === found.path)) throw new Error(`ply ${ply}: ${found.path} is not a legal move`);
      game.play(game.bestMove(4, BigInt(7 + ply)));
      ply += 1;
      return found;
    },
  };
}

/** CPU time of the calling thread in ms (Linux). */
function threadCpuMs() {
  const ns = Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(/\s+/)[0]);
  return ns / 1e6;
}

/** The searches run in Node. */
async function inNode(opts, report) {
  const pkg = await import(pathToFileURL(join(opts.pkg, "stella_wasm.js")).href);
  pkg.initSync({ module: readFileSync(join(opts.pkg, "stella_wasm_bg.wasm")) });
  const d = driver(pkg);
  const iterations = d.start(opts.variant, opts.level);
  return timeAll(opts, iterations, report, {
    advance: async () => d.advance(opts.step, opts.first),
    search: async () => d.search(opts.level),
    cpu: async () => threadCpuMs(),
  });
}

/** The searches run on the main thread of a page in `browser` (playwright-core). */
async function inChromium(opts, report, browser) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const origin = "http://wasm-speed.invalid";
    await page.route(`${origin}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === "") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>wasm speed</title>" });
      if (!["stella_wasm.js", "stella_wasm_bg.wasm"].includes(name)) return route.fulfill({ status: 404 });
      const type = name.endsWith(".js") ? "text/javascript" : "application/wasm";
      return route.fulfill({ contentType: type, body: readFileSync(join(opts.pkg, name)) });
    });
    await page.goto(`${origin}/`);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const iterations = await page.evaluate(
      async ({ src, variant, level }) => {
        const pkg = await import("/stella_wasm.js");
        await pkg.default();
        globalThis.bench = (0, eval)(`(${src})`)(pkg);
        return globalThis.bench.start(variant, level);
      },
      { src: driver.toString(), variant: opts.variant, level: opts.level },
    );
    const cpu = async () => {
      const { metrics } = await cdp.send("Performance.getMetrics");
      const t = metrics.find((m) => m.name === "ThreadTime");
      if (!t) throw new Error("Chromium reports no ThreadTime metric");
      return t.value * 1000;
    };
    return await timeAll(opts, iterations, report, {
      advance: () => page.evaluate(([s, f]) => globalThis.bench.advance(s, f), [opts.step, opts.first]),
      search: () => page.evaluate((l) => globalThis.bench.search(l), opts.level),
      cpu,
    });
  } finally {
    await context.close();
  }
}

/** Times the searches through `ops`; see {@link timeSearches}. */
async function timeAll(opts, iterations, report, ops) {
  const rows = [];
  while (rows.length < opts.count) {
    const ply = await ops.advance();
    if (ply < 0) break;
    const wall0 = process.hrtime.bigint();
    const cpu0 = await ops.cpu();
    const found = await ops.search();
    const cpuMs = (await ops.cpu()) - cpu0;
    const wallMs = Number(process.hrtime.bigint() - wall0) / 1e6;
    const row = { ply, path: found.path, iterations: found.iterations, cpuMs, wallMs, perSecond: (found.iterations * 1000) / cpuMs };
    report?.(row);
    rows.push(row);
  }
  if (rows.length === 0) throw new Error(`no position to time: the game ended before ply ${opts.first}`);
  return { iterations, rows };
}

/** The median of a non-empty list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Times the searches `opts` describes (as {@link parseArgs} returns them; `browser`, a
 * playwright-core Chromium, runs them in a page, otherwise Node does). Answers the
 * level's tree budget and one row a search, `{ ply, path, iterations, cpuMs, wallMs,
 * perSecond }` (`iterations`: those the search ran; `perSecond`: iterations per second
 * of CPU); calls `report` with each row as it
 * comes.
 */
export async function timeSearches(opts, { browser, report } = {}) {
  if (opts.node) return inNode(opts, report);
  if (browser) return inChromium(opts, report, browser);
  const { launch } = await import("../e2e/helpers.mjs");
  const own = await launch();
  try {
    return await inChromium(opts, report, own);
  } finally {
    await own.close();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const where = opts.node ? `Node ${process.version}` : "headless Chromium";
  console.log(`# ${opts.variant} level ${opts.level}, ${where}, ${opts.pkg}`);
  const { iterations, rows } = await timeSearches(opts, {
    report: (r) =>
      console.log(
        `ply ${r.ply}: ${r.path}  ${r.iterations} iterations, CPU ${r.cpuMs.toFixed(1)} ms, wall ${r.wallMs.toFixed(0)} ms, ${Math.round(r.perSecond)} iterations/s`,
      ),
  });
  const cpu = median(rows.map((r) => r.cpuMs));
  console.log(
    `${opts.variant} level ${opts.level}: ${rows.length} moves, budget ${iterations} iterations, median CPU ${cpu.toFixed(1)} ms, ` +
      `median wall ${median(rows.map((r) => r.wallMs)).toFixed(0)} ms, median ${Math.round(median(rows.map((r) => r.perSecond)))} iterations/s`,
  );
  console.log(`moves: ${rows.map((r) => r.path).join(" ")}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e) => {
    console.error(e.message.split("\n")[0]);
    process.exit(1);
  });
}
