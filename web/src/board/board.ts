/**
 * The board component: an SVG view of a {@link BoardState} wired to mouse, touch and
 * keyboard. A move is made by click-click (tap-tap) or by dragging a marble to its
 * destination (pointer events). Redraws are batched with `requestAnimationFrame`.
 */
import { MARBLE_STYLE, type Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import { layout, type Arrow, type Point } from "../geometry/layout";
import { activate, canPick, deselect, hover, moveCursor } from "./actions";
import { markPath } from "./marks";
import { createView, render, type BoardView } from "./render";
import { selectedDests, type BoardState } from "./state";

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
  /**
   * Moves a marble of `colour` along `path` above the board, `msPerHop` per hop;
   * resolves when it has arrived (the caller puts the marble down in the state), or
   * as soon as `stopped` answers true.
   */
  fly(colour: Colour, path: readonly HoleName[], msPerHop: number, stopped?: () => boolean): Promise<void>;
}

/** Pointer travel (px) after which pressing a marble becomes dragging it. */
const DRAG_START_PX = 6;

/** Shows the floating marble of `colour` at board point `p`, or hides it. */
function placeFlyer(view: BoardView, colour: Colour | null, p?: Point): void {
  if (!colour || !p) {
    view.flyer.setAttribute("visibility", "hidden");
    return;
  }
  const style = MARBLE_STYLE[colour];
  const [body, mark] = view.flyer.children as unknown as [SVGCircleElement, SVGPathElement];
  body.setAttribute("fill", style.fill);
  body.setAttribute("stroke", style.stroke);
  mark.setAttribute("d", markPath(style.mark));
  mark.setAttribute("fill", style.markColour);
  view.flyer.setAttribute("transform", `translate(${p.x} ${p.y})`);
  view.flyer.setAttribute("visibility", "visible");
}

/** The board point under a pointer event. */
function boardPoint(svg: SVGSVGElement, e: PointerEvent): Point {
  const m = svg.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

/** The hole under the pointer, looked up by position (the dragged marble covers it). */
function holeAt(e: PointerEvent): HoleName | null {
  return holeOf(document.elementFromPoint(e.clientX, e.clientY));
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
    fly(colour, path, msPerHop, stopped = () => false) {
      const pos = layout(state.orientation);
      const points = path.map((h) => pos.get(h)).filter((p): p is Point => !!p);
      if (points.length < 2 || msPerHop <= 0) return Promise.resolve();
      const started = performance.now();
      const total = msPerHop * (points.length - 1);
      return new Promise((resolve) => {
        const frame = (now: number) => {
          if (stopped()) {
            placeFlyer(view, null);
            resolve();
            return;
          }
          // A frame may be stamped a little before the animation started.
          const t = Math.min(1, Math.max(0, (now - started) / total));
          const at = t * (points.length - 1);
          const i = Math.min(points.length - 2, Math.floor(at));
          const f = at - i;
          // Ease each hop so the marble visibly lands on every hole of a chain.
          const e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
          const a = points[i];
          const b = points[i + 1];
          placeFlyer(view, colour, { x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e });
          if (t < 1) requestAnimationFrame(frame);
          else {
            placeFlyer(view, null);
            resolve();
          }
        };
        requestAnimationFrame(frame);
      });
    },
  };
  const focusCursor = () => view.holes.get(state.cursor)?.group.focus();

  // Drag and drop: press a marble that can move, drag it onto a marked hole, let go.
  let press: { hole: HoleName; x: number; y: number; id: number } | null = null;
  let dragging = false;
  let swallowClick = false;
  view.svg.addEventListener("pointerdown", (e) => {
    const hole = holeOf(e.target);
    if (!hole || e.button !== 0 || !canPick(state, hole)) return;
    press = { hole, x: e.clientX, y: e.clientY, id: e.pointerId };
  });
  view.svg.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!dragging) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_START_PX) return;
      dragging = true;
      view.svg.setPointerCapture(e.pointerId);
      if (state.selected !== press.hole) activate(state, press.hole);
      view.svg.classList.add("dragging");
      render(view, state);
    }
    const colour = state.pieces.get(press.hole) ?? null;
    placeFlyer(view, colour, boardPoint(view.svg, e));
    const over = holeAt(e);
    if (over !== state.preview) {
      hover(state, over);
      board.redraw();
    }
  });
  const endDrag = (e: PointerEvent, drop: boolean) => {
    if (!press || e.pointerId !== press.id) return;
    const wasDragging = dragging;
    press = null;
    dragging = false;
    if (!wasDragging) return;
    view.svg.classList.remove("dragging");
    placeFlyer(view, null);
    if (drop) {
      swallowClick = true;
      setTimeout(() => (swallowClick = false), 0);
    }
    const target = drop ? holeAt(e) : null;
    if (target && selectedDests(state).has(target)) activate(state, target);
    else hover(state, null);
    render(view, state);
  };
  view.svg.addEventListener("pointerup", (e) => endDrag(e, true));
  view.svg.addEventListener("pointercancel", (e) => endDrag(e, false));

  view.svg.addEventListener("click", (e) => {
    if (swallowClick) {
      // The click that ends a drag is not a second tap.
      swallowClick = false;
      return;
    }
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
