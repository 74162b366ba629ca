/**
 * Where each hole is drawn: a pixel layout of the axial grid, turned so that the
 * viewing player's point is at the bottom (the in-browser game page: "each player sees
 * the star with their own point at the bottom").
 *
 * Unrotated, a step to (l+1, r) goes right by one unit and a step to (l, r+1) goes up
 * and half a unit right, so `m1` is the bottom tip and `e17` the top tip.
 */
import { COLOURS, type Colour } from "../colour";
import { ALL_HOLES, axialOf, type HoleName } from "./hole";

/** A point in board units (one unit between neighbouring holes), y pointing down. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

const SQRT3_2 = Math.sqrt(3) / 2;

/** Position of a hole with white's point at the bottom and `i9` at the origin. */
export function basePosition(name: HoleName): Point {
  const a = axialOf(name);
  const x = a.l - 9 + (a.r - 9) / 2;
  const y = -(a.r - 9) * SQRT3_2;
  return { x, y };
}

/**
 * Angle (radians, clockwise on screen) that turns the star so that `bottom`'s point
 * is at the bottom. Seats follow each other clockwise, 60° apart.
 */
export function rotationFor(bottom: Colour): number {
  return (-COLOURS.indexOf(bottom) * Math.PI) / 3;
}

/** Position of a hole on a star turned so that `bottom`'s point is at the bottom. */
export function position(name: HoleName, bottom: Colour): Point {
  const p = basePosition(name);
  const t = rotationFor(bottom);
  const c = Math.cos(t);
  const s = Math.sin(t);
  const x = p.x * c - p.y * s;
  const y = p.x * s + p.y * c;
  // Round away floating noise so tests and SVG output are stable.
  return { x: Math.round(x * 1e6) / 1e6 + 0, y: Math.round(y * 1e6) / 1e6 + 0 };
}

/** Positions of all holes for one orientation. */
export function layout(bottom: Colour): Map<HoleName, Point> {
  return new Map(ALL_HOLES.map((h) => [h, position(h, bottom)]));
}

/** Screen direction for the arrow keys. */
export type Arrow = "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight";

const ARROW_VECTOR: Record<Arrow, Point> = {
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
};

/**
 * The hole an arrow key moves the keyboard cursor to: the nearest hole lying within
 * 60° of the arrow's direction on screen, favouring holes straight ahead. `null` at
 * the edge of the star.
 */
export function arrowTarget(
  from: HoleName,
  arrow: Arrow,
  positions: Map<HoleName, Point>,
): HoleName | null {
  const p = positions.get(from);
  if (!p) return null;
  const dir = ARROW_VECTOR[arrow];
  let best: HoleName | null = null;
  let bestScore = Infinity;
  for (const [h, q] of positions) {
    if (h === from) continue;
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const dist = Math.hypot(dx, dy);
    const along = (dx * dir.x + dy * dir.y) / dist;
    if (along < 0.49) continue; // outside the 60° cone
    const score = dist * (2 - along);
    if (score < bestScore - 1e-9) {
      bestScore = score;
      best = h;
    }
  }
  return best;
}

/**
 * Corners of the star's outline (six tips, the base corners of every point and the
 * six corners of the hexagon between them), in order around the centre. The star
 * looks the same from every seat, so one outline serves every orientation.
 */
export function starOutline(): Point[] {
  const corners: Point[] = [];
  for (const name of ["m5", "m9", "i13", "e13", "e9", "i5"]) corners.push(basePosition(name));
  for (const [tip, a, b] of [
    ["m1", "j4", "m4"],
    ["q5", "n5", "n8"],
    ["m13", "m10", "j13"],
    ["e17", "e14", "h14"],
    ["a13", "d13", "d10"],
    ["e5", "e8", "h5"],
  ]) {
    for (const n of [tip, a, b]) corners.push(basePosition(n));
  }
  return corners.sort((p, q) => Math.atan2(p.y, p.x) - Math.atan2(q.y, q.x));
}
