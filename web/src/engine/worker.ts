/// <reference lib="webworker" />
/**
 * Module Web Worker that runs the engine and the computer opponent compiled to
 * WebAssembly (`crates/wasm`, generated into `src/wasm-pkg/`). It holds one game and
 * answers the requests of {@link EngineClient}; see `protocol.ts`.
 */
import init, { WasmAnalysis, WasmGame, judgeMove, positionView, puzzleMove } from "../wasm-pkg/stella_wasm.js";
import type { Analysis, GameView, Judgement, PuzzleMove, WorkerReply, WorkerRequest } from "./protocol";

const ready = init();
/** Set when the wasm engine failed to load: every request then answers with it. */
let loadError: string | null = null;
ready.catch((e: unknown) => (loadError = e instanceof Error ? e.message : String(e)));
let game: WasmGame | null = null;
/** The position being analysed, deepened by `deepen` requests. */
let analysis: WasmAnalysis | null = null;

function current(): WasmGame {
  if (!game) throw new Error("no game");
  return game;
}

function replace(next: WasmGame): void {
  game?.free();
  game = next;
}

function view(): GameView {
  return JSON.parse(current().view()) as GameView;
}

async function handle(req: WorkerRequest): Promise<Omit<WorkerReply & { ok: true }, "id">> {
  await ready;
  switch (req.kind) {
    case "newGame":
      replace(new WasmGame(req.variant));
      return { ok: true, view: view() };
    case "load": {
      const g = req.position ? WasmGame.fromPosition(req.variant, req.position) : new WasmGame(req.variant);
      try {
        for (const path of req.moves) g.play(path);
      } catch (e) {
        g.free();
        throw e;
      }
      replace(g);
      return { ok: true, view: view() };
    }
    case "fromPosition":
      replace(WasmGame.fromPosition(req.variant, req.position));
      return { ok: true, view: view() };
    case "play":
      current().play(req.path);
      return { ok: true, view: view() };
    case "view":
      return { ok: true, view: view() };
    case "positionView":
      return { ok: true, view: JSON.parse(positionView(req.position)) as GameView };
    case "bestMove":
      return { ok: true, path: current().bestMove(req.level, BigInt(req.seed)) };
    case "analyse": {
      const next = new WasmAnalysis(req.position);
      analysis?.free();
      analysis = next;
      return { ok: true };
    }
    case "deepen":
      if (!analysis) throw new Error("no position to analyse");
      return { ok: true, analysis: JSON.parse(analysis.deepen(req.count)) as Analysis | null };
    case "judge":
      return { ok: true, judgement: JSON.parse(judgeMove(req.position, req.path, req.depth, req.nodes)) as Judgement };
    case "puzzleMove":
      return { ok: true, puzzle: JSON.parse(puzzleMove(req.position, req.path, req.left)) as PuzzleMove };
  }
}

self.addEventListener("message", async (e: MessageEvent<WorkerRequest & { id: number }>) => {
  const { id } = e.data;
  try {
    await ready.catch(() => undefined);
    if (loadError !== null) {
      (self as DedicatedWorkerGlobalScope).postMessage({ id, ok: false, error: loadError, unavailable: true } satisfies WorkerReply);
      return;
    }
    const reply = await handle(e.data);
    (self as DedicatedWorkerGlobalScope).postMessage({ id, ...reply } satisfies WorkerReply);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    (self as DedicatedWorkerGlobalScope).postMessage({ id, ok: false, error } satisfies WorkerReply);
  }
});
