/**
 * Links to the analysis board: `/analysis?variant=ID&moves=M1,M2,…` (`&start=POSITION`
 * when the game did not begin at the variant's start; `&position=POSITION` alone sets
 * up a position with no moves; `&game=ID` names the online game, whose review the
 * server may have computed).
 */

/** What the analysis board opens with. */
export interface AnalysisStart {
  /** Variant id. */
  readonly variant: string;
  /** Position string the moves start from, when not the variant's start. */
  readonly start?: string;
  /** Moves played from the start, canonical paths. */
  readonly moves: readonly string[];
  /** The online game these moves are, if any. */
  readonly game?: string;
}

/** The link that opens a game (or a position) on the analysis board. */
export function analysisHref(a: AnalysisStart): string {
  const q = new URLSearchParams({ variant: a.variant });
  if (a.start) q.set("start", a.start);
  if (a.moves.length > 0) q.set("moves", a.moves.join(","));
  if (a.game) q.set("game", a.game);
  return `/analysis?${q.toString()}`;
}

/** Reads the query of an analysis link; an unknown or missing variant is left to the page to refuse. */
export function parseAnalysisQuery(search: string): AnalysisStart | null {
  const p = new URLSearchParams(search);
  const position = p.get("position")?.trim() || p.get("start")?.trim() || undefined;
  const variant = p.get("variant") ?? position?.split(/\s+/)[0];
  if (!variant) return null;
  const moves = (p.get("moves") ?? "").split(",").map((m) => m.trim()).filter((m) => m.length > 0);
  const game = p.get("game") ?? "";
  return { variant, start: position, moves, ...(/^[\w-]{1,64}$/.test(game) ? { game } : {}) };
}
