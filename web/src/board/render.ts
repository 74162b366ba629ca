/**
 * Draws a {@link BoardState} as SVG. The elements are built once; each redraw only
 * updates attributes, so focus and hover survive redraws.
 *
 * Test hooks: every hole is a `<g data-hole="m1">`; it carries `data-marble="<colour>"`
 * while a marble stands there and `data-dest` while it is a marked destination.
 */
import { MARBLE_STYLE, type Colour } from "../colour";
import { ALL_HOLES, type HoleName } from "../geometry/hole";
import { layout, starOutline, type Point } from "../geometry/layout";
import { markPath } from "./marks";
import { outline } from "./hull";
import { canPick } from "./actions";
import { foreignHoles, selectedDests, type BoardState } from "./state";

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
  /** Polyline of the last move. */
  readonly lastPath: SVGPolylineElement;
  /** Polyline of the previewed move. */
  readonly previewPath: SVGPolylineElement;
  /** Gold outline of the goal. */
  readonly goalOutline: SVGPolygonElement;
  /** Orientation the positions were last computed for. */
  orientation: Colour | null;
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
  const svg = el("svg", { viewBox: "-7.3 -7.55 14.6 15.1", class: "board", role: "group" });
  const star = el("polygon", {
    class: "star-bg",
    points: starOutline().map((p) => `${p.x},${p.y}`).join(" "),
  });
  const goalOutline = el("polygon", { class: "goal-outline" });
  const lastPath = el("polyline", { class: "path last-path" });
  const previewPath = el("polyline", { class: "path preview-path" });
  svg.append(star, goalOutline, lastPath);
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
  svg.append(holeLayer, previewPath);
  return { svg, holes, lastPath, previewPath, goalOutline, orientation: null };
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
  }
  view.svg.setAttribute("aria-label", s.labels.board);
  const dests = selectedDests(s);
  const foreign = foreignHoles(s, ALL_HOLES);
  // Keep the board in the Tab order even when nothing can move: the cursor hole is
  // then the one stop, and the arrow keys explore from there.
  const anyReachable = s.movable !== null && s.dests.size > 0;
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
    g.setAttribute("aria-label", s.labels.hole(name, colour, isDest));
    toggleAttr(g, "aria-pressed", s.selected === name, "true");
  }
  view.lastPath.setAttribute("points", pathPoints(s.lastMove, pos));
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
