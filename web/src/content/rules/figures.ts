/**
 * The board diagrams of the rules page: which marbles stand where, which moves are
 * drawn and which holes are marked. They are the same in every language; only their
 * captions are translated (in the language files beside this one). Every board is
 * seen from white's side, white's home at the bottom.
 */
import type { Colour } from "../../colour";
import type { HoleName } from "../../geometry/hole";

/** The diagrams, by the name the language files use. */
export type DiagramId =
  | "start"
  | "board"
  | "seats"
  | "step"
  | "jump"
  | "chain"
  | "foreign"
  | "goal"
  | "walled"
  | "afterDeadline"
  | "arrival"
  | "long"
  | "symmetric"
  | "fifteen"
  | "masters";

/**
 * How a drawn move is meant: `move` one that may be played, `bad` one that may not
 * be played or that costs its player the game (drawn red and dashed).
 */
export type MoveKind = "move" | "bad";

/** A drawn move: the holes its marble visits, start first. */
export interface DiagramMove {
  readonly path: readonly HoleName[];
  readonly kind?: MoveKind;
}

/**
 * A mark on a hole: `end` a hole where the move may stop, `forbidden` one where it
 * may not, `excused` a marble excused from the home-leaving deadline.
 */
export interface DiagramMark {
  readonly hole: HoleName;
  readonly kind: "end" | "forbidden" | "excused";
}

/** One diagram. */
export interface Diagram {
  /** The marbles on the board, by colour. */
  readonly marbles: Readonly<Partial<Record<Colour, readonly HoleName[]>>>;
  /** Moves drawn as arrows along their paths. */
  readonly moves?: readonly DiagramMove[];
  /** Marked holes. */
  readonly marks?: readonly DiagramMark[];
  /** Players whose goal is outlined in gold. */
  readonly goals?: readonly Colour[];
  /** Points shaded in the colour of the seat whose home they are. */
  readonly tint?: readonly Colour[];
  /** Holes whose names are written beside them. */
  readonly names?: readonly HoleName[];
  /** Holes the picture is cropped to (the whole star when absent). */
  readonly frame?: readonly HoleName[];
  /** Homes drawn as 15-hole triangles (the 15-marble variants). */
  readonly fifteen?: boolean;
}

const WHITE_HOME = ["m1", "l2", "m2", "k3", "l3", "m3", "j4", "k4", "l4", "m4"];
const BLACK_HOME = ["e17", "e16", "f16", "e15", "f15", "g15", "e14", "f14", "g14", "h14"];
const BLUE_HOME = ["a13", "b13", "c13", "d13", "b12", "c12", "d12", "c11", "d11", "d10"];
const YELLOW_HOME = ["j13", "k13", "l13", "m13", "j12", "k12", "l12", "j11", "k11", "j10"];

/** The holes around `centre` up to two steps away, for cropping. */
function around(centre: HoleName, extra: readonly HoleName[] = []): HoleName[] {
  const l = centre.charCodeAt(0);
  const r = Number(centre.slice(1));
  const out: HoleName[] = [];
  for (let dl = -2; dl <= 2; dl++) {
    for (let dr = -2; dr <= 2; dr++) {
      if (Math.abs(dl + dr) <= 2) out.push(`${String.fromCharCode(l + dl)}${r + dr}`);
    }
  }
  return [...out, ...extra];
}

/** Every diagram of the rules page. */
export const DIAGRAMS: Readonly<Record<DiagramId, Diagram>> = {
  start: { marbles: { white: WHITE_HOME, black: BLACK_HOME }, goals: ["white"] },
  board: {
    marbles: {},
    tint: ["white", "red", "blue", "black", "yellow", "green"],
    names: ["m1", "e17", "i9", "a13", "q5"],
  },
  seats: {
    marbles: { white: WHITE_HOME, blue: BLUE_HOME, yellow: YELLOW_HOME },
    goals: ["white", "blue", "yellow"],
  },
  step: {
    marbles: { white: ["i9"] },
    moves: [
      { path: ["i9", "h9"] },
      { path: ["i9", "j9"] },
      { path: ["i9", "i10"] },
      { path: ["i9", "i8"] },
      { path: ["i9", "h10"] },
      { path: ["i9", "j8"] },
    ],
    frame: around("i9"),
  },
  jump: {
    marbles: { white: ["i7"], black: ["i8"] },
    moves: [{ path: ["i7", "i9"] }],
    marks: [{ hole: "i9", kind: "end" }],
    frame: around("i8"),
  },
  chain: {
    marbles: { white: ["i5", "h8"], black: ["i6", "g10"] },
    moves: [{ path: ["i5", "i7", "g9", "g11"] }],
    marks: [
      { hole: "i7", kind: "end" },
      { hole: "g9", kind: "end" },
      { hole: "g11", kind: "end" },
    ],
    frame: ["i5", "g11", "j5", "f11", "j8", "f8"],
  },
  foreign: {
    marbles: { white: ["h7"], black: ["g7", "f8"] },
    moves: [{ path: ["h7", "f7", "f9"] }],
    marks: [
      { hole: "f7", kind: "forbidden" },
      { hole: "f9", kind: "end" },
    ],
    tint: ["red"],
    frame: ["e5", "e8", "h5", "i7", "f10", "i9"],
  },
  goal: {
    marbles: { white: ["f15", "g14"], black: ["g13"] },
    moves: [{ path: ["f15", "f16"] }, { path: ["g14", "g12"], kind: "bad" }],
    marks: [
      { hole: "f16", kind: "end" },
      { hole: "g12", kind: "forbidden" },
    ],
    goals: ["white"],
    frame: ["e17", "e12", "j12", "h14", "i11"],
  },
  walled: {
    marbles: { white: ["m1", "i9", "h10"], black: ["l2", "m2", "k3", "m3"] },
    marks: [{ hole: "m1", kind: "excused" }],
    tint: ["white"],
    frame: ["m1", "j4", "m4", "i5", "m6", "j6"],
  },
  afterDeadline: {
    marbles: { white: ["m1", "j5"], black: ["l2", "k3", "m3"] },
    moves: [{ path: ["m1", "m2"] }, { path: ["j5", "j4"], kind: "bad" }],
    marks: [{ hole: "m1", kind: "excused" }],
    tint: ["white"],
    frame: ["m1", "j4", "m4", "i5", "m6", "j6"],
  },
  arrival: {
    marbles: {
      white: ["e16", "f16", "e15", "f15", "g15", "e14", "f14", "g14", "h14"],
      black: ["e17", "i9", "j8"],
    },
    goals: ["white"],
    frame: ["e17", "e12", "j12", "h14"],
  },
  long: {
    marbles: { white: ["i5", "i7"], black: ["i6", "i8"] },
    moves: [{ path: ["i5", "i9"] }],
    marks: [{ hole: "i9", kind: "end" }],
    frame: ["i5", "i10", "g7", "k7"],
  },
  symmetric: {
    marbles: { white: ["i5"], black: ["i8"] },
    moves: [{ path: ["i5", "i11"] }],
    marks: [{ hole: "i11", kind: "end" }],
    frame: ["i5", "i12", "g8", "k8"],
  },
  fifteen: {
    marbles: {
      white: [...WHITE_HOME, "i5", "j5", "k5", "l5", "m5"],
      black: [...BLACK_HOME, "e13", "f13", "g13", "h13", "i13"],
    },
    goals: ["white"],
    fifteen: true,
  },
  masters: {
    marbles: { white: ["h12", "f15", "e16"], black: ["h13", "h14"] },
    moves: [{ path: ["h12", "h14"] }],
    marks: [{ hole: "h14", kind: "end" }],
    goals: ["white"],
    frame: ["e17", "e12", "j12", "h14"],
  },
};
