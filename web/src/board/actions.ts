/**
 * State changes caused by the person at the board: free functions over
 * {@link BoardState}. None of them draws; the caller redraws afterwards.
 */
import type { Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import { arrowTarget, layout, type Arrow } from "../geometry/layout";
import { selectedDests, type BoardState, type Zoom } from "./state";

/** Puts the picked-up marble back down. */
export function deselect(s: BoardState): void {
  s.selected = null;
  s.preview = null;
}

/** Whether the marble on `hole` may be picked up now. */
export function canPick(s: BoardState, hole: HoleName): boolean {
  return (
    s.movable !== null &&
    s.pieces.get(hole) === s.movable &&
    (s.dests.get(hole)?.length ?? 0) > 0
  );
}

/**
 * A click, a tap or Enter on `hole`: move there if it is a destination of the
 * picked-up marble, otherwise pick up the marble standing there, otherwise put the
 * marble down. Returns whether a move was made.
 */
export function activate(s: BoardState, hole: HoleName): boolean {
  s.cursor = hole;
  const move = selectedDests(s).get(hole);
  if (move) {
    deselect(s);
    // The move is made: show the whole board again.
    s.zoom = null;
    s.onMove(move);
    return true;
  }
  if (canPick(s, hole) && s.selected !== hole) {
    s.selected = hole;
    s.preview = null;
  } else {
    deselect(s);
  }
  return false;
}

/** The pointer or focus is over `hole`: draw its path if it is a destination. */
export function hover(s: BoardState, hole: HoleName | null): void {
  s.preview = hole !== null && selectedDests(s).has(hole) ? hole : null;
}

/** Moves the keyboard cursor with an arrow key; returns the new cursor hole. */
export function moveCursor(s: BoardState, arrow: Arrow): HoleName {
  const next = arrowTarget(s.cursor, arrow, layout(s.orientation));
  if (next) {
    s.cursor = next;
    hover(s, next);
  }
  return s.cursor;
}

/** Replaces the position and the legal moves, e.g. after any player has moved. */
export function setPosition(
  s: BoardState,
  pieces: Map<HoleName, Colour>,
  movable: BoardState["movable"],
  dests: BoardState["dests"],
  marks: BoardState["marks"],
): void {
  s.pieces = pieces;
  s.movable = movable;
  s.dests = dests;
  s.marks = marks;
  if (s.selected && !s.dests.has(s.selected)) deselect(s);
  if (s.selected && s.pieces.get(s.selected) !== s.movable) deselect(s);
}

/** Magnifies the board `factor` times around board point (`x`, `y`). */
export function zoomAt(s: BoardState, x: number, y: number, factor: number): Zoom {
  s.zoom = { x, y, factor };
  return s.zoom;
}

/** Shows the whole board again. */
export function zoomOut(s: BoardState): void {
  s.zoom = null;
}
