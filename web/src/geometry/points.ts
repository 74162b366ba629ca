/**
 * The six points (10-hole triangles) of the star and the central hexagon
 * (docs/rules.md §1–2). A point is named after the colour whose home it is.
 */
import type { Colour } from "../colour";
import { ALL_HOLES, axialOf, cubeOf, type HoleName } from "./hole";

/** The point a hole lies in, or `null` for the 61 holes of the central hexagon. */
export function pointOf(name: HoleName): Colour | null {
  const { x, y, z } = cubeOf(axialOf(name));
  if (y <= -5) return "white";
  if (z >= 5) return "red";
  if (x <= -5) return "blue";
  if (y >= 5) return "black";
  if (z <= -5) return "yellow";
  if (x >= 5) return "green";
  return null;
}

/** The ten holes of a colour's point, bottom row first. */
export function pointHoles(c: Colour): HoleName[] {
  return ALL_HOLES.filter((h) => pointOf(h) === c);
}

/** The holes of the central hexagon. */
export const HEXAGON: readonly HoleName[] = ALL_HOLES.filter((h) => pointOf(h) === null);
