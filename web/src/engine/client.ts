/**
 * Promise-based handle on the engine worker: one worker per game, requests answered
 * in order. Nothing here touches the network: the worker runs the engine compiled to
 * WebAssembly in this browser.
 *
 * A search cannot be interrupted inside the worker, so {@link EngineClient.restart}
 * stops one at once by terminating the worker and starting a fresh one; requests still
 * waiting are rejected with {@link EngineStopped}.
 */
import type { Analysis, GameView, Judgement, PuzzleMove, WorkerReply, WorkerRequest } from "./protocol";

/** The error of a request cut short by {@link EngineClient.restart} or {@link EngineClient.close}. */
export class EngineStopped extends Error {
  constructor() {
    super("the engine was stopped");
    this.name = "EngineStopped";
  }
}

/** The engine could not start in this browser (the worker or the wasm failed to load). */
export class EngineUnavailable extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "EngineUnavailable";
  }
}

type Pending = { resolve: (r: WorkerReply & { ok: true }) => void; reject: (e: Error) => void };

/** A game running in its own engine worker. */
export class EngineClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();

  constructor() {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    worker.addEventListener("message", (e: MessageEvent<WorkerReply>) => {
      const p = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      if (!p) return;
      if (e.data.ok) p.resolve(e.data);
      else if (e.data.unavailable) p.reject(new EngineUnavailable(e.data.error));
      else p.reject(new Error(e.data.error));
    });
    // The worker's script itself failed to load or run (e.g. offline before it was cached).
    worker.addEventListener("error", (e) => {
      e.preventDefault();
      this.failAll(new EngineUnavailable(e.message || "the engine worker did not start"));
    });
    return worker;
  }

  private failAll(error: Error): void {
    const pending = this.pending;
    this.pending = new Map();
    for (const p of pending.values()) p.reject(error);
  }

  /** Stops whatever the worker is doing (a search included) and starts a fresh one; the game must be loaded again. */
  restart(): void {
    this.worker.terminate();
    this.failAll(new EngineStopped());
    this.worker = this.spawn();
  }

  private request(req: WorkerRequest): Promise<WorkerReply & { ok: true }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...req });
    });
  }

  private async viewOf(req: WorkerRequest): Promise<GameView> {
    const r = await this.request(req);
    if (!r.view) throw new Error("worker sent no view");
    return r.view;
  }

  /** Starts a new game of `variant`. */
  newGame(variant: string): Promise<GameView> {
    return this.viewOf({ kind: "newGame", variant });
  }

  /** Rebuilds a game from its start (the variant's, or a position string) and its moves. */
  load(variant: string, moves: readonly string[], position?: string): Promise<GameView> {
    return this.viewOf({ kind: "load", variant, moves, position });
  }

  /** Starts from a position string. */
  fromPosition(variant: string, position: string): Promise<GameView> {
    return this.viewOf({ kind: "fromPosition", variant, position });
  }

  /** Plays a move given by its path, e.g. `"m1-m3-k5"`. */
  play(path: string): Promise<GameView> {
    return this.viewOf({ kind: "play", path });
  }

  /** The view of a position string (online tables and replays). */
  positionView(position: string): Promise<GameView> {
    return this.viewOf({ kind: "positionView", position });
  }

  /** The view of a position string, or `null` when the engine was closed before it came (the page was left). */
  async positionViewUnlessClosed(position: string): Promise<GameView | null> {
    try {
      return await this.positionView(position);
    } catch (e) {
      if (e instanceof EngineStopped) return null;
      throw e;
    }
  }

  /** The current view. */
  view(): Promise<GameView> {
    return this.viewOf({ kind: "view" });
  }

  /** The computer's move for the seat to move, as a path. */
  async bestMove(level: number, seed: number): Promise<string> {
    const r = await this.request({ kind: "bestMove", level, seed });
    if (!r.path) throw new Error("worker sent no move");
    return r.path;
  }

  /** Starts analysing a position string; {@link EngineClient.deepen} then searches it deeper step by step. */
  async analyse(position: string): Promise<void> {
    await this.request({ kind: "analyse", position });
  }

  /** One depth more of the analysed position: its `count` best moves, or `null` when nobody can move. */
  async deepen(count: number): Promise<Analysis | null> {
    const r = await this.request({ kind: "deepen", count });
    return r.analysis ?? null;
  }

  /** The move `path` played in `position` judged against the best move, searched to `depth` plies and about `nodes` nodes. */
  async judge(position: string, path: string, depth: number, nodes: number): Promise<Judgement> {
    const r = await this.request({ kind: "judge", position, path, depth, nodes });
    if (!r.judgement) throw new Error("worker sent no judgement");
    return r.judgement;
  }

  /** Whether `path` keeps a finish in `left` moves in the puzzle `position`. */
  async puzzleMove(position: string, path: string, left: number): Promise<PuzzleMove> {
    const r = await this.request({ kind: "puzzleMove", position, path, left });
    if (!r.puzzle) throw new Error("worker sent no judgement");
    return r.puzzle;
  }

  /** Stops the worker for good. */
  close(): void {
    this.worker.terminate();
    this.failAll(new EngineStopped());
  }
}
