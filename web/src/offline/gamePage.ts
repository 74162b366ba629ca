/**
 * An offline game: people at this screen against the computer (which runs in the
 * engine worker), or pass-and-play with people only. Nothing is sent over the
 * network. The game is saved after every move (`saved.ts`) and picked up again when
 * the page is opened with the same setup.
 */
import type { Colour } from "../colour";
import { EngineClient, EngineStopped, EngineUnavailable } from "../engine/client";
import type { GameView } from "../engine/protocol";
import { t } from "../i18n/i18n";
import { Table, type SeatInfo } from "../table/table";
import { colourName } from "../table/labels";
import { verdictOf } from "../table/ending";
import { h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import type { Page } from "../ui/page";
import { addResult, readRecord } from "./record";
import { forgetGame, saveGame, savedGameFor } from "./saved";
import { againstComputer, isPersonSeat, recorded, rotated, setupQuery, type Setup } from "./setup";
import { variantName } from "./setupPage";
import { analysisHref } from "../analysis/link";

/**
 * Pause between the end of one move's animation and the next computer move, so that
 * several computer seats in a row can be followed.
 */
const COMPUTER_PAUSE_MS = 300;

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
  /** Bumped by New game, Undo and leaving: a search of an older game is ignored. */
  private generation = 0;
  /** When the last move had been shown (its animation over), for the pause between computer moves. */
  private lastShownAt = 0;
  /** How long each search of this page took, in milliseconds (shown as `data-think-ms`). */
  private readonly thinkTimes: number[] = [];
  private seed = Math.floor(Math.random() * 2 ** 31);
  private readonly undoButton: HTMLButtonElement;
  private readonly newButton: HTMLButtonElement;
  private readonly againButton: HTMLButtonElement;
  private readonly retryButton: HTMLButtonElement;
  private readonly setupLink: HTMLAnchorElement;
  /** Opens the finished game on the analysis board. */
  private readonly analyseLink: HTMLAnchorElement;
  private readonly note: HTMLElement;
  private readonly recordLine: HTMLElement;
  private readonly help: HTMLElement;

  constructor(private readonly setup: Setup) {
    this.table = new Table((path) => void this.humanMove(path));
    this.undoButton = h("button", { type: "button", "data-action": "undo", onclick: () => void this.undo() });
    this.newButton = h("button", { type: "button", "data-action": "new", onclick: () => void this.start() });
    this.againButton = h("button", { type: "button", class: "primary", "data-action": "play-again", onclick: () => this.playAgain() });
    this.retryButton = h("button", { type: "button", "data-action": "retry", hidden: true, onclick: () => void this.retry() });
    this.setupLink = h("a", { href: "/offline", "data-link": true, class: "button" });
    this.table.controls.append(this.newButton, this.setupLink);
    if (againstComputer(setup)) this.table.controls.prepend(this.undoButton);
    this.analyseLink = h("a", { href: "/analysis", "data-link": true, class: "button", "data-action": "analyse" });
    this.table.resultActions.append(this.againButton, this.analyseLink);
    this.recordLine = h("p", { class: "record", "data-record": true });
    this.note = h("p", { class: "note" });
    this.help = h("p", { class: "help" });
    // Record, keyboard help and the offline note sit in the side panel, below the controls.
    this.table.controls.after(this.note, this.retryButton, this.recordLine, this.help);
    this.root = h("div", { class: "offline-game", "data-variant": setup.variant }, this.table.root);
    void this.resume();
  }

  title(): string {
    return t("nav.play");
  }

  private isHuman(c: Colour): boolean {
    return this.view !== null && isPersonSeat(this.setup, this.view.seats.indexOf(c));
  }

  /** The one person's seat when exactly one person plays at this screen. */
  private me(): Colour | null {
    const view = this.view;
    if (!view || this.setup.humans !== 1) return null;
    return view.seats.find((c) => this.isHuman(c)) ?? null;
  }

  /** Picks up the saved game of this setup, or starts a new one. */
  private async resume(): Promise<void> {
    const saved = savedGameFor(localStorage, this.setup);
    if (!saved || saved.moves.length === 0) return this.start();
    const generation = this.generation;
    try {
      const view = await this.engine.load(this.setup.variant, saved.moves, this.setup.position);
      if (generation !== this.generation) return;
      this.movers = [...saved.movers];
      this.seed = saved.seed;
      this.orientation = this.firstPerson(view);
      this.update(view);
    } catch (e) {
      // A save the engine does not accept (e.g. from an older version) starts afresh.
      if (e instanceof EngineUnavailable || e instanceof EngineStopped) this.fail(e);
      else await this.start();
    }
  }

  private firstPerson(view: GameView): Colour {
    return view.seats[(this.setup.first ?? 0) % view.seats.length];
  }

  /** Stops a search under way at once: the worker is replaced. */
  private stopThinking(): void {
    this.generation++;
    if (this.thinking) {
      this.thinking = false;
      this.engine.restart();
    }
  }

  /** Starts a new game with the same setup. */
  async start(): Promise<void> {
    this.stopThinking();
    const generation = this.generation;
    this.movers = [];
    this.view = null;
    try {
      const { variant, position } = this.setup;
      const view = position ? await this.engine.fromPosition(variant, position) : await this.engine.newGame(variant);
      if (generation !== this.generation) return;
      this.orientation = this.firstPerson(view);
      this.update(view);
    } catch (e) {
      this.fail(e);
    }
  }

  private update(view: GameView): void {
    if (this.destroyed) return;
    const finishedNow = view.outcome !== null && this.view?.outcome === null;
    this.view = view;
    this.clearError();
    const toMove = view.toMove;
    if (toMove && this.isHuman(toMove)) this.orientation = toMove;
    this.showTable();
    this.lastShownAt = performance.now();
    void this.table.settled().then(() => (this.lastShownAt = performance.now()));
    saveGame(localStorage, {
      query: setupQuery(this.setup),
      moves: view.moves,
      movers: this.movers,
      seed: this.seed,
      finished: view.outcome !== null,
    });
    if (finishedNow) this.recordResult(view);
    if (!view.outcome && toMove && !this.isHuman(toMove)) void this.computerMove();
  }

  private seats(): SeatInfo[] {
    const view = this.view!;
    const humans = this.setup.humans;
    const first = this.setup.first ?? 0;
    return view.seats.map((colour, i) => ({
      colour,
      name: !isPersonSeat(this.setup, i)
        ? t("player.computer", { level: this.setup.level })
        : humans === 1
          ? t("player.you")
          : t("player.person", { n: ((i - first + view.seats.length) % view.seats.length) + 1 }),
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
    this.table.setHeading(`${t("nav.play")}: ${variantName(view.variant)}`);
    this.table.show(view, this.seats(), {
      movable: humanToMove ? toMove : null,
      orientation: this.orientation,
      status,
      me: this.me(),
    });
    this.undoButton.disabled = view.outcome !== null || !this.movers.some((c) => this.isHuman(c));
    this.analyseLink.setAttribute("href", analysisHref({ variant: view.variant, start: this.setup.position, moves: view.moves }));
    this.relabelControls();
  }

  private async humanMove(path: string): Promise<void> {
    const view = this.view;
    if (!view?.toMove || this.thinking) return;
    const generation = this.generation;
    try {
      const mover = view.toMove;
      const next = await this.engine.play(path);
      if (generation !== this.generation) return;
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
    const generation = this.generation;
    const mover = view.toMove;
    try {
      const started = performance.now();
      const path = await this.engine.bestMove(this.setup.level, this.seed++);
      this.thinkTimes.push(Math.round(performance.now() - started));
      this.root.setAttribute("data-think-ms", this.thinkTimes.join(","));
      // Let the moves before this one finish their animation, then pause briefly.
      // (The search ran meanwhile: it began as soon as the previous move was played.)
      await this.table.settled();
      const wait = COMPUTER_PAUSE_MS - (performance.now() - this.lastShownAt);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (this.destroyed || generation !== this.generation || this.view !== view) return;
      const next = await this.engine.play(path);
      if (generation !== this.generation) return;
      this.movers.push(mover);
      this.thinking = false;
      this.update(next);
    } catch (e) {
      if (generation !== this.generation) return;
      this.thinking = false;
      this.fail(e);
    }
  }

  /** Takes back the person's last move and the computer's replies to it (a search under way stops). */
  async undo(): Promise<void> {
    const view = this.view;
    if (!view) return;
    this.stopThinking();
    const generation = this.generation;
    const moves = [...view.moves];
    const movers = [...this.movers];
    while (movers.length > 0) {
      const c = movers.pop()!;
      moves.pop();
      if (this.isHuman(c)) break;
    }
    try {
      const back = await this.engine.load(this.setup.variant, moves, this.setup.position);
      if (generation !== this.generation) return;
      this.movers = movers;
      this.update(back);
    } catch (e) {
      this.fail(e);
    }
  }

  /** A new game with the same setup, the people one seat on. */
  private playAgain(): void {
    forgetGame(localStorage);
    navigate(`/offline${setupQuery(rotated(this.setup))}`);
  }

  /** After the engine failed to load: a fresh worker, and the game picked up where it was. */
  private async retry(): Promise<void> {
    this.retryButton.hidden = true;
    this.clearError();
    this.engine.restart();
    this.generation++;
    this.thinking = false;
    await this.resume();
  }

  private recordResult(view: GameView): void {
    if (!recorded(this.setup) || !view.outcome) return;
    const people = view.seats.filter((c) => this.isHuman(c));
    const verdicts = people.map((c) => verdictOf(view.outcome!, view.variant, c));
    const best = verdicts.includes("won") ? "won" : verdicts.includes("draw") ? "draw" : "lost";
    const places = people.map((c) => view.outcome!.places[c] ?? view.seats.length);
    addResult(localStorage, this.setup, best === "lost" ? [Math.max(2, ...places)] : [1], best === "draw");
    this.relabelControls();
  }

  private fail(e: unknown): void {
    if (e instanceof EngineStopped) return;
    const error = e instanceof Error ? e.message : String(e);
    this.note.classList.add("error");
    if (e instanceof EngineUnavailable) {
      this.note.textContent = t("engine.failed", { error });
      this.note.setAttribute("data-engine-failed", "");
      this.retryButton.hidden = false;
    } else {
      this.note.textContent = t("table.error", { error });
    }
  }

  private clearError(): void {
    this.note.classList.remove("error");
    this.note.removeAttribute("data-engine-failed");
    this.retryButton.hidden = true;
  }

  private relabelControls(): void {
    this.undoButton.textContent = t("table.undo");
    this.newButton.textContent = t("table.newGame");
    this.againButton.textContent = t("end.playAgain");
    this.analyseLink.textContent = t("analysis.open");
    this.retryButton.textContent = t("engine.retry");
    this.setupLink.textContent = t("table.setup");
    this.help.textContent = t("table.keyboardHelp");
    if (!this.note.classList.contains("error")) this.note.textContent = t("table.offlineNote");
    if (recorded(this.setup)) {
      const r = readRecord(localStorage, this.setup);
      this.recordLine.textContent = t("table.recordDraws", { wins: r.wins, draws: r.draws, losses: r.losses });
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
    this.generation++;
    this.engine.close();
  }
}
