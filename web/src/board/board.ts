/**
 * The board component: an SVG view of a {@link BoardState} wired to mouse, touch and
 * keyboard. Redraws are batched with `requestAnimationFrame`.
 */
import type { HoleName } from "../geometry/hole";
import type { Arrow } from "../geometry/layout";
import { activate, deselect, hover, moveCursor } from "./actions";
import { createView, render, type BoardView } from "./render";
import type { BoardState } from "./state";

/** A board mounted in the page. */
export interface Board {
  /** The state; change it, then call {@link Board.redraw}. */
  readonly state: BoardState;
  /** The SVG view. */
  readonly view: BoardView;
  /** Schedules a redraw on the next animation frame. */
  redraw(): void;
  /** Redraws at once (used before reading the DOM, e.g. in tests). */
  redrawNow(): void;
}

function holeOf(target: EventTarget | null): HoleName | null {
  const g = (target as Element | null)?.closest?.("[data-hole]");
  return g ? g.getAttribute("data-hole") : null;
}

/** Mounts a board for `state` into `container`. */
export function mountBoard(container: HTMLElement, state: BoardState): Board {
  const view = createView();
  container.append(view.svg);
  let scheduled = false;
  const board: Board = {
    state,
    view,
    redraw() {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        render(view, state);
      });
    },
    redrawNow() {
      render(view, state);
    },
  };
  const focusCursor = () => view.holes.get(state.cursor)?.group.focus();

  view.svg.addEventListener("click", (e) => {
    const hole = holeOf(e.target);
    if (!hole) return;
    activate(state, hole);
    board.redraw();
  });
  view.svg.addEventListener("pointerover", (e) => {
    const hole = holeOf(e.target);
    if (!hole || !state.selected) return;
    hover(state, hole);
    board.redraw();
  });
  view.svg.addEventListener("pointerleave", () => {
    hover(state, null);
    board.redraw();
  });
  view.svg.addEventListener("focusin", (e) => {
    const hole = holeOf(e.target);
    if (!hole) return;
    state.cursor = hole;
    hover(state, hole);
    board.redraw();
  });
  view.svg.addEventListener("keydown", (e) => {
    switch (e.key) {
      case "ArrowUp":
      case "ArrowDown":
      case "ArrowLeft":
      case "ArrowRight":
        moveCursor(state, e.key as Arrow);
        render(view, state);
        focusCursor();
        break;
      case "Enter":
      case " ":
        activate(state, state.cursor);
        render(view, state);
        focusCursor();
        break;
      case "Escape":
        deselect(state);
        render(view, state);
        break;
      default:
        return;
    }
    e.preventDefault();
  });
  render(view, state);
  return board;
}
