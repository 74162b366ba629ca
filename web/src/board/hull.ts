/** Outline around a group of holes, used for the gold goal outline. */
import type { Point } from "../geometry/layout";

/** Convex hull of points (Andrew's monotone chain), counter-clockwise. */
export function convexHull(points: readonly Point[]): Point[] {
  const ps = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  const cross = (o: Point, a: Point, b: Point) =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of ps) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 1e-9)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (const p of [...ps].reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 1e-9)
      upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The hull pushed outwards from its centre by `margin`, as SVG polygon points. */
export function outline(points: readonly Point[], margin: number): string {
  const hull = convexHull(points);
  if (hull.length === 0) return "";
  const cx = hull.reduce((s, p) => s + p.x, 0) / hull.length;
  const cy = hull.reduce((s, p) => s + p.y, 0) / hull.length;
  return hull
    .map((p) => {
      const dx = p.x - cx;
      const dy = p.y - cy;
      const d = Math.hypot(dx, dy) || 1;
      return `${(p.x + (dx / d) * margin).toFixed(3)},${(p.y + (dy / d) * margin).toFixed(3)}`;
    })
    .join(" ");
}
