// Times the computer's tree search in the browser's wasm build (the wasm-bindgen
// package of crates/wasm) at a fixed amount of work, the WebAssembly counterpart of
// `crates/lab/examples/level_speed.rs --budget-only`, over the same positions: from the
// start of VARIANT, level 4 plays the game on (seed 7 + ply), and at every STEP-th ply
// the level under test chooses a move (seed 99 + ply) with the game's history, COUNT
// times from ply FIRST on. The browser's clock (`performance.now`, which the search
// reads for its time cap) is frozen for the run, so every search does its whole work
// budget and chooses the same move on every build and machine.
//
// Each search's CPU time is that of the thread running it: in headless Chromium (the
// default; the page's main thread, `ThreadTime` of the DevTools Performance domain) or
// in Node with `--node` (`/proc/thread-self/schedstat`). With `--iterations N` (the
// level's tree budget at this table size, crates/ai/src/levels.rs) it also prints the
// iterations completed per second of CPU. The chosen moves are printed so that two
// builds can be checked to play alike.
//
//   node scripts/wasm-speed.mjs [--node] [--pkg DIR] [--level L] [--iterations N] VARIANT [STEP] [COUNT] [FIRST]
//
// (defaults: level 8, every 12th ply, 5 positions, from ply 0; DIR defaults to
// src/wasm-pkg, the package `npm run build:wasm` writes.)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { WEB } from "./tools.mjs";

/** The command line, checked; throws naming what is wrong. */
function parseArgs(argv) {
  const opts = { node: false, pkg: join(WEB, "src", "wasm-pkg"), level: 8, iterations: null };
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
    else if (a === "--iterations") opts.iterations = positiveInt(a, value());
    else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length < 1 || rest.length > 4) {
    throw new Error("usage: wasm-speed.mjs [--node] [--pkg DIR] [--level L] [--iterations N] VARIANT [STEP] [COUNT] [FIRST]");
  }
  opts.variant = rest[0];
  opts.step = rest[1] === undefined ? 12 : positiveInt("STEP", rest[1]);
  opts.count = rest[2] === undefined ? 5 : positiveInt("COUNT", rest[2]);
  opts.first = rest[3] === undefined ? 0 : nonNegativeInt("FIRST", rest[3]);
  if (opts.count > 100) throw new Error(`COUNT ${opts.count} is above 100`);
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
 * it is passed as source): `start` freezes the clock and opens the game, `advance` lets
 * level 4 play on to the next ply to time, `search` lets the level under test choose
 * there. Self-contained, since it is sent to the page as text.
 */
function driver(pkg) {
  let game;
  let ply = 0;
  const over = () => JSON.parse(game.view()).outcome != null;
  return {
    start(variant) {
      performance.now = () => 0;
      game = new pkg.WasmGame(variant);
      ply = 0;
    },
    /** Plays on to the next ply to time (a multiple of `step`, at least `first`); its number, or -1 at the end. */
    advance(step, first) {
      while (!over()) {
        if (ply % step === 0 && ply >= first) return ply;
        game.play(game.bestMove(4, BigInt(7 + ply)));
        ply += 1;
      }
      return -1;
    },
    /** The level's move at the current ply; the game then goes on with level 4's. */
    search(level) {
      const path = game.bestMove(level, BigInt(99 + ply));
      game.play(game.bestMove(4, BigInt(7 + ply)));
      ply += 1;
      return path;
    },
  };
}

/** CPU time of the calling thread in ms (Linux). */
function threadCpuMs() {
  const ns = Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(/\s+/)[0]);
  return ns / 1e6;
}

/** Runs the searches in Node; calls `report` with each. */
async function inNode(opts, report) {
  const pkg = await import(pathToFileURL(join(opts.pkg, "stella_wasm.js")).href);
  pkg.initSync({ module: readFileSync(join(opts.pkg, "stella_wasm_bg.wasm")) });
  const d = driver(pkg);
  d.start(opts.variant);
  return timeAll(opts, report, {
    advance: async () => d.advance(opts.step, opts.first),
    search: async () => d.search(opts.level),
    cpu: async () => threadCpuMs(),
  });
}

/** Runs the searches on the main thread of a headless Chromium page; calls `report` with each. */
async function inChromium(opts, report) {
  const { launch } = await import("../e2e/helpers.mjs");
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const origin = "http://wasm-speed.invalid";
    await page.route(`${origin}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === "") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>wasm speed</title>" });
      if (!["stella_wasm.js", "stella_wasm_bg.wasm"].includes(name)) return route.fulfill({ status: 404 });
      const type = name.endsWith(".js") ? "text/javascript" : "application/wasm";
      return route.fulfill({ contentType: type, body: readFileSync(join(opts.pkg, name)) });
    });
    await page.goto(`${origin}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    await page.evaluate(
      async ({ src, variant }) => {
        const pkg = await import("/stella_wasm.js");
        await pkg.default();
        globalThis.bench = (0, eval)(`(${src})`)(pkg);
        globalThis.bench.start(variant);
      },
      { src: driver.toString(), variant: opts.variant },
    );
    const cpu = async () => {
      const { metrics } = await cdp.send("Performance.getMetrics");
      const t = metrics.find((m) => m.name === "ThreadTime");
      if (!t) throw new Error("Chromium reports no ThreadTime metric");
      return t.value * 1000;
    };
    return await timeAll(opts, report, {
      advance: () => page.evaluate(([s, f]) => globalThis.bench.advance(s, f), [opts.step, opts.first]),
      search: () => page.evaluate((l) => globalThis.bench.search(l), opts.level),
      cpu,
    });
  } finally {
    await browser.close();
  }
}

/** Times COUNT searches through `ops`; the list of `{ ply, path, cpuMs, wallMs }`. */
async function timeAll(opts, report, ops) {
  const rows = [];
  while (rows.length < opts.count) {
    const ply = await ops.advance();
    if (ply < 0) break;
    const wall0 = process.hrtime.bigint();
    const cpu0 = await ops.cpu();
    const path = await ops.search();
    const cpuMs = (await ops.cpu()) - cpu0;
    const wallMs = Number(process.hrtime.bigint() - wall0) / 1e6;
    const row = { ply, path, cpuMs, wallMs };
    report(row);
    rows.push(row);
  }
  return rows;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const perSecond = (ms) => (opts.iterations ? `, ${Math.round((opts.iterations * 1000) / ms)} iterations/s` : "");
  const where = opts.node ? `Node ${process.version}` : "headless Chromium";
  console.log(`# ${opts.variant} level ${opts.level}, ${where}, ${opts.pkg}`);
  const rows = await (opts.node ? inNode : inChromium)(opts, (r) =>
    console.log(`ply ${r.ply}: ${r.path}  CPU ${r.cpuMs.toFixed(1)} ms, wall ${r.wallMs.toFixed(0)} ms${perSecond(r.cpuMs)}`),
  );
  if (rows.length === 0) throw new Error(`no position to time: the game ended before ply ${opts.first}`);
  const cpu = median(rows.map((r) => r.cpuMs));
  console.log(
    `${opts.variant} level ${opts.level}: ${rows.length} moves, median CPU ${cpu.toFixed(1)} ms, ` +
      `median wall ${median(rows.map((r) => r.wallMs)).toFixed(0)} ms${perSecond(cpu)}`,
  );
  console.log(`moves: ${rows.map((r) => r.path).join(" ")}`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
