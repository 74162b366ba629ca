/**
 * The puzzle file (`/puzzles.json`, written by `stella puzzles`, docs/puzzles.md):
 * "finish in N" positions from finished games. It is part of the built site, so the
 * service worker keeps it for offline play.
 */

/** One puzzle: the player to move finishes in exactly `moves` moves at best. */
export interface Puzzle {
  /** `GAME-PLY`. */
  readonly id: string;
  /** The position string. */
  readonly position: string;
  /** Moves of the shortest finish. */
  readonly moves: number;
  /** The puzzle's rating. */
  readonly rating: number;
  /** The game it comes from. */
  readonly game: string;
  /** Moves played in that game before the position. */
  readonly ply: number;
}

/** The format name the client reads. */
export const PUZZLE_FORMAT = "stella-puzzles/1";

/** Reads the puzzle file; fails with what is wrong with it. */
export async function loadPuzzles(url = "/puzzles.json"): Promise<readonly Puzzle[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const file = (await res.json()) as { format?: string; puzzles?: Puzzle[] };
  if (file.format !== PUZZLE_FORMAT || !Array.isArray(file.puzzles)) throw new Error(`${url}: not a ${PUZZLE_FORMAT} file`);
  return file.puzzles.filter((p) => typeof p.id === "string" && typeof p.position === "string" && Number.isInteger(p.moves) && p.moves >= 1);
}

/** Index of the daily puzzle among `count` on the UTC day of `nowMs`: the next one each day. */
export function dailyIndex(nowMs: number, count: number): number {
  return Math.floor(nowMs / 86_400_000) % count;
}

/**
 * The next puzzle to offer: among those not tried yet, the one rated nearest the
 * player's rating (the first one in the file on a tie); `null` when all are tried.
 */
export function nextPuzzle(puzzles: readonly Puzzle[], tried: Readonly<Record<string, boolean>>, rating: number): Puzzle | null {
  let best: Puzzle | null = null;
  for (const p of puzzles) {
    if (p.id in tried) continue;
    if (!best || Math.abs(p.rating - rating) < Math.abs(best.rating - rating)) best = p;
  }
  return best;
}
