/**
 * The puzzle file (written by `stella puzzles`, docs/puzzles.md): "finish in N"
 * positions from finished games. The server serves its current set at `/api/puzzles`
 * (an operator may refresh it without rebuilding the site), with the daily puzzle of
 * its UTC day; `/puzzles.json`, part of the built site and kept by the service worker,
 * is the set used offline or without a server.
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
  return file.puzzles.filter(wellFormed);
}

/** A puzzle set and the id of its daily puzzle. */
export interface PuzzleSet {
  readonly puzzles: readonly Puzzle[];
  /** The daily puzzle's id as the server chose it (null: choose with `dailyIndex`). */
  readonly daily: string | null;
}

/**
 * The server's puzzle set with its daily puzzle (`/api/puzzles`); without an answer
 * from the server, the built-in `/puzzles.json`.
 */
export async function loadPuzzleSet(): Promise<PuzzleSet> {
  try {
    const res = await fetch("/api/puzzles", { credentials: "same-origin" });
    const type = res.headers.get("content-type") ?? "";
    if (res.ok && type.includes("json")) {
      const file = (await res.json()) as { format?: string; puzzles?: Puzzle[]; daily?: { id?: string } | null };
      if (file.format === PUZZLE_FORMAT && Array.isArray(file.puzzles)) {
        return { puzzles: file.puzzles.filter(wellFormed), daily: typeof file.daily?.id === "string" ? file.daily.id : null };
      }
    }
  } catch {
    // Offline or no server: the built-in set below.
  }
  return { puzzles: await loadPuzzles(), daily: null };
}

/** The daily puzzle of `set` on the UTC day of `nowMs`: the server's choice when it gave one. */
export function dailyPuzzle(set: PuzzleSet, nowMs: number): Puzzle | undefined {
  const chosen = set.daily === null ? undefined : set.puzzles.find((p) => p.id === set.daily);
  return chosen ?? set.puzzles[dailyIndex(nowMs, set.puzzles.length)];
}

function wellFormed(p: Puzzle): boolean {
  return typeof p.id === "string" && typeof p.position === "string" && Number.isInteger(p.moves) && p.moves >= 1;
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
