/**
 * Draws a {@link BoardState} as SVG. The elements are built once; each redraw only
 * updates attributes, so focus and hover survive redraws.
 *
 * Test hooks: every hole is a `<g data-hole="m1">`; it carries `data-marble="<colour>"`
 * while a marble stands there, `data-dest` while it is a marked destination, and
 * `data-last="<colour>"` while it is the start or end of that colour's marked last move.
 */
import { MARBLE_STYLE, type Colour } from "../colour";
import { ALL_HOLES, type HoleName } from "../geometry/hole";
import { basePosition, layout, rotationFor, starOutline, type Point } from "../geometry/layout";
import { pointOf } from "../geometry/points";
import { opposite } from "../colour";
import { markPath } from "./marks";
import { outline } from "./hull";
import { canPick } from "./actions";
import { foreignHoles, selectedDests, type BoardState, type HoleArea, type Zoom } from "./state";

/** The whole board's view box: left, top, width, height in board units (1 = hole spacing). */
export const FULL_VIEW = [-7.3, -7.55, 14.6, 15.1] as const;

/** The view box showing `zoom`, kept inside the whole board's box; the whole box for `null`. */
export function viewBoxOf(zoom: Zoom | null): [number, number, number, number] {
  const [left, top, width, height] = FULL_VIEW;
  if (!zoom || zoom.factor <= 1) return [left, top, width, height];
  const w = width / zoom.factor;
  const h = height / zoom.factor;
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return [clamp(zoom.x - w / 2, left, left + width - w), clamp(zoom.y - h / 2, top, top + height - h), w, h];
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** The SVG elements of one hole. */
interface HoleView {
  /** The focusable group carrying the test hooks. */
  readonly group: SVGGElement;
  /** The pit of the hole. */
  readonly pit: SVGCircleElement;
  /** The marble body (hidden when the hole is empty). */
  readonly marble: SVGCircleElement;
  /** The shape mark on the marble. */
  readonly mark: SVGPathElement;
}

/** The drawn board: its root element and the handles a redraw needs. */
export interface BoardView {
  /** The `<svg>` element. */
  readonly svg: SVGSVGElement;
  /** Hole elements by name. */
  readonly holes: Map<HoleName, HoleView>;
  /** Layer of the marked last moves, drawn above the marbles. */
  readonly marks: SVGGElement;
  /** Layer of the letters and row numbers along the edges. */
  readonly coords: SVGGElement;
  /** A marble drawn above everything: the one being animated or dragged. */
  readonly flyer: SVGGElement;
  /** Polyline of the previewed move. */
  readonly previewPath: SVGPolylineElement;
  /** Gold outline of the goal. */
  readonly goalOutline: SVGPolygonElement;
  /** Orientation the positions were last computed for. */
  orientation: Colour | null;
  /** Zoom the view box was last set for (the board animates between view boxes). */
  zoom: BoardState["zoom"];
}

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Builds the SVG elements of an empty board. */
export function createView(): BoardView {
  const svg = el("svg", { viewBox: FULL_VIEW.join(" "), class: "board", role: "group" });
  const star = el("polygon", {
    class: "star-bg",
    points: starOutline().map((p) => `${p.x},${p.y}`).join(" "),
  });
  const goalOutline = el("polygon", { class: "goal-outline" });
  const marks = el("g", { class: "marks", "aria-hidden": "true" });
  const coords = el("g", { class: "coords", "aria-hidden": "true" });
  const previewPath = el("polyline", { class: "path preview-path" });
  const flyer = el("g", { class: "flyer", "aria-hidden": "true", visibility: "hidden" });
  flyer.append(el("circle", { class: "flyer-marble", r: "0.4" }), el("path", { class: "flyer-mark", "fill-rule": "evenodd" }));
  svg.append(star, goalOutline, coords);
  const holes = new Map<HoleName, HoleView>();
  const holeLayer = el("g", { class: "holes" });
  for (const name of ALL_HOLES) {
    const group = el("g", { class: "hole", "data-hole": name, role: "button", tabindex: "-1" });
    // An invisible disc filling the hole's cell, so that taps need not hit the pit.
    const hit = el("circle", { class: "hit", r: "0.5", fill: "transparent" });
    const pit = el("circle", { class: "pit", r: "0.3" });
    const marble = el("circle", { class: "marble", r: "0.4" });
    const mark = el("path", { class: "mark", "fill-rule": "evenodd" });
    const ring = el("circle", { class: "ring", r: "0.5" });
    group.append(hit, pit, marble, mark, ring);
    holeLayer.append(group);
    holes.set(name, { group, pit, marble, mark });
  }
  svg.append(holeLayer, marks, previewPath, flyer);
  return { svg, holes, marks, coords, flyer, previewPath, goalOutline, orientation: null, zoom: null };
}

function pathPoints(path: readonly HoleName[] | null, pos: Map<HoleName, Point>): string {
  if (!path) return "";
  return path
    .map((h) => pos.get(h))
    .filter((p): p is Point => !!p)
    .map((p) => `${p.x},${p.y}`)
    .join(" ");
}

/** Brings the SVG up to date with the state. */
export function render(view: BoardView, s: BoardState): void {
  const pos = layout(s.orientation);
  if (view.orientation !== s.orientation) {
    for (const [name, h] of view.holes) {
      const p = pos.get(name)!;
      h.group.setAttribute("transform", `translate(${p.x} ${p.y})`);
    }
    view.orientation = s.orientation;
    drawCoords(view, s.orientation);
  }
  view.coords.setAttribute("visibility", s.coords ? "visible" : "hidden");
  if (view.zoom !== s.zoom) {
    view.svg.setAttribute("viewBox", viewBoxOf(s.zoom).join(" "));
    view.zoom = s.zoom;
  }
  view.svg.classList.toggle("zoomed", s.zoom !== null);
  view.svg.setAttribute("aria-label", s.labels.board);
  const dests = selectedDests(s);
  const foreign = foreignHoles(s, ALL_HOLES);
  // Keep the board in the Tab order even when nothing can move: the cursor hole is
  // then the one stop, and the arrow keys explore from there.
  const anyReachable = s.movable !== null && s.dests.size > 0;
  const lastAt = new Map<HoleName, Colour>();
  for (const m of s.marks) {
    lastAt.set(m.path[0], m.colour);
    lastAt.set(m.path[m.path.length - 1], m.colour);
  }
  for (const [name, h] of view.holes) {
    const colour = s.pieces.get(name) ?? null;
    const g = h.group;
    if (colour) {
      const style = MARBLE_STYLE[colour];
      g.setAttribute("data-marble", colour);
      h.marble.setAttribute("fill", style.fill);
      h.marble.setAttribute("stroke", style.stroke);
      h.mark.setAttribute("d", markPath(style.mark));
      h.mark.setAttribute("fill", style.markColour);
    } else {
      g.removeAttribute("data-marble");
      h.mark.setAttribute("d", "");
    }
    const isDest = dests.has(name);
    toggleAttr(g, "data-dest", isDest);
    g.classList.toggle("dest", isDest);
    g.classList.toggle("eliminates", isDest && dests.get(name)!.eliminates);
    g.classList.toggle("selected", s.selected === name);
    g.classList.toggle("movable", !s.selected && canPick(s, name));
    g.classList.toggle("foreign", foreign.has(name));
    g.classList.toggle("cursor", s.cursor === name);
    const reachable = isDest || canPick(s, name) || s.selected === name || (!anyReachable && s.cursor === name);
    g.setAttribute("tabindex", reachable ? "0" : "-1");
    g.setAttribute("aria-label", s.labels.hole(name, colour, isDest, areaOf(name, s.orientation)));
    const last = lastAt.get(name);
    if (last) g.setAttribute("data-last", last);
    else g.removeAttribute("data-last");
    toggleAttr(g, "aria-pressed", s.selected === name, "true");
  }
  drawMarks(view, s, pos);
  const preview = s.preview ? dests.get(s.preview)?.path ?? null : null;
  view.previewPath.setAttribute("points", pathPoints(preview, pos));
  view.goalOutline.setAttribute(
    "points",
    outline(
      s.goal.map((h) => pos.get(h)!).filter(Boolean),
      0.55,
    ),
  );
}

function toggleAttr(e: Element, name: string, on: boolean, value = ""): void {
  if (on) e.setAttribute(name, value);
  else e.removeAttribute(name);
}

/** Which area a hole is in for the player seated at `seat`. */
export function areaOf(name: HoleName, seat: Colour): HoleArea {
  const p = pointOf(name);
  if (p === null) return "centre";
  if (p === seat) return "home";
  if (p === opposite(seat)) return "goal";
  return "foreign";
}

/** Draws each marked move: its path over the marbles and rings on its two ends. */
function drawMarks(view: BoardView, s: BoardState, pos: Map<HoleName, Point>): void {
  while (view.marks.firstChild) view.marks.firstChild.remove();
  for (const m of s.marks) {
    const style = MARBLE_STYLE[m.colour];
    const points = pathPoints(m.path, pos);
    const g = el("g", { class: "mark-move", "data-colour": m.colour });
    g.append(
      el("polyline", { class: "path mark-under", points, stroke: style.stroke }),
      el("polyline", { class: "path mark-line", points, stroke: style.fill }),
    );
    const ends: [HoleName, string][] = [[m.path[0], "mark-from"], [m.path[m.path.length - 1], "mark-to"]];
    for (const [hole, cls] of ends) {
      const p = pos.get(hole);
      if (!p) continue;
      g.append(el("circle", { class: `mark-ring ${cls}`, cx: String(p.x), cy: String(p.y), r: "0.47", stroke: style.stroke }));
      g.append(el("circle", { class: `mark-ring-fill ${cls}`, cx: String(p.x), cy: String(p.y), r: "0.47", stroke: style.fill }));
    }
    view.marks.append(g);
  }
}

/** Turns a point of the unrotated layout by the rotation of `bottom`'s view. */
function turn(p: Point, bottom: Colour): Point {
  const t = rotationFor(bottom);
  return { x: p.x * Math.cos(t) - p.y * Math.sin(t), y: p.x * Math.sin(t) + p.y * Math.cos(t) };
}

/**
 * Draws the row numbers left of each row and the letters below each oblique line,
 * as white's side sees them, turned with the board.
 */
function drawCoords(view: BoardView, bottom: Colour): void {
  while (view.coords.firstChild) view.coords.firstChild.remove();
  const label = (text: string, at: Point) => {
    const p = turn(at, bottom);
    const e = el("text", { x: p.x.toFixed(3), y: p.y.toFixed(3), class: "coord" });
    e.textContent = text;
    view.coords.append(e);
  };
  const rows = new Map<number, HoleName>();
  const lines = new Map<string, HoleName>();
  for (const name of ALL_HOLES) {
    const r = Number(name.slice(1));
    if (!rows.has(r)) rows.set(r, name); // ALL_HOLES runs left to right in each row
    if (!lines.has(name[0])) lines.set(name[0], name); // and from the bottom row up
  }
  for (const [r, first] of rows) {
    const p = basePosition(first);
    label(String(r), { x: p.x - 0.78, y: p.y });
  }
  for (const [letter, lowest] of lines) {
    const p = basePosition(lowest);
    label(letter, { x: p.x - 0.36, y: p.y + 0.66 });
  }
}
