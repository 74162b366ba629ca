/**
 * An offline game: people at this screen against the computer (which runs in the
 * engine worker), or pass-and-play with people only. Nothing is sent over the
 * network.
 */
import type { Colour } from "../colour";
import { EngineClient } from "../engine/client";
import type { GameView } from "../engine/protocol";
import { t } from "../i18n/i18n";
import { Table, type SeatInfo } from "../table/table";
import { colourName } from "../table/labels";
import { h } from "../ui/dom";
import type { Page } from "../ui/page";
import { addResult, readRecord } from "./record";
import { againstComputer, recorded, type Setup } from "./setup";

/** Pause before the computer's move is shown, so people can follow the game. */
const COMPUTER_PAUSE_MS = 250;

/** The page of a running offline game. */
export class OfflineGamePage implements Page {
  readonly root: HTMLElement;
  private readonly engine = new EngineClient();
  private readonly table: Table;
  private view: GameView | null = null;
  /** Seat that made each move so far, to know how far undo goes back. */
  private movers: Colour[] = [];
  /** Seat shown at the bottom; follows the person to move in pass-and-play. */
  private orientation: Colour = "white";
  private thinking = false;
  private destroyed = false;
  private seed = Math.floor(Math.random() * 2 ** 31);
  private readonly undoButton: HTMLButtonElement;
  private readonly newButton: HTMLButtonElement;
  private readonly setupLink: HTMLAnchorElement;
  private readonly note: HTMLElement;
  private readonly recordLine: HTMLElement;
  private readonly help: HTMLElement;

  constructor(private readonly setup: Setup) {
    this.table = new Table((path) => void this.humanMove(path));
    this.undoButton = h("button", { type: "button", "data-action": "undo", onclick: () => void this.undo() });
    this.newButton = h("button", { type: "button", "data-action": "new", onclick: () => void this.start() });
    this.setupLink = h("a", { href: "/offline", "data-link": true, class: "button" });
    this.table.controls.append(this.newButton, this.setupLink);
    if (againstComputer(setup)) this.table.controls.prepend(this.undoButton);
    this.recordLine = h("p", { class: "record", "data-record": true });
    this.note = h("p", { class: "note" });
    this.help = h("p", { class: "help" });
    // Record, keyboard help and the offline note sit in the side panel, below the controls.
    this.table.controls.after(this.recordLine, this.help, this.note);
    this.root = h("div", { class: "offline-game", "data-variant": setup.variant }, this.table.root);
    void this.start();
  }

  title(): string {
    return t("nav.play");
  }

  private isHuman(c: Colour): boolean {
    return this.view !== null && this.view.seats.indexOf(c) < this.setup.humans;
  }

  /** Starts a new game with the same setup. */
  async start(): Promise<void> {
    this.movers = [];
    this.thinking = false;
    try {
      const { variant, position } = this.setup;
      const view = position ? await this.engine.fromPosition(variant, position) : await this.engine.newGame(variant);
      this.orientation = view.seats[0];
      this.update(view);
    } catch (e) {
      this.fail(e);
    }
  }

  private update(view: GameView): void {
    if (this.destroyed) return;
    const finishedNow = view.outcome !== null && this.view?.outcome === null;
    this.view = view;
    const toMove = view.toMove;
    if (toMove && this.isHuman(toMove)) this.orientation = toMove;
    this.showTable();
    if (finishedNow) this.recordResult(view);
    if (!view.outcome && toMove && !this.isHuman(toMove)) void this.computerMove();
  }

  private seats(): SeatInfo[] {
    const view = this.view!;
    const humans = this.setup.humans;
    return view.seats.map((colour, i) => ({
      colour,
      name:
        i >= humans
          ? t("player.computer", { level: this.setup.level })
          : humans === 1
            ? t("player.you")
            : t("player.person", { n: i + 1 }),
    }));
  }

  private showTable(): void {
    const view = this.view;
    if (!view) return;
    const toMove = view.toMove;
    const humanToMove = toMove !== null && this.isHuman(toMove) && !this.thinking;
    const status = this.thinking
      ? t("table.thinking")
      : humanToMove
        ? this.setup.humans === 1
          ? t("table.yourTurn")
          : t("table.turnOf", { colour: colourName(toMove!) })
        : "";
    this.table.show(view, this.seats(), {
      movable: humanToMove ? toMove : null,
      orientation: this.orientation,
      status,
    });
    this.undoButton.disabled =
      this.thinking || view.outcome !== null || !this.movers.some((c) => this.isHuman(c));
    this.relabelControls();
  }

  private async humanMove(path: string): Promise<void> {
    const view = this.view;
    if (!view?.toMove || this.thinking) return;
    try {
      const mover = view.toMove;
      const next = await this.engine.play(path);
      this.movers.push(mover);
      this.update(next);
    } catch (e) {
      this.fail(e);
    }
  }

  private async computerMove(): Promise<void> {
    const view = this.view;
    if (!view?.toMove || this.thinking) return;
    this.thinking = true;
    this.showTable();
    const mover = view.toMove;
    try {
      const [path] = await Promise.all([
        this.engine.bestMove(this.setup.level, this.seed++),
        new Promise((r) => setTimeout(r, COMPUTER_PAUSE_MS)),
      ]);
      if (this.destroyed || this.view !== view) return;
      const next = await this.engine.play(path);
      this.movers.push(mover);
      this.thinking = false;
      this.update(next);
    } catch (e) {
      this.thinking = false;
      this.fail(e);
    }
  }

  /** Takes back the person's last move and the computer's replies to it. */
  async undo(): Promise<void> {
    const view = this.view;
    if (!view || this.thinking) return;
    const moves = [...view.moves];
    const movers = [...this.movers];
    while (movers.length > 0) {
      const c = movers.pop()!;
      moves.pop();
      if (this.isHuman(c)) break;
    }
    try {
      const back = await this.engine.load(this.setup.variant, moves, this.setup.position);
      this.movers = movers;
      this.update(back);
    } catch (e) {
      this.fail(e);
    }
  }

  private recordResult(view: GameView): void {
    if (!recorded(this.setup) || !view.outcome) return;
    const places = view.outcome.places;
    const humanPlaces = view.seats
      .filter((c) => this.isHuman(c))
      .map((c) => places[c] ?? view.seats.length);
    const firsts = view.seats.filter((c) => places[c] === 1).length;
    addResult(localStorage, this.setup, humanPlaces, firsts > 1);
    this.relabelControls();
  }

  private fail(e: unknown): void {
    const error = e instanceof Error ? e.message : String(e);
    this.note.textContent = t("table.error", { error });
    this.note.classList.add("error");
  }

  private relabelControls(): void {
    this.undoButton.textContent = t("table.undo");
    this.newButton.textContent = t("table.newGame");
    this.setupLink.textContent = t("table.setup");
    this.help.textContent = t("table.keyboardHelp");
    if (!this.note.classList.contains("error")) this.note.textContent = t("table.offlineNote");
    if (recorded(this.setup)) {
      const r = readRecord(localStorage, this.setup);
      this.recordLine.textContent = t("table.record", { wins: r.wins, losses: r.losses });
    } else {
      this.recordLine.textContent = t(this.setup.position ? "setup.positionNoRecord" : "setup.noRecord");
    }
  }

  relabel(): void {
    this.table.relabel();
    this.showTable();
    this.relabelControls();
  }

  destroy(): void {
    this.destroyed = true;
    this.engine.close();
  }
}
