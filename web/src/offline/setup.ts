/**
 * An offline game's setup: number of players, people at this screen, the computer's
 * level and the variant, read from and written to `/offline?players=N&humans=M&level=L`
 * (`&variant=ID` optional; `&first=K` seats the people from seat K on, so that "play
 * again" can rotate the seats).
 */

/** Player counts of offline games. */
export const PLAYER_COUNTS = [2, 3, 4, 6] as const;

/** Levels of the computer opponent. */
export const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Variant ids by player count (docs/rules.md §10). */
export const VARIANTS_BY_PLAYERS: Readonly<Record<number, readonly string[]>> = {
  2: ["classic-2", "long-2", "fifteen-2", "masters-2", "symmetric-2"],
  3: ["classic-3", "long-3", "fifteen-3"],
  4: ["classic-4", "long-4", "pairs-2x2"],
  6: ["classic-6", "long-6", "pairs-3x2", "masters-6", "symmetric-6"],
};

/** A complete offline setup. */
export interface Setup {
  /** Number of seats: 2, 3, 4 or 6. */
  readonly players: number;
  /** How many seats are people at this screen (the first seats: a person plays white). */
  readonly humans: number;
  /** Level of the computer players. */
  readonly level: number;
  /** Variant id; must have `players` seats. */
  readonly variant: string;
  /** A position string to start from instead of the variant's start (not recorded). */
  readonly position?: string;
  /** Seat index (in play order) of the first person; the people sit from there on. Absent means 0. */
  readonly first?: number;
}

/** The setup a fresh visitor gets. */
export const DEFAULT_SETUP: Setup = { players: 2, humans: 1, level: 2, variant: "classic-2" };

function intParam(p: URLSearchParams, name: string): number | null {
  const v = p.get(name);
  if (v === null || !/^\d+$/.test(v)) return null;
  return Number(v);
}

/**
 * Reads a setup from query parameters, or `null` when `players` is missing (the page
 * then shows the setup form). Values out of range are brought into range.
 */
export function parseSetup(search: string): Setup | null {
  const p = new URLSearchParams(search);
  const players = intParam(p, "players");
  if (players === null) return null;
  const n = (PLAYER_COUNTS as readonly number[]).includes(players) ? players : DEFAULT_SETUP.players;
  const humansRaw = intParam(p, "humans") ?? 1;
  const humans = Math.min(Math.max(humansRaw, 1), n);
  const levelRaw = intParam(p, "level") ?? DEFAULT_SETUP.level;
  const level = Math.min(Math.max(levelRaw, LEVELS[0]), LEVELS[LEVELS.length - 1]);
  const variants = VARIANTS_BY_PLAYERS[n];
  const v = p.get("variant");
  const variant = v && variants.includes(v) ? v : variants[0];
  const firstRaw = intParam(p, "first") ?? 0;
  const seatFirst = (players: number) => (firstRaw > 0 && firstRaw < players ? { first: firstRaw } : {});
  const position = p.get("position")?.trim();
  if (position) {
    // The position names its variant, and with it the number of players.
    const pv = position.split(/\s+/)[0];
    const count = Object.entries(VARIANTS_BY_PLAYERS).find(([, ids]) => ids.includes(pv))?.[0];
    if (count) {
      const players = Number(count);
      return { players, humans: Math.min(humans, players), level, variant: pv, position, ...seatFirst(players) };
    }
  }
  return { players: n, humans, level, variant, ...seatFirst(n) };
}

/** The query string of a setup, e.g. `?players=2&humans=1&level=2&variant=classic-2`. */
export function setupQuery(s: Setup): string {
  const q = `?players=${s.players}&humans=${s.humans}&level=${s.level}&variant=${s.variant}${s.first ? `&first=${s.first}` : ""}`;
  return s.position ? `${q}&position=${encodeURIComponent(s.position)}` : q;
}

/** Whether a finished game with this setup counts in the record. */
export function recorded(s: Setup): boolean {
  return againstComputer(s) && !s.position;
}

/** Whether the computer plays at least one seat (undo and the record need that). */
export function againstComputer(s: Setup): boolean {
  return s.humans < s.players;
}

/** Whether the seat at index `seat` (play order) is played by a person at this screen. */
export function isPersonSeat(s: Setup, seat: number): boolean {
  return (seat - (s.first ?? 0) + s.players) % s.players < s.humans;
}

/** The same setup for the next game: the people move one seat on (rotated seats). */
export function rotated(s: Setup): Setup {
  const first = ((s.first ?? 0) + 1) % s.players;
  const { first: _old, ...rest } = s;
  return first === 0 ? rest : { ...rest, first };
}
