/** The server's HTTP API under `/api` (accounts, games, ratings). */
import type { Judgement } from "../engine/protocol";
import type { ChatLine, PlayerView, TimeSpec, UserInfo } from "./wire";

/** An error answer of the API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const d = data as { message?: string; error?: string } | null;
    throw new ApiError(res.status, d?.message ?? d?.error ?? `${res.status} ${res.statusText}`);
  }
  return data as T;
}

/** A seat in game lists and replays. */
export interface GameSeat {
  readonly seat: number;
  readonly colour: string;
  readonly player: PlayerView;
  readonly place: number | null;
  readonly rating_before: number | null;
  readonly rating_after: number | null;
}

/** A game in a player's list. */
export interface GameSummary {
  readonly id: string;
  readonly variant: string;
  readonly rated: boolean;
  readonly time: TimeSpec | null;
  readonly status: string;
  readonly reason: string | null;
  readonly created_ms: number;
  readonly finished_ms: number | null;
  readonly seats: readonly GameSeat[];
}

/** A move in a replay. */
export interface ReplayMove {
  readonly ply: number;
  readonly colour: string;
  readonly path: string;
  /** Position string after the move. */
  readonly position: string;
  readonly at_ms: number;
  readonly clock_ms: readonly number[] | null;
}

/** A stored game with every position. */
export interface Replay extends GameSummary {
  /** Position string before the first move. */
  readonly start: string;
  readonly moves: readonly ReplayMove[];
  /** The table's chat, oldest first. */
  readonly chat?: readonly ChatLine[];
}

/** A leaderboard row. */
export interface RatingRow {
  readonly username: string;
  readonly category: string;
  readonly rating: number;
  readonly games: number;
}

/** A Glicko-2 puzzle rating as the server keeps it. */
export interface ServerGlicko {
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
}

/** A registered player's puzzle record on the server (`GET /api/puzzles/me`). */
export interface ServerPuzzleRecord {
  readonly rating: ServerGlicko;
  readonly attempts: number;
  readonly solved: number;
  /** Puzzle ids tried, with whether the rated attempt solved them. */
  readonly tried: Readonly<Record<string, boolean>>;
}

/** The server's judgement of an attempt (`POST /api/puzzles/<id>/attempt`). */
export interface PuzzleAttemptResult {
  readonly solved: boolean;
  /** Whether it was the player's first attempt at the puzzle, which moves the ratings. */
  readonly rated: boolean;
  readonly rating: ServerGlicko;
  readonly puzzle_rating: number | null;
}

/** An API token of a bot account as listed (never the secret). */
export interface BotToken {
  readonly id: string;
  readonly label: string;
  readonly created_ms: number;
  readonly last_used_ms: number | null;
}

/** The server's review of a finished game (`GET /api/games/<id>/review`). */
export interface ServerReview {
  readonly depth: number;
  readonly nodes: number;
  /** The moves judged, canonical paths. */
  readonly paths: readonly string[];
  /** One judgement per move, as the engine worker's `judge` answers. */
  readonly moves: readonly Judgement[];
}

/** Rating categories. */
export const CATEGORIES = ["duel", "multi", "teams"] as const;

/** The HTTP API. */
export const api = {
  register: (username: string, password: string) => call<{ user: UserInfo }>("POST", "/register", { username, password }),
  login: (username: string, password: string) => call<{ user: UserInfo }>("POST", "/login", { username, password }),
  guest: () => call<{ user: UserInfo }>("POST", "/guest", {}),
  logout: () => call<unknown>("POST", "/logout", {}),
  me: () => call<{ user: UserInfo | null }>("GET", "/me"),
  replay: (id: string) => call<Replay>("GET", `/games/${encodeURIComponent(id)}`),
  recordUrl: (id: string) => `/api/games/${encodeURIComponent(id)}/record`,
  userGames: (name: string) => call<{ player: string; games: GameSummary[] }>("GET", `/users/${encodeURIComponent(name)}/games`),
  userRatings: (name: string) =>
    call<{ player: string; ratings: RatingRow[] }>("GET", `/users/${encodeURIComponent(name)}/ratings`),
  becomeBot: () => call<{ user: UserInfo }>("POST", "/bot", {}),
  tokens: () => call<{ tokens: BotToken[] }>("GET", "/tokens"),
  createToken: (label: string) => call<BotToken & { token: string }>("POST", "/tokens", { label }),
  revokeToken: (id: string) => call<null>("DELETE", `/tokens/${encodeURIComponent(id)}`),
  /** The server's review of a finished game; `null` while it has none. */
  gameReview: async (id: string): Promise<ServerReview | null> => {
    const r = await call<ServerReview | { status: string } | null>("GET", `/games/${encodeURIComponent(id)}/review`).catch((e: unknown) => {
      if (e instanceof ApiError && (e.status === 404 || e.status === 422)) return null;
      throw e;
    });
    return r && "moves" in r ? r : null;
  },
  puzzleRecord: () => call<ServerPuzzleRecord>("GET", "/puzzles/me"),
  puzzleAttempt: (id: string, moves: readonly string[]) =>
    call<PuzzleAttemptResult>("POST", `/puzzles/${encodeURIComponent(id)}/attempt`, { moves }),
  leaderboard: (category: string) => call<{ category: string; players: RatingRow[] }>("GET", `/leaderboard/${category}`),
};
