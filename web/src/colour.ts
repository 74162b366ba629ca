/**
 * The six seat colours, their order around the star and how each is drawn
 * (docs/rules.md §2). The palette follows Okabe–Ito so that the colours stay apart for
 * colour-blind players, and every colour also carries a mark of its own shape.
 */

/** A seat colour, as the engine names it. */
export type Colour = "white" | "red" | "blue" | "black" | "yellow" | "green";

/** Seats clockwise from the bottom point; white moves first. */
export const COLOURS: readonly Colour[] = ["white", "red", "blue", "black", "yellow", "green"];

/** The shape of the mark drawn on a marble of each colour. */
export type MarkShape = "dot" | "triangle" | "square" | "diamond" | "cross" | "ring";

/** How a marble of a colour is drawn. */
export interface MarbleStyle {
  /** Fill of the marble. */
  readonly fill: string;
  /** Outline of the marble. */
  readonly stroke: string;
  /** Colour of the mark drawn on it. */
  readonly markColour: string;
  /** Shape of the mark drawn on it. */
  readonly mark: MarkShape;
}

/** Fill, outline and mark of each colour. */
export const MARBLE_STYLE: Readonly<Record<Colour, MarbleStyle>> = {
  white: { fill: "#f7f7f2", stroke: "#555", markColour: "#444", mark: "dot" },
  red: { fill: "#d55e00", stroke: "#7a3600", markColour: "#fff", mark: "triangle" },
  blue: { fill: "#0072b2", stroke: "#003d60", markColour: "#fff", mark: "square" },
  black: { fill: "#262626", stroke: "#000", markColour: "#fff", mark: "diamond" },
  yellow: { fill: "#f0e442", stroke: "#8a8000", markColour: "#333", mark: "cross" },
  green: { fill: "#009e73", stroke: "#00573f", markColour: "#fff", mark: "ring" },
};

/** Whether a string is a colour name. */
export function isColour(s: string): s is Colour {
  return (COLOURS as readonly string[]).includes(s);
}

/** The colour whose home is opposite: its home is this colour's goal. */
export function opposite(c: Colour): Colour {
  return COLOURS[(COLOURS.indexOf(c) + 3) % 6];
}
