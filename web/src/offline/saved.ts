/**
 * The offline game in progress, kept in localStorage after every move so that a
 * reload, Back/Forward or closing the tab loses nothing: the setup's address, the
 * moves played and who made them, and the computer's next random seed. One game is
 * kept, the latest.
 */
import { isColour, type Colour } from "../colour";
import { setupQuery, type Setup } from "./setup";

/** Storage key of the game in progress. */
export const SAVED_KEY = "stella.offline.game";

/** A stored game. */
export interface SavedGame {
  /** The setup's query string (`setupQuery`). */
  readonly query: string;
  /** Moves played, as paths. */
  readonly moves: readonly string[];
  /** The seat that made each move. */
  readonly movers: readonly Colour[];
  /** The computer's next seed. */
  readonly seed: number;
  /** Whether the game has ended. */
  readonly finished: boolean;
}

/** The part of `Storage` used here (tests pass a map). */
export type SavedStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Stores the game in progress; a full or blocked storage only loses the save. */
export function saveGame(store: SavedStorage, game: SavedGame): void {
  try {
    store.setItem(SAVED_KEY, JSON.stringify(game));
  } catch {
    // Nothing else to do: the game goes on unsaved.
  }
}

/** The stored game, whatever its setup; `null` when none or damaged. */
export function savedGame(store: SavedStorage): SavedGame | null {
  try {
    const raw = store.getItem(SAVED_KEY);
    if (!raw) return null;
    const g = JSON.parse(raw) as Partial<SavedGame>;
    if (typeof g.query !== "string" || !Array.isArray(g.moves) || !Array.isArray(g.movers)) return null;
    if (!g.moves.every((m) => typeof m === "string") || !g.movers.every((c) => typeof c === "string" && isColour(c))) return null;
    if (g.moves.length !== g.movers.length) return null;
    return {
      query: g.query,
      moves: g.moves,
      movers: g.movers,
      seed: typeof g.seed === "number" && Number.isFinite(g.seed) ? g.seed : 1,
      finished: g.finished === true,
    };
  } catch {
    return null;
  }
}

/** The stored game when it was played with `setup`. */
export function savedGameFor(store: SavedStorage, setup: Setup): SavedGame | null {
  const g = savedGame(store);
  return g && g.query === setupQuery(setup) ? g : null;
}

/** Forgets the stored game. */
export function forgetGame(store: SavedStorage): void {
  try {
    store.removeItem(SAVED_KEY);
  } catch {
    // Blocked storage: there is nothing stored either.
  }
}
