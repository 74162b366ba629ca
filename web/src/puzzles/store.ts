/**
 * A guest's puzzle rating and the puzzles they have tried, kept in localStorage:
 * only the first attempt at a puzzle counts for the rating.
 */
import { NEW_RATING, rate, type Glicko } from "./glicko";

/** Deviation of every puzzle's rating: puzzles are well known opponents. */
export const PUZZLE_DEVIATION = 60;

/** What is kept. */
export interface PuzzleRecord {
  /** The player's puzzle rating. */
  readonly rating: Glicko;
  /** Puzzle ids tried, with whether they were solved at the first attempt. */
  readonly tried: Readonly<Record<string, boolean>>;
}

/** The part of `Storage` the record needs (so tests can pass a map). */
export type PuzzleStorage = Pick<Storage, "getItem" | "setItem">;

const KEY = "stella.puzzles";

/** The record kept in `storage`, or a new player's. */
export function readPuzzleRecord(storage: PuzzleStorage): PuzzleRecord {
  try {
    const raw = storage.getItem(KEY);
    if (raw) {
      const r = JSON.parse(raw) as PuzzleRecord;
      if (Number.isFinite(r.rating?.rating) && Number.isFinite(r.rating?.deviation) && Number.isFinite(r.rating?.volatility) && r.tried) return r;
    }
  } catch {
    // A damaged entry starts the record again.
  }
  return { rating: NEW_RATING, tried: {} };
}

/**
 * Counts the first attempt at puzzle `id` (rated `puzzleRating`): solved or not.
 * A puzzle already tried changes nothing. Returns the record as stored.
 */
export function recordAttempt(storage: PuzzleStorage, id: string, puzzleRating: number, solved: boolean): PuzzleRecord {
  const r = readPuzzleRecord(storage);
  if (id in r.tried) return r;
  const next: PuzzleRecord = {
    rating: rate(r.rating, [{ rating: puzzleRating, deviation: PUZZLE_DEVIATION, score: solved ? 1 : 0 }]),
    tried: { ...r.tried, [id]: solved },
  };
  storage.setItem(KEY, JSON.stringify(next));
  return next;
}
