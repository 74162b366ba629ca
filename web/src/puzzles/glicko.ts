/**
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012): the rating of a player
 * after a rating period of games against rated opponents. Puzzles are the opponents:
 * solving one is a win, failing it a loss.
 */

/** A Glicko-2 rating on the familiar scale. */
export interface Glicko {
  /** Rating (1500 to begin with). */
  readonly rating: number;
  /** Rating deviation: how unsure the rating is (350 to begin with). */
  readonly deviation: number;
  /** Volatility: how erratic the player's results are (0.06 to begin with). */
  readonly volatility: number;
}

/** One game of the period: the opponent's rating and deviation, and the score (1 win, 0 loss, 0.5 draw). */
export interface GlickoGame {
  readonly rating: number;
  readonly deviation: number;
  readonly score: number;
}

/** A new player's rating. */
export const NEW_RATING: Glicko = { rating: 1500, deviation: 350, volatility: 0.06 };

/** The system constant τ: how fast volatility may change (Glickman suggests 0.3–1.2). */
const TAU = 0.5;
const SCALE = 173.7178;
const EPSILON = 1e-6;

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));

/** The player's rating after `games`; with no game only the deviation grows. */
export function rate(player: Glicko, games: readonly GlickoGame[]): Glicko {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) {
    return { ...player, deviation: Math.min(350, Math.sqrt(phi * phi + sigma * sigma) * SCALE) };
  }
  let vInverse = 0;
  let sum = 0;
  for (const game of games) {
    const muJ = (game.rating - 1500) / SCALE;
    const gJ = g(game.deviation / SCALE);
    const e = 1 / (1 + Math.exp(-gJ * (mu - muJ)));
    vInverse += gJ * gJ * e * (1 - e);
    sum += gJ * (game.score - e);
  }
  const v = 1 / vInverse;
  const delta = v * sum;
  // The new volatility: the root of f by the Illinois algorithm (step 5 of the paper).
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU);
  };
  let lo = a;
  let hi: number;
  if (delta * delta > phi * phi + v) {
    hi = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * TAU) < 0) k++;
    hi = a - k * TAU;
  }
  let fLo = f(lo);
  let fHi = f(hi);
  while (Math.abs(hi - lo) > EPSILON) {
    const c = lo + ((lo - hi) * fLo) / (fHi - fLo);
    const fC = f(c);
    if (fC * fHi <= 0) {
      lo = hi;
      fLo = fHi;
    } else {
      fLo /= 2;
    }
    hi = c;
    fHi = fC;
  }
  const sigmaNew = Math.exp(lo / 2);
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + 1500, deviation: phiNew * SCALE, volatility: sigmaNew };
}
