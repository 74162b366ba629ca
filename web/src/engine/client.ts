/**
 * Promise-based handle on the engine worker: one worker per game, requests answered
 * in order. Nothing here touches the network: the worker runs the engine compiled to
 * WebAssembly in this browser.
 */
import type { GameView, WorkerReply, WorkerRequest } from "./protocol";

/** A game running in its own engine worker. */
export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, (r: WorkerReply) => void>();

  constructor() {
    this.worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    this.worker.addEventListener("message", (e: MessageEvent<WorkerReply>) => {
      const done = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      done?.(e.data);
    });
  }

  private request(req: WorkerRequest): Promise<WorkerReply & { ok: true }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (r) => (r.ok ? resolve(r) : reject(new Error(r.error))));
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

  /** Stops the worker. */
  close(): void {
    this.worker.terminate();
  }
}
