/**
 * Holes of the star board and their names (docs/rules.md §1).
 *
 * A hole is named by an oblique line `a`–`q` (left to right) and a row `1`–`17`
 * (bottom to top): `m1` is the bottom tip, `e17` the top tip, `i9` the centre.
 * Its axial coordinates are (l, r) with l the letter index 1–17 and r the row.
 *
 * ```text
 *              e17            row 17
 *            ...              ...
 *   e13 ........... q13       row 13: 13 holes
 *            i9               centre
 *   a5 ............ m5        row 5: 13 holes
 *            ...
 *              m1             row 1
 * ```
 */

/** A hole name such as `"m1"`. */
export type HoleName = string;

/** Axial coordinates of a hole: letter index 1–17 and row 1–17. */
export interface Axial {
  /** Oblique line, 1 (`a`) to 17 (`q`). */
  readonly l: number;
  /** Row, 1 (bottom) to 17 (top). */
  readonly r: number;
}

/** Cube coordinates centred on `i9`: x = l − 9, y = r − 9, z = −x − y. */
export interface Cube {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

const LETTERS = "abcdefghijklmnopq";

/** Cube coordinates of axial (l, r). */
export function cubeOf(a: Axial): Cube {
  const x = a.l - 9;
  const y = a.r - 9;
  return { x, y, z: -x - y };
}

/** Whether axial (l, r) is one of the 121 holes of the star. */
export function exists(a: Axial): boolean {
  if (a.l < 1 || a.l > 17 || a.r < 1 || a.r > 17) return false;
  const { x, y, z } = cubeOf(a);
  return (x >= -4 && y >= -4 && z >= -4) || (x <= 4 && y <= 4 && z <= 4);
}

/** The name of an existing hole, e.g. `{l: 13, r: 1}` → `"m1"`. */
export function nameOf(a: Axial): HoleName {
  return `${LETTERS[a.l - 1]}${a.r}`;
}

/** Parses a hole name; `null` when it is not a hole of the star. */
export function parseHole(name: string): Axial | null {
  const m = /^([a-q])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const a = { l: LETTERS.indexOf(m[1]) + 1, r: Number(m[2]) };
  return exists(a) ? a : null;
}

/** Axial coordinates of a hole name that is known to be valid. */
export function axialOf(name: HoleName): Axial {
  const a = parseHole(name);
  if (!a) throw new Error(`not a hole: ${name}`);
  return a;
}

/** All 121 holes, row by row from the bottom, left to right in each row. */
export const ALL_HOLES: readonly HoleName[] = (() => {
  const out: HoleName[] = [];
  for (let r = 1; r <= 17; r++) {
    for (let l = 1; l <= 17; l++) {
      if (exists({ l, r })) out.push(nameOf({ l, r }));
    }
  }
  return out;
})();

/** The six axial directions: (l±1, r), (l, r±1), (l−1, r+1), (l+1, r−1). */
export const DIRECTIONS: readonly Axial[] = [
  { l: 1, r: 0 },
  { l: -1, r: 0 },
  { l: 0, r: 1 },
  { l: 0, r: -1 },
  { l: -1, r: 1 },
  { l: 1, r: -1 },
];

/** The neighbouring holes of a hole (up to six). */
export function neighbours(name: HoleName): HoleName[] {
  const a = axialOf(name);
  return DIRECTIONS.map((d) => ({ l: a.l + d.l, r: a.r + d.r }))
    .filter(exists)
    .map(nameOf);
}

/** Distance in steps between two holes on the hexagonal grid. */
export function distance(a: HoleName, b: HoleName): number {
  const p = cubeOf(axialOf(a));
  const q = cubeOf(axialOf(b));
  return Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y), Math.abs(p.z - q.z));
}
