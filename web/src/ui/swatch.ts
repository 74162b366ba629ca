/** A small marble drawn as inline SVG, for player panels and legends. */
import { MARBLE_STYLE, type Colour } from "../colour";
import { markPath } from "../board/marks";

/** An inline SVG marble of `colour` with its shape mark. */
export function swatch(colour: Colour): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-0.5 -0.5 1 1");
  svg.setAttribute("class", "swatch");
  svg.setAttribute("aria-hidden", "true");
  const style = MARBLE_STYLE[colour];
  const body = document.createElementNS(ns, "circle");
  body.setAttribute("r", "0.4");
  body.setAttribute("fill", style.fill);
  body.setAttribute("stroke", style.stroke);
  body.setAttribute("stroke-width", "0.06");
  const mark = document.createElementNS(ns, "path");
  mark.setAttribute("d", markPath(style.mark));
  mark.setAttribute("fill", style.markColour);
  mark.setAttribute("fill-rule", "evenodd");
  svg.append(body, mark);
  return svg;
}
