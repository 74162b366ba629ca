/**
 * Draws the engine's best line on the board: one arrow per move along its path,
 * numbered in the order of play, the first bold and the later ones fainter.
 */
import type { Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import { layout } from "../geometry/layout";

const SVG_NS = "http://www.w3.org/2000/svg";

/** How many moves of the line are drawn. */
const SHOWN = 4;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** The layer of the best line in a board's SVG, made on first use. */
function layerOf(svg: SVGSVGElement): SVGGElement {
  const known = svg.querySelector<SVGGElement>("g.best-line");
  if (known) return known;
  const defs = el("defs", {});
  const marker = el("marker", {
    id: "best-line-head", viewBox: "0 0 10 10", refX: "6", refY: "5",
    markerWidth: "3.2", markerHeight: "3.2", orient: "auto-start-reverse",
  });
  marker.append(el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "best-line-head" }));
  defs.append(marker);
  const layer = el("g", { class: "best-line", "aria-hidden": "true", "data-best-line": "" });
  svg.append(defs, layer);
  return layer;
}

/** Draws the first moves of `pv` (hole paths joined by `-`) seen from `orientation`; an empty line clears it. */
export function drawBestLine(svg: SVGSVGElement, orientation: Colour, pv: readonly string[]): void {
  const layer = layerOf(svg);
  while (layer.firstChild) layer.firstChild.remove();
  const pos = layout(orientation);
  pv.slice(0, SHOWN).forEach((move, i) => {
    const holes = move.split("-") as HoleName[];
    const points = holes.map((h) => pos.get(h)).filter((p) => p !== undefined);
    if (points.length < 2) return;
    const g = el("g", { class: "best-move", "data-step": String(i + 1), "data-path": move, opacity: String(1 - i * 0.2) });
    g.append(el("polyline", {
      class: i === 0 ? "best-line-path first" : "best-line-path",
      points: points.map((p) => `${p.x},${p.y}`).join(" "),
      "marker-end": "url(#best-line-head)",
    }));
    const end = points[points.length - 1];
    const label = el("text", { class: "best-line-step", x: end.x.toFixed(3), y: (end.y - 0.52).toFixed(3) });
    label.textContent = String(i + 1);
    g.append(label);
    layer.append(g);
  });
}
