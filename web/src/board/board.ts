/**
 * The board component: an SVG view of a {@link BoardState} wired to mouse, touch and
 * keyboard. A move is made by click-click (tap-tap) or by dragging a marble to its
 * destination (pointer events). Redraws are batched with `requestAnimationFrame`.
 *
 * Magnified pick: where the holes lie less than {@link MIN_TOUCH_SPACING_PX} apart on
 * screen (a phone), a tap with a finger first zooms the board around the tapped spot
 * so that the holes are comfortably far apart; the next taps pick and play there.
 * Playing a move, the "whole board" button, Escape or a tap outside the board zoom
 * back out. Mouse and keyboard input never zoom.
 */
import { MARBLE_STYLE, type Colour } from "../colour";
import type { HoleName } from "../geometry/hole";
import { layout, type Arrow, type Point } from "../geometry/layout";
import { activate, canPick, deselect, hover, moveCursor, zoomAt, zoomOut } from "./actions";
import { markPath } from "./marks";
import { createView, render, viewBoxOf, type BoardView } from "./render";
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

/** Smallest distance (CSS px) between neighbouring holes that a finger picks reliably. */
export const MIN_TOUCH_SPACING_PX = 40;

/** Hole distance (CSS px) a magnified board aims at, a little above the minimum. */
const ZOOM_SPACING_PX = 48;

/** Duration of the zoom animation. */
const ZOOM_MS = 180;

/** Distance (CSS px) between neighbouring holes as the board is drawn now. */
export function holeSpacingPx(svg: SVGSVGElement): number {
  // One board unit is the distance between neighbouring holes.
  return svg.getScreenCTM()?.a ?? 0;
}

/** Whether a click came from a finger (or another coarse pointer) rather than a mouse. */
function isTouch(e: MouseEvent, lastPointerType: string): boolean {
  const type = (e as PointerEvent).pointerType || lastPointerType;
  if (type === "touch") return true;
  return type !== "mouse" && type !== "" && matchMedia("(pointer: coarse)").matches;
}

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
function boardPoint(svg: SVGSVGElement, e: MouseEvent): Point {
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
  const wholeBoard = document.createElement("button");
  wholeBoard.type = "button";
  wholeBoard.className = "board-unzoom";
  container.classList.add("board-box-zoomable");
  container.append(view.svg, wholeBoard);
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
        wholeBoard.textContent = state.labels.zoomOut;
      });
    },
    redrawNow() {
      render(view, state);
      wholeBoard.textContent = state.labels.zoomOut;
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

  // The view box follows state.zoom; this animates the change instead of jumping.
  let zoomAnimation = 0;
  const showZoom = () => {
    if (view.zoom === state.zoom) return;
    const from = (view.svg.getAttribute("viewBox") ?? "").split(" ").map(Number);
    const to = viewBoxOf(state.zoom);
    view.zoom = state.zoom;
    view.svg.classList.toggle("zoomed", state.zoom !== null);
    const token = ++zoomAnimation;
    const set = (box: readonly number[]) => view.svg.setAttribute("viewBox", box.join(" "));
    if (from.length !== 4 || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      set(to);
      return;
    }
    const started = performance.now();
    const frame = (now: number) => {
      if (token !== zoomAnimation) return;
      const t = Math.min(1, Math.max(0, (now - started) / ZOOM_MS));
      const e = 1 - (1 - t) * (1 - t);
      set(to.map((v, i) => from[i] + (v - from[i]) * e));
      if (t < 1) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };
  const unzoom = () => {
    if (!state.zoom) return;
    zoomOut(state);
    showZoom();
    render(view, state);
  };
  wholeBoard.addEventListener("click", unzoom);
  const tapOutside = (e: PointerEvent) => {
    if (!view.svg.isConnected) {
      document.removeEventListener("pointerdown", tapOutside);
      return;
    }
    const target = e.target as Node | null;
    if (state.zoom && target && !view.svg.contains(target) && !wholeBoard.contains(target)) unzoom();
  };
  document.addEventListener("pointerdown", tapOutside);
  let lastPointerType = "";

  // Drag and drop: press a marble that can move, drag it onto a marked hole, let go.
  let press: { hole: HoleName; x: number; y: number; id: number } | null = null;
  let dragging = false;
  let swallowClick = false;
  view.svg.addEventListener("pointerdown", (e) => {
    lastPointerType = e.pointerType;
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
    showZoom();
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
    if (!state.zoom && state.movable !== null && isTouch(e, lastPointerType)) {
      const spacing = holeSpacingPx(view.svg);
      if (spacing > 0 && spacing < MIN_TOUCH_SPACING_PX) {
        const p = boardPoint(view.svg, e);
        zoomAt(state, p.x, p.y, Math.max(2, ZOOM_SPACING_PX / spacing));
        showZoom();
        render(view, state);
        return;
      }
    }
    const hole = holeOf(e.target);
    if (!hole) return;
    activate(state, hole);
    showZoom();
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
        zoomOut(state);
        showZoom();
        render(view, state);
        break;
      default:
        return;
    }
    e.preventDefault();
  });
  render(view, state);
  wholeBoard.textContent = state.labels.zoomOut;
  return board;
}
