/**
 * Engine scores as the analysis board and the game review show them. A score is in
 * hundredths of a row for the player to move (as `crates/ai` computes it); beyond
 * ±{@link DECIDED} the game is decided.
 */

/** Scores at least this large (in absolute value) mean the game is decided. */
export const DECIDED = 900_000;

/** Score above which the evaluation bar is (nearly) full: eight rows ahead. */
const BAR_SCALE = 800;

/**
 * How much of the evaluation bar the player to move fills, 0…1: half for an even
 * position, growing smoothly with the lead and never quite full until decided.
 */
export function barShare(score: number): number {
  if (score >= DECIDED) return 1;
  if (score <= -DECIDED) return 0;
  return 0.5 + 0.5 * Math.tanh(score / BAR_SCALE);
}

/** A score in rows with its sign, e.g. `+1.25`, or `null` when the game is decided (see {@link decidedFor}). */
export function rowsText(score: number): string | null {
  if (Math.abs(score) >= DECIDED) return null;
  const rows = score / 100;
  return `${rows >= 0 ? "+" : "−"}${Math.abs(rows).toFixed(2)}`;
}

/** `"win"` or `"loss"` for the player to move when the score says the game is decided, else `null`. */
export function decidedFor(score: number): "win" | "loss" | null {
  if (score >= DECIDED) return "win";
  if (score <= -DECIDED) return "loss";
  return null;
}

/** How a move of a reviewed game is judged. */
export type Judgement = "best" | "good" | "inaccuracy" | "mistake";

/**
 * Rows lost against the best move from which a move is an inaccuracy: one row, the
 * least a single step forward gains, so the mover gave away at least a step.
 */
export const INACCURACY_LOSS = 100;

/**
 * Rows lost from which a move is a mistake: three rows, about what one good jump
 * gains, so the mover gave away a whole move's worth of progress.
 */
export const MISTAKE_LOSS = 300;

/** Scores beyond this are counted as this much when measuring a loss (a decided game is "more than ten rows"). */
const LOSS_CAP = 1000;

/** What the move played lost against the best move, in hundredths of a row (never below 0). */
export function lossOf(best: number, played: number): number {
  const clamp = (s: number) => Math.max(-LOSS_CAP, Math.min(LOSS_CAP, s));
  return Math.max(0, clamp(best) - clamp(played));
}

/**
 * What a move of a race lost, in hundredths of a row: every move it adds to the
 * player's finish counts as {@link MISTAKE_LOSS}, since a move lost in a race is a
 * whole move's worth of progress (and often the game).
 */
export function raceLoss(movesLost: number): number {
  return Math.max(0, movesLost) * MISTAKE_LOSS;
}

/** The judgement of a move that lost `loss` hundredths of a row; `same` when it was the best move itself. */
export function judge(loss: number, same: boolean): Judgement {
  if (same) return "best";
  if (loss >= MISTAKE_LOSS) return "mistake";
  if (loss >= INACCURACY_LOSS) return "inaccuracy";
  return "good";
}
