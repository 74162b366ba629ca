/**
 * Draws a rules diagram as a small static SVG picture with the board's own geometry
 * (hole positions, star outline), marble colours and marks, and goal outline. It is a
 * picture, not a playable board: nothing in it takes focus or clicks.
 *
 * Test hooks: the `<svg>` carries `data-diagram="<id>"`; every marble is a
 * `<g data-hole="…" data-marble="<colour>">`, every drawn move a
 * `<polyline data-move="<kind>">`, every marked hole a `<g data-mark="<kind>">`.
 */
import { COLOURS, MARBLE_STYLE, opposite, type Colour } from "../../colour";
import { ALL_HOLES, type HoleName } from "../../geometry/hole";
import { position, starOutline, type Point } from "../../geometry/layout";
import { pointHoles, HEXAGON } from "../../geometry/points";
import { outline } from "../../board/hull";
import { markPath } from "../../board/marks";
import type { Diagram, DiagramId, DiagramMark, DiagramMove } from "./figures";

const SVG_NS = "http://www.w3.org/2000/svg";

/** The board's colours, as on the playing board. */
const LOOK = {
  star: "#e9dcc0",
  pit: "#8c7b5d",
  gold: "#c9a227",
  goalFill: "rgba(212, 160, 23, 0.14)",
  move: "#0b5cad",
  bad: "#a40000",
  end: "#1b7f3b",
  text: "#3d3424",
} as const;

/** Margin around a cropped picture, in board units. */
const FRAME_MARGIN = 0.85;

/** Marker ids must be unique in the document; each picture gets its own. */
let pictures = 0;

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function at(h: HoleName): Point {
  return position(h, "white");
}

function pointsAttr(ps: readonly Point[]): string {
  return ps.map((p) => `${p.x},${p.y}`).join(" ");
}

/** The viewBox of a picture: the frame holes with a margin, or the whole star. */
export function viewBoxOf(d: Diagram): string {
  if (!d.frame || d.frame.length === 0) return "-7.3 -7.55 14.6 15.1";
  const ps = d.frame.map(at);
  const minX = Math.min(...ps.map((p) => p.x)) - FRAME_MARGIN;
  const maxX = Math.max(...ps.map((p) => p.x)) + FRAME_MARGIN;
  const minY = Math.min(...ps.map((p) => p.y)) - FRAME_MARGIN;
  const maxY = Math.max(...ps.map((p) => p.y)) + FRAME_MARGIN;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return `${r(minX)} ${r(minY)} ${r(maxX - minX)} ${r(maxY - minY)}`;
}

/** The holes of `c`'s home, 10 or (with 15 marbles) 15. */
function homeOf(c: Colour, fifteen: boolean): HoleName[] {
  const point = pointHoles(c);
  if (!fifteen) return point;
  const centre = at("i9");
  const tip = point.map(at).reduce((a, b) => (dist(a, centre) > dist(b, centre) ? a : b));
  // The five hexagon holes of the edge facing the point are its nearest hexagon holes.
  const edge = [...HEXAGON].sort((a, b) => dist(at(a), tip) - dist(at(b), tip)).slice(0, 5);
  return [...point, ...edge];
}

function dist(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** A polyline along `path`, shortened at both ends so marble and arrowhead show. */
function moveLine(m: DiagramMove, markerId: string): SVGPolylineElement {
  const ps = m.path.map(at);
  const trim = (from: Point, to: Point, by: number): Point => {
    const d = dist(from, to) || 1;
    return { x: from.x + ((to.x - from.x) * by) / d, y: from.y + ((to.y - from.y) * by) / d };
  };
  const n = ps.length;
  const pts = [...ps];
  pts[0] = trim(ps[0], ps[1], 0.3);
  pts[n - 1] = trim(ps[n - 1], ps[n - 2], 0.2);
  const kind = m.kind ?? "move";
  const colour = kind === "bad" ? LOOK.bad : LOOK.move;
  const line = el("polyline", {
    points: pointsAttr(pts),
    fill: "none",
    stroke: colour,
    "stroke-width": 0.13,
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "marker-end": `url(#${markerId}-${kind})`,
    "data-move": kind,
  });
  if (kind === "bad") line.setAttribute("stroke-dasharray", "0.28 0.14");
  return line;
}

function arrowMarker(id: string, colour: string): SVGMarkerElement {
  const marker = el("marker", {
    id,
    viewBox: "0 0 10 10",
    refX: 6,
    refY: 5,
    markerWidth: 3.6,
    markerHeight: 3.6,
    orient: "auto",
  });
  marker.append(el("path", { d: "M 0 0 L 10 5 L 0 10 Z", fill: colour }));
  return marker;
}

function markGroup(m: DiagramMark): SVGGElement {
  const p = at(m.hole);
  const g = el("g", { transform: `translate(${p.x} ${p.y})`, "data-mark": m.kind, "data-hole": m.hole });
  switch (m.kind) {
    case "end":
      g.append(el("circle", { r: 0.47, fill: "none", stroke: LOOK.end, "stroke-width": 0.08 }));
      break;
    case "forbidden":
      for (const d of ["M -0.28 -0.28 L 0.28 0.28", "M -0.28 0.28 L 0.28 -0.28"]) {
        g.append(el("path", { d, stroke: LOOK.bad, "stroke-width": 0.12, "stroke-linecap": "round" }));
      }
      break;
    case "excused":
      g.append(
        el("circle", {
          r: 0.52,
          fill: "none",
          stroke: LOOK.gold,
          "stroke-width": 0.1,
          "stroke-dasharray": "0.16 0.1",
        }),
      );
      break;
  }
  return g;
}

/** Draws diagram `id` with `label` as its accessible name. */
export function drawDiagram(id: DiagramId, d: Diagram, label: string): SVGSVGElement {
  const n = ++pictures;
  const svg = el("svg", {
    viewBox: viewBoxOf(d),
    class: "rules-diagram",
    role: "img",
    "aria-label": label,
    "data-diagram": id,
  });
  const title = el("title");
  title.textContent = label;
  const defs = el("defs");
  const markerBase = `rules-arrow-${n}`;
  defs.append(arrowMarker(`${markerBase}-move`, LOOK.move), arrowMarker(`${markerBase}-bad`, LOOK.bad));
  svg.append(title, defs);
  svg.append(
    el("polygon", {
      points: pointsAttr(starOutline()),
      fill: LOOK.star,
      stroke: LOOK.star,
      "stroke-width": 1.3,
      "stroke-linejoin": "round",
    }),
  );
  for (const c of d.tint ?? []) {
    svg.append(
      el("polygon", {
        points: outline(homeOf(c, !!d.fifteen).map(at), 0.45),
        fill: MARBLE_STYLE[c].fill,
        "fill-opacity": c === "white" ? 0.55 : 0.3,
        stroke: "none",
        "data-point": c,
      }),
    );
  }
  for (const c of d.goals ?? []) {
    svg.append(
      el("polygon", {
        points: outline(homeOf(opposite(c), !!d.fifteen).map(at), 0.55),
        fill: LOOK.goalFill,
        stroke: LOOK.gold,
        "stroke-width": 0.12,
        "stroke-linejoin": "round",
        "data-goal": c,
      }),
    );
  }
  const holes = el("g");
  for (const h of ALL_HOLES) {
    const p = at(h);
    holes.append(el("circle", { cx: p.x, cy: p.y, r: 0.3, fill: LOOK.pit }));
  }
  svg.append(holes);
  for (const c of COLOURS) {
    for (const h of d.marbles[c] ?? []) {
      const p = at(h);
      const style = MARBLE_STYLE[c];
      const g = el("g", { transform: `translate(${p.x} ${p.y})`, "data-hole": h, "data-marble": c });
      g.append(
        el("circle", { r: 0.4, fill: style.fill, stroke: style.stroke, "stroke-width": 0.05 }),
        el("path", { d: markPath(style.mark), fill: style.markColour, "fill-rule": "evenodd" }),
      );
      svg.append(g);
    }
  }
  for (const m of d.marks ?? []) svg.append(markGroup(m));
  for (const m of d.moves ?? []) svg.append(moveLine(m, markerBase));
  for (const h of d.names ?? []) {
    // Beside the hole, towards the inside of the star, with a halo so that the
    // holes behind the name do not hide it.
    const p = at(h);
    const right = p.x <= 4;
    const text = el("text", {
      x: p.x + (right ? 0.42 : -0.42),
      y: p.y + 0.22,
      "text-anchor": right ? "start" : "end",
      "font-size": 0.62,
      "font-family": "sans-serif",
      "font-weight": "bold",
      fill: LOOK.text,
      stroke: LOOK.star,
      "stroke-width": 0.18,
      "paint-order": "stroke",
    });
    text.textContent = h;
    svg.append(text);
  }
  return svg;
}
