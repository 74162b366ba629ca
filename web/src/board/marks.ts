/**
 * SVG shapes of the marks drawn on marbles, so that colours differ by shape too.
 * Coordinates are in board units around the marble's centre.
 */
import type { MarkShape } from "../colour";

/** SVG path data of a mark of the given shape, sized for a marble of radius 0.4. */
export function markPath(shape: MarkShape): string {
  switch (shape) {
    case "dot":
      return "M -0.09 0 a 0.09 0.09 0 1 0 0.18 0 a 0.09 0.09 0 1 0 -0.18 0 Z";
    case "triangle":
      return "M 0 -0.17 L 0.16 0.12 L -0.16 0.12 Z";
    case "square":
      return "M -0.13 -0.13 H 0.13 V 0.13 H -0.13 Z";
    case "diamond":
      return "M 0 -0.19 L 0.15 0 L 0 0.19 L -0.15 0 Z";
    case "cross":
      return "M -0.05 -0.18 H 0.05 V -0.05 H 0.18 V 0.05 H 0.05 V 0.18 H -0.05 V 0.05 H -0.18 V -0.05 H -0.05 Z";
    case "ring":
      return "M -0.16 0 a 0.16 0.16 0 1 0 0.32 0 a 0.16 0.16 0 1 0 -0.32 0 Z M -0.08 0 a 0.08 0.08 0 1 1 0.16 0 a 0.08 0.08 0 1 1 -0.16 0 Z";
  }
}
