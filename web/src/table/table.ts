/**
 * A game table: the board, one panel per player (colour, name or computer level,
 * "N of 10 arrived", clock), a status line, the controls of the page using it, the
 * move list grouped by round, and the end of the game in words. Used by offline play,
 * online tables and replays.
 *
 * Every move made since the viewer's last turn is shown: the moves new since the last
 * call of {@link Table.show} are animated one after another along their paths (unless
 * animation is off), and each other seat's last move stays marked in its colour. A
 * polite live region reads out those moves, and only those.
 */
import type { Colour } from "../colour";
import { mountBoard, type Board } from "../board/board";
import { initialState, groupMoves, type LegalMove, type MoveMark } from "../board/state";
import { setPosition } from "../board/actions";
import type { GameView } from "../engine/protocol";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import { h, clear } from "../ui/dom";
import { swatch } from "../ui/swatch";
import { boardLabels, colourName, formatClock } from "./labels";
import { confirmDialog } from "../ui/confirm";
import { lastMoves, rebuildHistory, type History } from "./history";
import { headline, reasonSentence } from "./ending";
import { animateMoves, setAnimateMoves, setShowCoords, showCoords } from "./prefs";

/** Who sits in a seat, as the table shows it. */
export interface SeatInfo {
  /** Seat colour. */
  readonly colour: Colour;
  /** Display name: a person's name, "You", or "computer (level N)". */
  readonly name: string;
  /** Remaining time in milliseconds, or `null` without a clock. */
  readonly clockMs?: number | null;
}

/** What the person at this screen may do now. */
export interface TableTurn {
  /** Colour they may move now, or `null`. */
  readonly movable: Colour | null;
  /** Seat whose point is drawn at the bottom. */
  readonly orientation: Colour;
  /** Status line. */
  readonly status: string;
  /** The seat of the one person playing at this screen, if there is exactly one. */
  readonly me?: Colour | null;
}

/** Milliseconds per hop of an animated move. */
const HOP_MS = 170;
/** Pause after each animated move, so consecutive moves stay apart. */
const AFTER_MOVE_MS = 160;
/** More new moves than this (a reload, a resynchronisation) are not animated. */
const MAX_ANIMATED = 6;

/** A mounted table. */
export class Table {
  /** Root element. */
  readonly root: HTMLElement;
  /** The board. */
  readonly board: Board;
  /** Slot for the page's buttons. */
  readonly controls: HTMLElement;
  /** The side panel beside (or below) the board; pages may put lines at its top. */
  readonly side: HTMLElement;
  /** Slot for the page's buttons shown with the result (e.g. "Play again"). */
  readonly resultActions: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly players: HTMLElement;
  private readonly status: HTMLElement;
  private readonly announce: HTMLElement;
  private readonly result: HTMLElement;
  private readonly moveList: HTMLOListElement;
  private readonly moveHelp: HTMLElement;
  private readonly review: HTMLElement;
  private readonly options: HTMLElement;
  private lastView: GameView | null = null;
  private lastSeats: readonly SeatInfo[] = [];
  private lastTurn: TableTurn | null = null;
  private history: History = { moves: [], before: [new Map()] };
  /** Moves of the game whose result the board shows (less while animating). */
  private displayed: readonly string[] = [];
  private displayedVariant = "";
  /** Bumped by every show, so an animation of an older one stops. */
  private generation = 0;
  private animation: Promise<void> = Promise.resolve();
  private animating = false;
  /** Number of moves of the position shown while looking back, or `null` for the game. */
  private reviewPly: number | null = null;

  /**
   * `onMove` receives the path of a move the person made, after they confirmed it
   * when it eliminates them (`eliminates` is then true).
   */
  constructor(private readonly onMove: (path: string, eliminates: boolean) => void) {
    const boardBox = h("div", { class: "board-box", id: "board", tabindex: "-1" });
    this.heading = h("h1", { class: "visually-hidden" });
    this.players = h("ul", { class: "players" });
    this.status = h("p", { class: "status", role: "status" });
    this.announce = h("p", { class: "last-move", "aria-live": "polite", "data-announce": true });
    this.result = h("section", { class: "result", hidden: true, "data-result": true });
    this.resultActions = h("div", { class: "result-actions" });
    this.controls = h("div", { class: "controls" });
    this.moveList = h("ol", { class: "move-list", "aria-describedby": "move-list-help" });
    this.moveHelp = h("p", { class: "help", id: "move-list-help" });
    this.review = h("div", { class: "review", hidden: true });
    this.options = h("div", { class: "table-options" });
    this.root = h(
      "div",
      { class: "table" },
      h("a", { href: "#board", class: "skip-link", onclick: (e: Event) => this.skipToBoard(e) }),
      boardBox,
      (this.side = h("aside", { class: "side" }, this.players, this.status, this.review, this.announce, this.result, this.controls,
        h("details", { class: "moves" }, h("summary", {}), this.moveHelp, this.moveList), this.options)),
    );
    const state = initialState("white", boardLabels, (m) => void this.attempt(m));
    state.coords = showCoords();
    this.board = mountBoard(boardBox, state);
    this.buildOptions();
    this.moveList.addEventListener("click", (e) => {
      const ply = (e.target as Element).closest?.("[data-ply]")?.getAttribute("data-ply");
      if (ply) this.showPly(Number(ply));
    });
    this.moveList.addEventListener("keydown", (e) => this.listKey(e));
  }

  /** Gives the table the page's heading (visually hidden: the board speaks for itself). */
  setHeading(text: string): void {
    if (!this.heading.isConnected) this.root.prepend(this.heading);
    this.heading.textContent = text;
  }

  private skipToBoard(e: Event): void {
    e.preventDefault();
    const hole = this.board.view.svg.querySelector<SVGGElement>('[data-hole][tabindex="0"]');
    (hole ?? (this.board.view.svg.parentElement as HTMLElement)).focus();
  }

  private async attempt(move: LegalMove): Promise<void> {
    if (move.eliminates) {
      const ok = await confirmDialog(t("table.confirmEliminate"), t("table.confirm"), t("table.cancel"));
      if (!ok) return;
    }
    this.board.state.movable = null;
    this.board.redraw();
    // The person's own move is not animated: they just made it.
    this.displayed = [...this.displayed, move.path.join("-")];
    this.onMove(move.path.join("-"), move.eliminates);
  }

  /** Resolves once the moves of the last {@link show} have been animated. */
  settled(): Promise<void> {
    return this.animation;
  }

  /** Shows one moment of a game, animating the moves made since the last one shown. */
  show(view: GameView, seats: readonly SeatInfo[], turn: TableTurn): void {
    this.lastView = view;
    this.lastSeats = seats;
    this.lastTurn = turn;
    const pieces = new Map<HoleName, Colour>(Object.entries(view.pieces) as [HoleName, Colour][]);
    this.history = rebuildHistory(pieces, view.moves);
    const shown = this.displayed;
    const continues =
      this.displayedVariant === view.variant &&
      shown.length <= view.moves.length &&
      shown.every((m, i) => view.moves[i] === m);
    this.displayedVariant = view.variant;
    this.relabel();
    // A running animation reads the newest view as it goes, and draws it at the end.
    if (this.animating && continues) return;
    const fresh = continues ? view.moves.length - shown.length : 0;
    const offset = view.moves.length - this.history.moves.length;
    const animate = animateMoves() && fresh > 0 && fresh <= MAX_ANIMATED && shown.length >= offset;
    const generation = ++this.generation;
    this.animating = false;
    if (!animate) {
      this.displayed = view.moves;
      this.drawGame();
      this.animation = Promise.resolve();
      return;
    }
    this.animating = true;
    this.animation = this.play(generation);
  }

  /** Animates the moves not yet displayed one after another, then draws the game as it is now. */
  private async play(generation: number): Promise<void> {
    const s = this.board.state;
    const stopped = () => generation !== this.generation;
    for (;;) {
      const view = this.lastView!;
      const ply = this.displayed.length;
      const i = ply - (view.moves.length - this.history.moves.length);
      if (ply >= view.moves.length || i < 0) break;
      const m = this.history.moves[i];
      if (this.reviewPly === null) {
        const before = new Map(this.history.before[i]);
        before.delete(m.path[0]);
        setPosition(s, before, null, new Map(), this.marksUpTo(i));
        this.board.redrawNow();
        await this.board.fly(m.colour, m.path, HOP_MS, stopped);
        if (stopped()) return;
        setPosition(s, new Map(this.history.before[i + 1]), null, new Map(), this.marksUpTo(i + 1));
        this.board.redrawNow();
        await new Promise((r) => setTimeout(r, AFTER_MOVE_MS));
        if (stopped()) return;
      }
      this.displayed = view.moves.slice(0, ply + 1);
    }
    this.animating = false;
    this.displayed = this.lastView!.moves;
    this.drawGame();
  }

  /** Marks as they stand after the first `n` moves of the history. */
  private marksUpTo(n: number): MoveMark[] {
    const seats = this.lastView?.seats.length ?? 2;
    const partial: History = { moves: this.history.moves.slice(0, n), before: this.history.before.slice(0, n + 1) };
    return lastMoves(partial, this.lastTurn?.me ?? this.lastTurn?.orientation ?? null, seats);
  }

  /** Draws the game as it is now (or the moment being looked back at). */
  private drawGame(): void {
    const view = this.lastView;
    const turn = this.lastTurn;
    if (!view || !turn) return;
    const s = this.board.state;
    s.orientation = turn.orientation;
    s.goal = view.goals[turn.orientation] ?? [];
    const ply = this.reviewPly;
    if (ply !== null) {
      const offset = view.moves.length - this.history.moves.length;
      const i = Math.max(0, Math.min(this.history.moves.length, ply - offset));
      const m = this.history.moves[i - 1];
      setPosition(s, new Map(this.history.before[i]), null, new Map(), m ? [{ colour: m.colour, path: m.path }] : []);
    } else {
      const movable = view.outcome ? null : turn.movable;
      const pieces = new Map<HoleName, Colour>(Object.entries(view.pieces) as [HoleName, Colour][]);
      setPosition(s, pieces, movable, movable ? groupMoves(view.legal) : new Map(), this.marksUpTo(this.history.moves.length));
    }
    // Draw the board now, so that it never lags behind the panel and status.
    this.board.redrawNow();
  }

  /** Shows the board after `ply` moves without leaving the game; the game's own ply returns to it. */
  showPly(ply: number): void {
    const view = this.lastView;
    if (!view) return;
    const total = view.moves.length;
    this.reviewPly = ply >= total || ply < 0 ? null : ply;
    this.drawGame();
    this.relabel();
    const current = this.moveList.querySelector<HTMLElement>(`[data-ply="${Math.min(Math.max(ply, 1), total)}"]`);
    if (this.reviewPly !== null) current?.focus();
  }

  private listKey(e: KeyboardEvent): void {
    const total = this.lastView?.moves.length ?? 0;
    const now = this.reviewPly ?? total;
    let next: number | null = null;
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(1, now - 1);
    else if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(total, now + 1);
    else if (e.key === "Home") next = 1;
    else if (e.key === "End" || e.key === "Escape") next = total;
    if (next === null) return;
    e.preventDefault();
    this.showPly(next);
    this.moveList.querySelector<HTMLElement>(`[data-ply="${next}"]`)?.focus();
  }

  /** Redraws every text in the language in use. */
  relabel(): void {
    const view = this.lastView;
    const turn = this.lastTurn;
    this.board.redraw();
    (this.root.querySelector(".moves summary") as HTMLElement).textContent = t("table.moves");
    (this.root.querySelector(".skip-link") as HTMLElement).textContent = t("table.skipToBoard");
    this.moveHelp.textContent = t("table.moveListHelp");
    this.renderOptions();
    if (!view || !turn) return;
    clear(this.players);
    for (const seat of this.lastSeats) {
      const arrived = view.arrived[seat.colour] ?? 0;
      const place = view.outcome?.places[seat.colour];
      const toMove = !view.outcome && view.toMove === seat.colour;
      this.players.append(
        h(
          "li",
          { class: `player${toMove ? " to-move" : ""}`, "data-seat": seat.colour },
          swatch(seat.colour),
          h("span", { class: "who" },
            h("strong", {}, colourName(seat.colour)), " · ", h("span", { class: "name" }, seat.name)),
          h("span", { class: "arrived", "data-arrived": arrived },
            t("player.arrived", { n: arrived, total: view.marbles })),
          seat.clockMs != null ? h("span", { class: "clock", "data-clock": seat.colour }, formatClock(seat.clockMs)) : null,
          place ? h("span", { class: "place" }, t("player.place", { place })) : null,
          toMove ? h("span", { class: "turn-mark" }, t("player.toMove")) : null,
        ),
      );
    }
    this.status.textContent = view.outcome ? "" : turn.status;
    this.renderAnnouncement(view, turn);
    this.renderReview(view);
    this.renderResult(view, turn);
    this.renderMoveList(view);
  }

  /** The moves since the viewer's last move, read out once (the live region only changes with them). */
  private renderAnnouncement(view: GameView, turn: TableTurn): void {
    const viewer = turn.me ?? turn.orientation;
    const moves = this.history.moves;
    let from = moves.length;
    while (from > 0 && moves[from - 1].colour !== viewer && moves.length - from < view.seats.length) from--;
    if (from === moves.length && from > 0) from--; // the viewer's own move, when it is the last
    const text = moves
      .slice(from)
      .map((m) => t("table.played", { colour: colourName(m.colour), path: m.path.join("-") }))
      .join(" ");
    if (this.announce.textContent !== text) this.announce.textContent = text;
  }

  private renderReview(view: GameView): void {
    clear(this.review);
    this.review.hidden = this.reviewPly === null;
    if (this.reviewPly === null) return;
    this.review.append(
      h("p", {}, t("table.reviewing", { n: this.reviewPly, total: view.moves.length })),
      h("button", { type: "button", "data-action": "back-to-game", onclick: () => this.showPly(view.moves.length) }, t("table.backToGame")),
    );
  }

  /** Builds the two display options once, so that redraws never take their focus away. */
  private buildOptions(): void {
    const box = (id: string, on: boolean, set: (on: boolean) => void) =>
      h("label", { class: "option" },
        h("input", { type: "checkbox", id, checked: on, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) }),
        " ", h("span", {}));
    this.options.append(
      box("opt-animate", animateMoves(), (on) => setAnimateMoves(on)),
      box("opt-coords", this.board.state.coords, (on) => {
        setShowCoords(on);
        this.board.state.coords = on;
        this.board.redraw();
      }),
    );
  }

  private renderOptions(): void {
    const [animate, coords] = this.options.querySelectorAll("label span");
    animate.textContent = t("table.animate");
    coords.textContent = t("table.coords");
  }

  /** The move list: one line per round, each move a button in its player's colour. */
  private renderMoveList(view: GameView): void {
    clear(this.moveList);
    const offset = view.moves.length - this.history.moves.length;
    let round: HTMLElement | null = null;
    let roundNo = 0;
    let lastSeat = Infinity;
    view.moves.forEach((path, i) => {
      const known = this.history.moves[i - offset];
      const colour = known?.colour ?? null;
      const seat = colour ? view.seats.indexOf(colour) : -1;
      if (!round || seat <= lastSeat) {
        roundNo++;
        round = h("li", { class: "round", "data-round": roundNo }, h("span", { class: "round-no", "aria-label": t("table.round", { n: roundNo }) }, `${roundNo}.`));
        this.moveList.append(round);
      }
      lastSeat = seat;
      const ply = i + 1;
      round.append(
        h("button", {
          type: "button",
          class: "move",
          "data-ply": ply,
          "data-colour": colour,
          "aria-current": this.reviewPly === ply ? "step" : null,
          "aria-label": colour ? `${colourName(colour)} ${path}` : path,
          tabindex: (this.reviewPly ?? view.moves.length) === ply ? "0" : "-1",
        }, colour ? swatch(colour) : null, path),
      );
    });
  }

  private renderResult(view: GameView, turn: TableTurn): void {
    const r = this.result;
    clear(r);
    if (!view.outcome) {
      r.hidden = true;
      return;
    }
    r.hidden = false;
    const places = Object.entries(view.outcome.places)
      .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0)) as [Colour, number][];
    const title = headline(view.outcome, view.variant, view.seats, turn.me ?? null) || t("table.gameOver");
    r.append(
      h("h2", { "data-headline": true }, title),
      h("p", { class: "reason", "data-reason": view.outcome.reason }, reasonSentence(view.outcome.reason, view.outcome.places)),
      h("ol", { class: "places", "aria-label": t("table.places") },
        places.map(([c, p]) => h("li", { "data-place": p, "data-seat": c }, `${p}. `, swatch(c), " ", colourName(c),
          " · ", this.lastSeats.find((s) => s.colour === c)?.name ?? ""))),
      this.resultActions,
    );
  }

  /** Updates only the clocks (called by a ticking timer). */
  setClocks(clocks: Readonly<Partial<Record<Colour, number>>>): void {
    for (const [c, ms] of Object.entries(clocks)) {
      const e = this.players.querySelector(`[data-clock="${c}"]`);
      if (e && ms != null) e.textContent = formatClock(ms);
    }
  }
}
