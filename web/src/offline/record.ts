/**
 * The win/loss record per offline setup, kept in localStorage. Only games against
 * the computer count; pass-and-play games are not recorded.
 */
import { recorded, type Setup } from "./setup";

/** Wins, losses and draws with one setup. */
export interface Record {
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
}

/** The part of `Storage` the record needs (so tests can pass a map). */
export type RecordStorage = Pick<Storage, "getItem" | "setItem">;

/** Storage key of a setup's record. */
export function recordKey(s: Setup): string {
  return `stella.record.${s.variant}.h${s.humans}.l${s.level}`;
}

/** The record of a setup (zeros when none). */
export function readRecord(store: RecordStorage, s: Setup): Record {
  try {
    const raw = store.getItem(recordKey(s));
    if (raw) {
      const r = JSON.parse(raw) as Partial<Record>;
      return { wins: r.wins ?? 0, losses: r.losses ?? 0, draws: r.draws ?? 0 };
    }
  } catch {
    // A damaged entry counts as none.
  }
  return { wins: 0, losses: 0, draws: 0 };
}

/**
 * Adds one finished game: a win when a person took first place alone, a draw when a
 * person shares first place, otherwise a loss. Returns the new record, or the old one
 * for pass-and-play games.
 */
export function addResult(store: RecordStorage, s: Setup, humanPlaces: readonly number[], firstShared: boolean): Record {
  const r = readRecord(store, s);
  if (!recorded(s)) return r;
  const best = Math.min(...humanPlaces);
  const next =
    best === 1 && !firstShared
      ? { ...r, wins: r.wins + 1 }
      : best === 1
        ? { ...r, draws: r.draws + 1 }
        : { ...r, losses: r.losses + 1 };
  store.setItem(recordKey(s), JSON.stringify(next));
  return next;
}
