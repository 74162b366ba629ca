/**
 * Puzzles (`/puzzles`, `/puzzles/<id>`): "finish in N" positions from finished games.
 * The player must find a shortest finish move by move; any move that keeps a finish in
 * the moves left counts (the engine's race solver judges each move in the worker). The
 * other players' marbles stand still, as they do in a race. `/puzzles` opens the daily
 * puzzle; the first attempt at each puzzle changes the player's Glicko-2 puzzle rating:
 * a registered player's is kept by the server, which checks the moves played; a
 * guest's is kept on this device.
 */
import type { Colour } from "../colour";
import { mountBoard, type Board } from "../board/board";
import { setPosition } from "../board/actions";
import { groupMoves, initialState, type LegalMove } from "../board/state";
import { EngineClient, EngineStopped } from "../engine/client";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import { variantName } from "../offline/setupPage";
import { boardLabels, colourName } from "../table/labels";
import { h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import type { Page } from "../ui/page";
import { api, type ServerPuzzleRecord } from "../online/api";
import { currentUser } from "../online/session";
import { dailyPuzzle, loadPuzzleSet, nextPuzzle, type Puzzle } from "./puzzleFile";
import { readPuzzleRecord, recordAttempt } from "./store";

type State = "loading" | "playing" | "checking" | "solved" | "failed";

/** The puzzle page. */
export class PuzzlePage implements Page {
  readonly root: HTMLElement;
  private readonly engine = new EngineClient();
  private readonly board: Board;
  private readonly heading = h("h1", {});
  private readonly task = h("p", { class: "task", "data-task": "" });
  private readonly status = h("p", { class: "status", role: "status", "data-puzzle-status": "" });
  private readonly ratingLine = h("p", { class: "record", "data-puzzle-rating": "" });
  private readonly source = h("p", { class: "note" });
  private readonly retryButton = h("button", { type: "button", "data-action": "retry", hidden: true });
  private readonly nextButton = h("button", { type: "button", class: "primary", "data-action": "next-puzzle" });
  private readonly dailyLink = h("a", { href: "/puzzles", "data-link": true, class: "button", "data-action": "daily" });
  private readonly error = h("p", { class: "note error", role: "alert" });
  private readonly note = h("p", { class: "note", "data-puzzle-note": "" });
  /** A registered player's record on the server; null for guests and offline. */
  private server: ServerPuzzleRecord | null = null;
  /** The moves of this attempt, as paths. */
  private played: string[] = [];
  private puzzles: readonly Puzzle[] = [];
  private puzzle: Puzzle | null = null;
  private daily = false;
  private position = "";
  private left = 0;
  private state: State = "loading";
  private destroyed = false;

  constructor(private readonly id: string | null) {
    const boardBox = h("div", { class: "board-box", id: "board", tabindex: "-1" });
    this.board = mountBoard(boardBox, initialState("white", boardLabels, (m) => void this.onMove(m)));
    this.retryButton.addEventListener("click", () => void this.restart());
    this.nextButton.addEventListener("click", () => this.next());
    const side = h("aside", { class: "side" }, this.task, this.status,
      h("div", { class: "controls" }, this.retryButton, this.nextButton, this.dailyLink),
      this.ratingLine, this.note, this.source, this.error);
    this.root = h("section", { class: "puzzle-page" }, this.heading, h("div", { class: "table" }, boardBox, side));
    this.relabel();
    void this.load();
  }

  title(): string {
    return t("puzzle.title");
  }

  relabel(): void {
    this.heading.textContent = this.daily ? t("puzzle.daily") : t("puzzle.title");
    this.retryButton.textContent = t("puzzle.retry");
    this.nextButton.textContent = t("puzzle.next");
    this.dailyLink.textContent = t("puzzle.daily");
    this.board.state.labels = boardLabels;
    this.draw();
  }

  destroy(): void {
    this.destroyed = true;
    this.engine.close();
  }

  private async load(): Promise<void> {
    let daily: Puzzle | undefined;
    try {
      const [set] = await Promise.all([loadPuzzleSet(), this.loadServerRecord()]);
      this.puzzles = set.puzzles;
      daily = dailyPuzzle(set, Date.now());
    } catch (e) {
      this.error.textContent = t("puzzle.unavailable", { reason: (e as Error).message });
      return;
    }
    if (this.destroyed) return;
    if (this.puzzles.length === 0) {
      this.error.textContent = t("puzzle.none");
      return;
    }
    const chosen = this.id === null ? daily : this.puzzles.find((p) => p.id === this.id);
    if (!chosen) {
      this.error.textContent = t("puzzle.unknown", { id: this.id ?? "" });
      return;
    }
    this.daily = this.id === null;
    this.puzzle = chosen;
    this.relabel();
    await this.restart();
  }

  /** The logged-in player's puzzle record from the server; none for guests or offline. */
  private async loadServerRecord(): Promise<void> {
    try {
      const user = await currentUser();
      if (user && !user.guest) this.server = await api.puzzleRecord();
    } catch {
      this.server = null;
    }
  }

  /** Counts the attempt: sent to the server for a registered player, else kept here. */
  private async finishAttempt(solved: boolean): Promise<void> {
    const p = this.puzzle;
    if (!p) return;
    if (!this.server) {
      recordAttempt(localStorage, p.id, p.rating, solved);
      this.draw();
      return;
    }
    try {
      const r = await api.puzzleAttempt(p.id, this.played);
      if (this.destroyed || !this.server) return;
      this.server = {
        ...this.server,
        rating: r.rating,
        tried: r.rated ? { ...this.server.tried, [p.id]: r.solved } : this.server.tried,
      };
      this.note.textContent = r.rated ? "" : t("puzzle.notRated");
      this.ratingLine.dataset.rated = String(r.rated);
    } catch (e) {
      this.error.textContent = t("puzzle.saveFailed", { reason: (e as Error).message });
    }
    this.draw();
  }

  /** Sets the puzzle's position up again. */
  private async restart(): Promise<void> {
    const p = this.puzzle;
    if (!p) return;
    this.played = [];
    this.note.textContent = "";
    this.position = p.position;
    this.left = p.moves;
    this.state = "playing";
    await this.show();
  }

  private async show(): Promise<void> {
    try {
      const view = await this.engine.positionView(this.position);
      if (this.destroyed) return;
      const s = this.board.state;
      const mover = view.toMove;
      s.orientation = mover ?? view.seats[0];
      s.goal = mover ? view.goals[mover] ?? [] : [];
      const pieces = new Map(Object.entries(view.pieces) as [HoleName, Colour][]);
      const playing = this.state === "playing";
      setPosition(s, pieces, playing ? mover : null, playing ? groupMoves(view.legal) : new Map(), []);
      this.board.redraw();
      this.draw();
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      this.error.textContent = (e as Error).message;
    }
  }

  private async onMove(move: LegalMove): Promise<void> {
    if (this.state !== "playing" || !this.puzzle) return;
    this.state = "checking";
    this.draw();
    const path = move.path.join("-");
    this.played.push(path);
    try {
      const r = await this.engine.puzzleMove(this.position, path, this.left);
      if (this.destroyed) return;
      if (!r.keeps) {
        this.state = "failed";
        this.status.dataset.atLeast = String(r.atLeast);
        void this.finishAttempt(false);
        // The move is shown, so the player sees what they played.
        this.board.state.marks = [{ colour: this.board.state.pieces.get(move.from)!, path: move.path }];
        this.board.state.pieces.set(move.to, this.board.state.pieces.get(move.from)!);
        this.board.state.pieces.delete(move.from);
        this.board.state.movable = null;
        this.board.redraw();
        this.draw();
        return;
      }
      this.left -= 1;
      if (r.solved || !r.next) {
        this.state = "solved";
        void this.finishAttempt(true);
        this.board.state.pieces.set(move.to, this.board.state.pieces.get(move.from)!);
        this.board.state.pieces.delete(move.from);
        this.board.state.marks = [{ colour: this.board.state.pieces.get(move.to)!, path: move.path }];
        this.board.state.movable = null;
        this.board.redraw();
        this.draw();
        return;
      }
      this.position = r.next;
      this.state = "playing";
      await this.show();
      this.board.state.marks = [{ colour: this.board.state.pieces.get(move.to)!, path: move.path }];
      this.board.redraw();
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      this.played.pop();
      this.state = "playing";
      this.error.textContent = (e as Error).message;
      this.draw();
    }
  }

  private next(): void {
    const record = this.server ?? readPuzzleRecord(localStorage);
    const p = nextPuzzle(this.puzzles, record.tried, record.rating.rating) ?? this.puzzles[Math.floor(Math.random() * this.puzzles.length)];
    if (p) navigate(`/puzzles/${encodeURIComponent(p.id)}`);
  }

  private draw(): void {
    const p = this.puzzle;
    const rating = this.server?.rating ?? readPuzzleRecord(localStorage).rating;
    const values = { rating: Math.round(rating.rating), deviation: Math.round(rating.deviation) };
    this.ratingLine.textContent = this.server ? t("puzzle.ratingServer", values) : t("puzzle.rating", values);
    this.ratingLine.dataset.source = this.server ? "account" : "device";
    this.status.dataset.state = this.state;
    this.retryButton.hidden = this.state !== "failed";
    if (!p) {
      this.task.textContent = "";
      this.status.textContent = this.state === "loading" ? t("puzzle.loading") : "";
      return;
    }
    const colour = colourName(this.board.state.orientation);
    this.task.textContent = t("puzzle.task", { colour, n: p.moves });
    this.source.textContent = t("puzzle.source", { variant: variantName(p.position.split(" ")[0]), rating: Math.round(p.rating), id: p.id });
    switch (this.state) {
      case "loading":
        this.status.textContent = t("puzzle.loading");
        break;
      case "playing":
        this.status.textContent = t("puzzle.left", { n: this.left });
        break;
      case "checking":
        this.status.textContent = t("puzzle.checking");
        break;
      case "solved":
        this.status.textContent = t("puzzle.solved");
        break;
      case "failed":
        this.status.textContent = t("puzzle.failed", { n: Number(this.status.dataset.atLeast ?? 0), left: this.left });
        break;
    }
  }
}
