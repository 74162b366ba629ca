/**
 * A game table: the board, one panel per player (colour, name or computer level,
 * "N of 10 arrived", clock), a status line, the controls of the page using it, and
 * places with the reason at the end. Used by offline play, online tables and replays.
 */
import type { Colour } from "../colour";
import { mountBoard, type Board } from "../board/board";
import { initialState, groupMoves, type LegalMove } from "../board/state";
import { setPosition } from "../board/actions";
import type { GameView } from "../engine/protocol";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import { h, clear } from "../ui/dom";
import { swatch } from "../ui/swatch";
import { boardLabels, colourName, formatClock, reasonText } from "./labels";
import { confirmDialog } from "../ui/confirm";

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
}

/** A mounted table. */
export class Table {
  /** Root element. */
  readonly root: HTMLElement;
  /** The board. */
  readonly board: Board;
  /** Slot for the page's buttons. */
  readonly controls: HTMLElement;
  private readonly players: HTMLElement;
  private readonly status: HTMLElement;
  private readonly lastMoveLine: HTMLElement;
  private readonly result: HTMLElement;
  private readonly moveList: HTMLOListElement;
  private lastView: GameView | null = null;
  private lastSeats: readonly SeatInfo[] = [];
  private lastTurn: TableTurn | null = null;

  /**
   * `onMove` receives the path of a move the person made, after they confirmed it
   * when it eliminates them (`eliminates` is then true).
   */
  constructor(private readonly onMove: (path: string, eliminates: boolean) => void) {
    const boardBox = h("div", { class: "board-box" });
    this.players = h("ul", { class: "players", "aria-live": "polite" });
    this.status = h("p", { class: "status", role: "status" });
    this.lastMoveLine = h("p", { class: "last-move", "aria-live": "polite" });
    this.result = h("section", { class: "result", hidden: true });
    this.controls = h("div", { class: "controls" });
    this.moveList = h("ol", { class: "move-list" });
    this.root = h(
      "div",
      { class: "table" },
      boardBox,
      h("aside", { class: "side" }, this.players, this.status, this.lastMoveLine, this.result, this.controls,
        h("details", { class: "moves" }, h("summary", {}, t("table.moves")), this.moveList)),
    );
    const state = initialState("white", boardLabels, (m) => void this.attempt(m));
    this.board = mountBoard(boardBox, state);
  }

  private async attempt(move: LegalMove): Promise<void> {
    if (move.eliminates) {
      const ok = await confirmDialog(t("table.confirmEliminate"), t("table.confirm"), t("table.cancel"));
      if (!ok) return;
    }
    this.board.state.movable = null;
    this.board.redraw();
    this.onMove(move.path.join("-"), move.eliminates);
  }

  /** Shows one moment of a game. */
  show(view: GameView, seats: readonly SeatInfo[], turn: TableTurn): void {
    this.lastView = view;
    this.lastSeats = seats;
    this.lastTurn = turn;
    const s = this.board.state;
    const pieces = new Map<HoleName, Colour>(Object.entries(view.pieces) as [HoleName, Colour][]);
    const movable = view.outcome ? null : turn.movable;
    setPosition(s, pieces, movable, movable ? groupMoves(view.legal) : new Map(), view.lastMove);
    s.orientation = turn.orientation;
    s.goal = view.goals[turn.orientation] ?? [];
    // Draw the board now, so that it never lags behind the panel and status.
    this.board.redrawNow();
    this.relabel();
  }

  /** Redraws every text in the language in use. */
  relabel(): void {
    const view = this.lastView;
    const turn = this.lastTurn;
    this.board.redraw();
    (this.root.querySelector(".moves summary") as HTMLElement).textContent = t("table.moves");
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
    this.lastMoveLine.textContent = view.lastMove ? t("table.lastMove", { path: view.lastMove.join("-") }) : "";
    this.renderResult(view);
    clear(this.moveList);
    view.moves.forEach((m) => this.moveList.append(h("li", {}, m)));
  }

  private renderResult(view: GameView): void {
    const r = this.result;
    clear(r);
    if (!view.outcome) {
      r.hidden = true;
      return;
    }
    r.hidden = false;
    const places = Object.entries(view.outcome.places)
      .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0)) as [Colour, number][];
    r.append(
      h("h2", {}, t("table.gameOver")),
      h("p", { class: "reason", "data-reason": view.outcome.reason }, reasonText(view.outcome.reason)),
      h("ol", { class: "places", "aria-label": t("table.places") },
        places.map(([c, p]) => h("li", { "data-place": p, "data-seat": c }, `${p}. `, swatch(c), " ", colourName(c),
          " · ", this.lastSeats.find((s) => s.colour === c)?.name ?? ""))),
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
