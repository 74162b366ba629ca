/**
 * The positions of a game before each of its moves, rebuilt backwards from the
 * position now and the moves played. A move only relocates marbles (docs/rules.md §3),
 * so it is undone by carrying the marble at its end back to its start; a Masters swap
 * (§10) also put the displaced marble on the hole the last hop started from, and that
 * marble goes back to the end hole.
 */
import type { Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import type { MoveMark } from "../board/state";

/** One move of a game with who made it. */
export interface PlayedMove {
  /** Index in the game's move list, from 0. */
  readonly index: number;
  /** Colour that made the move. */
  readonly colour: Colour;
  /** Holes of the move's path, start first. */
  readonly path: readonly HoleName[];
}

/** The moves of a game with their movers, and the position before each. */
export interface History {
  /** Every move, in order. */
  readonly moves: readonly PlayedMove[];
  /** `before[i]`: the marbles before move `i`; `before[moves.length]` is the position now. */
  readonly before: readonly ReadonlyMap<HoleName, Colour>[];
}

/** Parses a path such as `"m1-m3-k5"`. */
export function splitPath(path: string): HoleName[] {
  return path.split("-").filter((h) => h.length > 0);
}

/**
 * Rebuilds the history of a game from the marbles now and its moves. A move whose end
 * hole is empty does not fit the position; the history then starts after it (the
 * moves before it are left out) rather than inventing marbles.
 */
export function rebuildHistory(now: ReadonlyMap<HoleName, Colour>, paths: readonly string[]): History {
  let pieces = new Map(now);
  const moves: PlayedMove[] = [];
  const before: Map<HoleName, Colour>[] = [new Map(now)];
  for (let i = paths.length - 1; i >= 0; i--) {
    const path = splitPath(paths[i]);
    const start = path[0];
    const end = path[path.length - 1];
    const colour = path.length >= 2 ? pieces.get(end) : undefined;
    // The hole the last hop started from is empty after a move, unless a swap put the
    // displaced marble there.
    const hopFrom = path[path.length - 2];
    const swapped = pieces.get(hopFrom);
    if (!colour || (hopFrom !== start && pieces.has(start))) break;
    const prev = new Map(pieces);
    prev.delete(end);
    if (swapped) {
      prev.delete(hopFrom);
      prev.set(end, swapped);
    }
    prev.set(start, colour);
    moves.push({ index: i, colour, path });
    before.push(prev);
    pieces = prev;
  }
  moves.reverse();
  before.reverse();
  return { moves, before };
}


/**
 * The last move of each seat other than `viewer` made within the last round (the last
 * `seats` moves), oldest first; the viewer's own move only when it is the latest move.
 */
export function lastMoves(history: History, viewer: Colour | null, seats: number): MoveMark[] {
  const recent = history.moves.slice(-seats);
  const latest = recent[recent.length - 1];
  const byColour = new Map<Colour, PlayedMove>();
  for (const m of recent) if (m.colour !== viewer || m === latest) byColour.set(m.colour, m);
  return [...byColour.values()].sort((a, b) => a.index - b.index).map((m) => ({ colour: m.colour, path: m.path }));
}
