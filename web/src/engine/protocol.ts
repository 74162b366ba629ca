/**
 * Messages between the page and the engine worker (`worker.ts`). Every request
 * carries an `id`; the worker answers each with a {@link WorkerReply} of the same id.
 * All data are plain JSON, as the wasm facade (`crates/wasm`) produces them.
 */
import type { Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import type { LegalMove } from "../board/state";

/** Places and the reason when a game is over. */
export interface Outcome {
  /** Place of each seat, 1 = first; equal places are draws. */
  readonly places: Readonly<Partial<Record<Colour, number>>>;
  /** Why the game ended, as a machine-readable key (e.g. `"arrived"`, `"repetition"`). */
  readonly reason: string;
}

/** Everything a table needs to draw one moment of a game. */
export interface GameView {
  /** Variant id, e.g. `"classic-2"`. */
  readonly variant: string;
  /** Seats in play order. */
  readonly seats: readonly Colour[];
  /** Position string (engine notation). */
  readonly position: string;
  /** Marbles on the board. */
  readonly pieces: Readonly<Record<HoleName, Colour>>;
  /** Seat to move, `null` when the game is over. */
  readonly toMove: Colour | null;
  /** Legal moves of the seat to move. */
  readonly legal: readonly LegalMove[];
  /** Marbles of each seat standing in its goal. */
  readonly arrived: Readonly<Partial<Record<Colour, number>>>;
  /** Marbles per seat (10, or 15 in the fifteen variants). */
  readonly marbles: number;
  /** Goal holes of each seat. */
  readonly goals: Readonly<Partial<Record<Colour, readonly HoleName[]>>>;
  /** Path of the last move, if any. */
  readonly lastMove: readonly HoleName[] | null;
  /** Moves played so far, as canonical paths. */
  readonly moves: readonly string[];
  /** The result once the game is over. */
  readonly outcome: Outcome | null;
}

/** A request to the worker, without its id. */
export type WorkerRequest =
  /** Starts a new game of a variant. */
  | { readonly kind: "newGame"; readonly variant: string }
  /** Rebuilds a game from its start (the variant's, or `position`) and the moves played (undo). */
  | { readonly kind: "load"; readonly variant: string; readonly position?: string; readonly moves: readonly string[] }
  /** Starts from a position string (lessons). */
  | { readonly kind: "fromPosition"; readonly variant: string; readonly position: string }
  /** Plays a move given by its path. */
  | { readonly kind: "play"; readonly path: string }
  /** Current view of the game. */
  | { readonly kind: "view" }
  /** The view of a position string alone; the game held by the worker is untouched. */
  | { readonly kind: "positionView"; readonly position: string }
  /** The computer's choice for the seat to move. */
  | { readonly kind: "bestMove"; readonly level: number; readonly seed: number }
  /** Starts analysing a position string (the game held by the worker is untouched). */
  | { readonly kind: "analyse"; readonly position: string }
  /** Searches the analysed position one depth deeper: its `count` best moves. */
  | { readonly kind: "deepen"; readonly count: number }
  /** Judges the move `path` played in `position` against the best move, within a bounded search. */
  | { readonly kind: "judge"; readonly position: string; readonly path: string; readonly depth: number; readonly nodes: number }
  /** Whether `path` keeps a finish in `left` moves in a puzzle `position`. */
  | { readonly kind: "puzzleMove"; readonly position: string; readonly path: string; readonly left: number };

/** A move of a "finish in N" puzzle judged. */
export interface PuzzleMove {
  /** Whether the move keeps a finish in the moves left. */
  readonly keeps: boolean;
  /** Moves to the finish with this move first, at least. */
  readonly atLeast: number;
  /** Whether the player has finished with it. */
  readonly solved: boolean;
  /** The position after the move with the same player to move, while moves are left. */
  readonly next: string | null;
}

/** One analysed move: its path, score for the player to move (1/100 row) and line. */
export interface AnalysedLine {
  /** The move, a canonical path. */
  readonly path: string;
  /** Score for the player to move, in hundredths of a row (±1 000 000 = decided). */
  readonly score: number;
  /** The principal variation, `path` first. */
  readonly pv: readonly string[];
  /** In a race, the moves of the shortest finish found with this move first; `null` otherwise. */
  readonly finish: number | null;
}

/** One completed depth of an analysis. */
export interface Analysis {
  /** Depth completed, in plies. */
  readonly depth: number;
  /** The best moves, best first. */
  readonly lines: readonly AnalysedLine[];
  /** Whether deeper searches would tell nothing more (a race: the solver answers at once). */
  readonly done: boolean;
}

/** A played move next to the best move of its position. */
export interface Judgement {
  /** The best move found. */
  readonly best: AnalysedLine;
  /** The move played, `null` when the search would never play it (it eliminates its player). */
  readonly played: AnalysedLine | null;
  /** In a race (the armies have passed each other), the finish with and without the move; `null` otherwise. */
  readonly race: RaceJudgement | null;
}

/** A move of a race judged by the moves it leaves to the finish. */
export interface RaceJudgement {
  /** The first move of the shortest finish found. */
  readonly better: string;
  /** Moves of that finish. */
  readonly bestLength: number;
  /** Moves to the finish after the move played, at least. */
  readonly playedAtLeast: number;
  /** Moves the move played surely loses (0 when that cannot be told within the work allowed). */
  readonly movesLost: number;
}

/** The worker's answer to one request. */
export type WorkerReply =
  | {
      readonly id: number;
      readonly ok: true;
      readonly view?: GameView;
      readonly path?: string;
      /** Answer to `deepen`: `null` when the position has no move to analyse. */
      readonly analysis?: Analysis | null;
      readonly judgement?: Judgement;
      readonly puzzle?: PuzzleMove;
    }
  | { readonly id: number; readonly ok: false; readonly error: string; readonly unavailable?: boolean };
