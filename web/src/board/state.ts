/**
 * The board's state: one plain object that the rest of the client fills in and the
 * renderer draws (chessground style). The board holds no rules: legal moves come from
 * the engine through {@link BoardState.dests}.
 */
import type { Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import { pointOf } from "../geometry/points";
import { opposite } from "../colour";

/** One legal move as the engine describes it. */
export interface LegalMove {
  /** Hole the marble starts from. */
  readonly from: HoleName;
  /** Hole where the move ends. */
  readonly to: HoleName;
  /** Canonical path, starting hole first, e.g. `["m1", "m3", "k5"]`. */
  readonly path: readonly HoleName[];
  /** Whether the move would eliminate the mover (docs/rules.md §5): ask first. */
  readonly eliminates: boolean;
}

/** A move drawn on the board as some seat's last move. */
export interface MoveMark {
  /** Colour that made it. */
  readonly colour: Colour;
  /** Its path, start first. */
  readonly path: readonly HoleName[];
}

/** Where a hole lies for the player seen at the bottom: their home, goal, another point, or the centre. */
export type HoleArea = "home" | "goal" | "foreign" | "centre";

/** Words the board needs for its accessible labels, in the current language. */
export interface BoardLabels {
  /** Label of a hole: its name, what stands there and the area it lies in. */
  hole(name: HoleName, marble: Colour | null, isDest: boolean, area: HoleArea): string;
  /** Label of the whole board. */
  board: string;
  /** Label of the button that zooms a magnified board back out. */
  zoomOut: string;
}

/** A magnified part of the board: its centre in board units and the magnification. */
export interface Zoom {
  /** Board point shown in the middle. */
  readonly x: number;
  /** Board point shown in the middle. */
  readonly y: number;
  /** Magnification, above 1. */
  readonly factor: number;
}

/** Everything the board draws and how it reacts to the person in front of it. */
export interface BoardState {
  /** Seat whose point is drawn at the bottom. */
  orientation: Colour;
  /** Marbles standing on the board, by hole. */
  pieces: Map<HoleName, Colour>;
  /** Colour the person at this screen may move now; `null` while they may not move. */
  movable: Colour | null;
  /** Legal moves of {@link movable}, grouped by starting hole. */
  dests: Map<HoleName, LegalMove[]>;
  /** Hole of the marble that has been picked up. */
  selected: HoleName | null;
  /** Destination under the pointer or the keyboard focus whose path is drawn. */
  preview: HoleName | null;
  /** Hole the keyboard cursor is on. */
  cursor: HoleName;
  /** Moves drawn as the players' last moves, oldest first (a later one wins a shared hole). */
  marks: readonly MoveMark[];
  /** Whether the letters and row numbers are drawn along the edges of the star. */
  coords: boolean;
  /** Holes of the viewing player's goal, outlined in gold. */
  goal: readonly HoleName[];
  /** Magnified part of the board shown for touch picks on small screens, or `null`. */
  zoom: Zoom | null;
  /** Called when the person makes a move. */
  onMove: (move: LegalMove) => void;
  /** Accessible labels in the current language. */
  labels: BoardLabels;
}

/** A fresh state seen from `orientation`'s side, with nothing movable yet. */
export function initialState(
  orientation: Colour,
  labels: BoardLabels,
  onMove: (move: LegalMove) => void,
): BoardState {
  return {
    orientation,
    pieces: new Map(),
    movable: null,
    dests: new Map(),
    selected: null,
    preview: null,
    cursor: "i9",
    marks: [],
    coords: false,
    goal: [],
    zoom: null,
    onMove,
    labels,
  };
}

/** Groups a list of legal moves by their starting hole. */
export function groupMoves(moves: readonly LegalMove[]): Map<HoleName, LegalMove[]> {
  const out = new Map<HoleName, LegalMove[]>();
  for (const m of moves) {
    const list = out.get(m.from);
    if (list) list.push(m);
    else out.set(m.from, [m]);
  }
  return out;
}

/** The moves of the picked-up marble, by destination. */
export function selectedDests(s: BoardState): Map<HoleName, LegalMove> {
  const out = new Map<HoleName, LegalMove>();
  if (s.selected) for (const m of s.dests.get(s.selected) ?? []) out.set(m.to, m);
  return out;
}

/**
 * Holes shaded grey while a marble is picked up: the points that are neither the
 * mover's home nor its goal, where a move may not end (docs/rules.md §3).
 */
export function foreignHoles(s: BoardState, holes: readonly HoleName[]): Set<HoleName> {
  const out = new Set<HoleName>();
  if (!s.selected) return out;
  const mover = s.pieces.get(s.selected);
  if (!mover) return out;
  const goal = opposite(mover);
  for (const h of holes) {
    const p = pointOf(h);
    if (p !== null && p !== mover && p !== goal) out.add(h);
  }
  return out;
}
