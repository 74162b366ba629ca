/**
 * The analysis board (`/analysis`): a game or a position set up or pasted, explored
 * move by move into a tree of variations, with the engine thinking in the browser
 * worker for as long as it is left on (one depth after another, each shown as it
 * completes): an evaluation bar for the player to move, the best line drawn on the
 * board and the three best moves with their scores. The tree exports as a record with
 * variations; a game's main line can be reviewed (`review.ts`).
 */
import { MARBLE_STYLE, type Colour } from "../colour";
import "./analysis.css";
import { mountBoard, type Board } from "../board/board";
import { setPosition } from "../board/actions";
import { groupMoves, initialState, type LegalMove } from "../board/state";
import { EngineClient, EngineStopped } from "../engine/client";
import type { AnalysedLine, Analysis, GameView } from "../engine/protocol";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import { VARIANTS_BY_PLAYERS } from "../offline/setup";
import { variantName } from "../offline/setupPage";
import { boardLabels, colourName } from "../table/labels";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { api } from "../online/api";
import { drawBestLine } from "./bestLine";
import type { AnalysisStart } from "./link";
import { MoveTree, readTreeRecord, TreeRecordError, writeTreeRecord, type TreeNode } from "./moveTree";
import { GameReview, type MoveToReview } from "./review";
import { barShare, decidedFor, rowsText } from "./score";

/** Moves listed with their scores. */
const LINES = 3;
/** Depths the engine goes through before it rests (about as deep as it usefully gets). */
const MAX_STEPS = 40;
/** Every variant id, in the order of the setup page. */
const ALL_VARIANTS: readonly string[] = Object.values(VARIANTS_BY_PLAYERS).flat();

/** The analysis page. */
export class AnalysisPage implements Page {
  readonly root: HTMLElement;
  /** The worker giving views of positions and legal moves. */
  private readonly boardEngine = new EngineClient();
  /** The worker that thinks; restarted to stop a search at once. */
  private readonly analyst = new EngineClient();
  /** The worker of the game review. */
  private readonly reviewer = new EngineClient();
  private readonly board: Board;
  private readonly heading = h("h1", {});
  private readonly error = h("p", { class: "note error", role: "alert" });
  private readonly barFill = h("div", { class: "eval-fill" });
  private readonly bar = h("div", { class: "eval-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100" }, this.barFill);
  private readonly scoreLine = h("p", { class: "eval-score", "data-eval": "" });
  private readonly depthLine = h("p", { class: "note", "data-depth": "" });
  private readonly lines = h("ol", { class: "engine-lines" });
  private readonly engineButton = h("button", { type: "button", "data-action": "engine", "data-on": "" });
  private readonly steps = h("div", { class: "analysis-steps" });
  private readonly treeBox = h("div", { class: "move-tree", "data-tree": "" });
  private readonly treeActions = h("div", { class: "analysis-steps" });
  private readonly reviewButton = h("button", { type: "button", "data-action": "review" });
  private readonly loadBox = h("textarea", { class: "analysis-input", rows: 4, spellcheck: "false", "data-input": "" });
  private readonly loadButton = h("button", { type: "button", "data-action": "load" });
  private readonly variantSelect = h("select", { "data-variant-select": "" });
  private readonly freshButton = h("button", { type: "button", "data-action": "fresh" });
  private readonly exportButton = h("button", { type: "button", "data-action": "export" });
  private readonly exportBox = h("textarea", { class: "analysis-output", rows: 5, readonly: true, hidden: true, "data-export": "" });
  private readonly download = h("a", { class: "button", download: "analysis.txt", hidden: true, "data-action": "download" });
  private readonly review: GameReview;
  private readonly labelled: [HTMLElement, () => string][] = [];

  private variant = "classic-2";
  private start: string | undefined;
  /** The online game on the board, whose review the server may have. */
  private game: string | undefined;
  private tags: [string, string][] = [];
  private tree = new MoveTree();
  private current: TreeNode = this.tree.root;
  private views = new Map<number, GameView>();
  private view: GameView | null = null;
  private analysing = true;
  private analysis: Analysis | null = null;
  /** Bumped by every game opened: only the latest one enables the review. */
  private openings = 0;
  /** Bumped by every change of position or game: older answers are dropped. */
  private generation = 0;
  private thinking = false;
  private destroyed = false;
  private downloadUrl: string | null = null;

  constructor(initial: AnalysisStart | null) {
    const boardBox = h("div", { class: "board-box", id: "board", tabindex: "-1" });
    this.board = mountBoard(boardBox, initialState("white", boardLabels, (m) => void this.onBoardMove(m)));
    this.review = new GameReview((node) => void this.goTo(node), () => (this.view && this.view.seats.length === 2 ? this.view.seats[0] : null));
    this.engineButton.addEventListener("click", () => this.toggleEngine());
    this.reviewButton.addEventListener("click", () => void this.startReview());
    this.loadButton.addEventListener("click", () => void this.loadText(this.loadBox.value));
    this.freshButton.addEventListener("click", () => void this.open({ variant: this.variantSelect.value, moves: [] }, []));
    this.exportButton.addEventListener("click", () => this.exportTree());
    for (const id of ALL_VARIANTS) this.variantSelect.append(h("option", { value: id }));
    const label = (e: HTMLElement, text: () => string) => this.labelled.push([e, text]);
    const side = h("aside", { class: "side analysis-side" },
      h("div", { class: "eval" }, this.bar, this.scoreLine, this.depthLine),
      h("div", { class: "controls" }, this.engineButton),
      this.lines,
      this.steps,
      this.treeBox,
      this.treeActions,
      h("div", { class: "controls" }, this.reviewButton, this.exportButton, this.download),
      this.exportBox,
      this.review.root,
      h("details", { class: "analysis-load" },
        h("summary", {}),
        h("label", {}, h("span", {}), this.loadBox),
        h("div", { class: "controls" }, this.loadButton),
        h("div", { class: "controls" }, this.variantSelect, this.freshButton)),
      this.error);
    label(side.querySelector(".analysis-load summary")!, () => t("analysis.setUp"));
    label(side.querySelector(".analysis-load label span")!, () => t("analysis.pasteHelp"));
    this.root = h("section", { class: "analysis-page" }, this.heading, h("div", { class: "table analysis-table" }, boardBox, side));
    this.relabel();
    void this.open(initial ?? { variant: "classic-2", moves: [] }, []);
  }

  title(): string {
    return t("analysis.title");
  }

  relabel(): void {
    this.heading.textContent = `${t("analysis.title")}: ${variantName(this.variant)}`;
    this.loadButton.textContent = t("analysis.load");
    this.freshButton.textContent = t("analysis.fresh");
    this.exportButton.textContent = t("analysis.export");
    this.download.textContent = t("analysis.download");
    this.reviewButton.textContent = t("analysis.reviewGame");
    this.loadBox.setAttribute("placeholder", t("analysis.pastePlaceholder"));
    this.variantSelect.setAttribute("aria-label", t("setup.variant"));
    for (const o of this.variantSelect.options) o.textContent = variantName(o.value);
    for (const [e, text] of this.labelled) e.textContent = text();
    this.board.state.labels = boardLabels;
    this.review.relabel();
    this.drawEngineButton();
    this.drawSteps();
    this.drawTree();
    this.drawAnalysis();
  }

  destroy(): void {
    this.destroyed = true;
    this.generation++;
    this.boardEngine.close();
    this.analyst.close();
    this.reviewer.close();
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
  }

  /** Opens a game: its start and main line (and the tags of its record, kept on export). */
  private async open(a: AnalysisStart, tags: [string, string][], tree?: MoveTree): Promise<void> {
    this.error.textContent = "";
    if (!ALL_VARIANTS.includes(a.variant)) {
      this.error.textContent = t("analysis.unknownVariant", { variant: a.variant });
      return;
    }
    const gen = ++this.generation;
    // Until the game is on the board there is nothing to review.
    const opening = ++this.openings;
    this.reviewButton.disabled = true;
    try {
      // The start and every move of the main line are checked before anything is replaced.
      const next = tree ?? MoveTree.ofLine(a.moves);
      const main = next.mainLine();
      const views = new Map<number, GameView>();
      views.set(next.root.id, await this.boardEngine.load(a.variant, [], a.start));
      for (const node of main) {
        try {
          views.set(node.id, await this.boardEngine.play(node.path!));
        } catch (e) {
          throw new Error(t("analysis.badMove", { n: node.ply, move: node.path!, reason: (e as Error).message }));
        }
      }
      if (gen !== this.generation) return;
      this.variant = a.variant;
      this.start = a.start;
      this.game = a.game;
      this.tags = tags.filter(([k]) => !["Variant", "Start", "Result", "Reason"].includes(k));
      this.tree = next;
      this.views = views;
      this.exportBox.hidden = true;
      this.download.hidden = true;
      this.review.root.hidden = true;
      this.variantSelect.value = a.variant;
      this.board.state.orientation = views.get(next.root.id)!.seats[0];
      this.relabel();
      await this.goTo(main.length > 0 ? main[main.length - 1] : next.root);
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      const message = (e as Error).message;
      // With nothing on the board yet, the variant's start is shown under the error.
      if (!this.view && gen === this.generation && (a.start || a.moves.length > 0)) await this.open({ variant: a.variant, moves: [] }, []);
      this.error.textContent = message;
    } finally {
      if (opening === this.openings) this.reviewButton.disabled = false;
    }
  }

  /** Reads a pasted position string or record (with or without variations). */
  private async loadText(text: string): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) {
      this.error.textContent = t("analysis.nothingToLoad");
      return;
    }
    const first = trimmed.split(/\s+/)[0];
    if (ALL_VARIANTS.includes(first)) {
      await this.open({ variant: first, start: trimmed, moves: [] }, []);
      return;
    }
    try {
      const record = readTreeRecord(trimmed);
      const tag = (k: string) => record.tags.find(([key]) => key === k)?.[1];
      const start = tag("Start");
      await this.open({ variant: tag("Variant")!, start, moves: [] }, record.tags.map(([k, v]) => [k, v]), record.tree);
    } catch (e) {
      if (e instanceof TreeRecordError) this.error.textContent = t("analysis.badRecord", { reason: e.message });
      else throw e;
    }
  }

  /** The view after `node`, worked out (and checked) by the engine on first need. */
  private async viewOf(node: TreeNode): Promise<GameView> {
    const known = this.views.get(node.id);
    if (known) return known;
    const view = await this.boardEngine.load(this.variant, this.tree.pathTo(node), this.start);
    this.views.set(node.id, view);
    return view;
  }

  /** Shows `node` on the board and analyses it if the engine is on. */
  private async goTo(node: TreeNode): Promise<void> {
    const gen = ++this.generation;
    let view: GameView;
    try {
      view = await this.viewOf(node);
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      this.error.textContent = (e as Error).message;
      return;
    }
    if (gen !== this.generation) return;
    this.current = node;
    this.view = view;
    this.analysis = null;
    const s = this.board.state;
    const pieces = new Map(Object.entries(view.pieces) as [HoleName, Colour][]);
    const last = view.lastMove && node.parent ? [{ colour: pieces.get(view.lastMove[view.lastMove.length - 1])!, path: view.lastMove }] : [];
    setPosition(s, pieces, view.toMove, groupMoves(view.legal), last);
    s.goal = view.toMove ? view.goals[view.toMove] ?? [] : [];
    this.board.redraw();
    drawBestLine(this.board.view.svg, s.orientation, []);
    this.drawSteps();
    this.drawTree();
    this.drawAnalysis();
    void this.think(gen);
  }

  private async onBoardMove(move: LegalMove): Promise<void> {
    const path = move.path.join("-");
    await this.goTo(this.tree.add(this.current, path));
  }

  private toggleEngine(): void {
    this.analysing = !this.analysing;
    this.drawEngineButton();
    if (this.analysing) void this.think(this.generation);
    else this.stopThinking();
    this.drawAnalysis();
  }

  private stopThinking(): void {
    if (this.thinking) this.analyst.restart();
    this.thinking = false;
  }

  /** Deepens the analysis of the current position until it is stopped, changed or deep enough. */
  private async think(gen: number): Promise<void> {
    this.stopThinking();
    const view = this.view;
    if (!this.analysing || !view || view.outcome || !view.toMove) return;
    this.thinking = true;
    this.drawAnalysis();
    try {
      await this.analyst.analyse(view.position);
      for (let step = 0; step < MAX_STEPS; step++) {
        const a = await this.analyst.deepen(LINES);
        if (gen !== this.generation || !this.analysing) return;
        if (!a) break;
        this.analysis = a;
        this.drawAnalysis();
        if (a.done || decidedFor(a.lines[0].score) !== null) break;
      }
      this.thinking = false;
      this.drawAnalysis();
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      this.thinking = false;
      this.error.textContent = (e as Error).message;
    }
  }

  private drawEngineButton(): void {
    this.engineButton.textContent = this.analysing ? t("analysis.stop") : t("analysis.start");
    this.engineButton.toggleAttribute("data-on", this.analysing);
    this.engineButton.classList.toggle("primary", !this.analysing);
  }

  private drawAnalysis(): void {
    const view = this.view;
    const a = this.analysis;
    clear(this.lines);
    if (!view) return;
    const mover = view.toMove;
    if (!mover) {
      this.scoreLine.textContent = t("analysis.over");
      this.depthLine.textContent = "";
      this.barFill.style.width = "50%";
      drawBestLine(this.board.view.svg, this.board.state.orientation, []);
      return;
    }
    this.barFill.dataset.colour = mover;
    this.barFill.style.background = MARBLE_STYLE[mover].fill;
    this.barFill.style.borderColor = MARBLE_STYLE[mover].stroke;
    this.bar.setAttribute("aria-label", t("analysis.barFor", { colour: colourName(mover) }));
    if (!a) {
      this.scoreLine.textContent = this.analysing ? t("analysis.thinking") : t("analysis.off");
      this.scoreLine.removeAttribute("data-score");
      this.depthLine.textContent = "";
      this.barFill.style.width = "50%";
      this.bar.setAttribute("aria-valuenow", "50");
      drawBestLine(this.board.view.svg, this.board.state.orientation, []);
      return;
    }
    const best = a.lines[0];
    const share = barShare(best.score);
    this.barFill.style.width = `${(share * 100).toFixed(1)}%`;
    this.bar.setAttribute("aria-valuenow", (share * 100).toFixed(0));
    this.scoreLine.dataset.score = String(best.score);
    this.scoreLine.textContent = `${colourName(mover)}: ${this.lineText(best)}`;
    this.depthLine.textContent = this.thinking ? t("analysis.depthThinking", { depth: a.depth }) : t("analysis.depth", { depth: a.depth });
    a.lines.forEach((line, i) => {
      this.lines.append(h("li", { "data-line": i + 1, "data-move": line.path, "data-score": line.score },
        h("button", { type: "button", class: "link", onclick: () => void this.goTo(this.tree.add(this.current, line.path)) }, line.path),
        h("span", { class: "line-score" }, this.lineText(line)),
        h("span", { class: "line-pv" }, line.pv.slice(1, 6).join(" "))));
    });
    drawBestLine(this.board.view.svg, this.board.state.orientation, best.pv);
  }

  /** A line's worth: the moves to the finish in a race, otherwise its score. */
  private lineText(line: AnalysedLine): string {
    return line.finish !== null && line.finish !== undefined ? t("analysis.finishIn", { n: line.finish }) : this.scoreText(line.score);
  }

  private scoreText(score: number): string {
    const decided = decidedFor(score);
    if (decided === "win") return t("analysis.wins");
    if (decided === "loss") return t("analysis.loses");
    return t("analysis.rows", { rows: rowsText(score)! });
  }

  private drawSteps(): void {
    clear(this.steps);
    const step = (label: string, action: string, to: () => TreeNode | null) => {
      const target = to();
      return h("button", { type: "button", "data-step": action, disabled: !target || target === this.current, onclick: () => target && void this.goTo(target) }, label);
    };
    const endOfLine = () => {
      let n = this.current;
      while (n.children.length > 0) n = n.children[0];
      return n;
    };
    this.steps.append(
      step(t("online.first"), "first", () => this.tree.root),
      step(t("online.prev"), "prev", () => this.current.parent),
      step(t("online.next"), "next", () => this.current.children[0] ?? null),
      step(t("online.last"), "last", endOfLine),
    );
    clear(this.treeActions);
    const inVariation = this.isInVariation();
    if (this.current.parent) {
      this.treeActions.append(
        h("button", { type: "button", "data-action": "promote", disabled: !inVariation, onclick: () => this.promote() }, t("analysis.promote")),
        h("button", { type: "button", "data-action": "delete", onclick: () => void this.deleteFromHere() }, t("analysis.delete")),
      );
    }
  }

  private isInVariation(): boolean {
    for (let n = this.current; n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
    return false;
  }

  private promote(): void {
    this.tree.promote(this.current);
    this.drawSteps();
    this.drawTree();
  }

  private async deleteFromHere(): Promise<void> {
    const parent = this.current.parent;
    if (!parent) return;
    const drop = (n: TreeNode) => {
      this.views.delete(n.id);
      n.children.forEach(drop);
    };
    drop(this.current);
    this.tree.remove(this.current);
    await this.goTo(parent);
  }

  /** The tree as text with a button per move; variations in parentheses. */
  private drawTree(): void {
    clear(this.treeBox);
    const seats = this.views.get(this.tree.root.id)?.seats.length ?? 2;
    const out: (Node | string)[] = [];
    const moveButton = (n: TreeNode) => {
      const j = this.review.judgementOf(n);
      const b = h("button", { type: "button", class: "tree-move", "data-node": n.id, "data-path": n.path!,
        "data-judgement": j && j.judgement !== "best" && j.judgement !== "good" ? j.judgement : null,
        "aria-current": n === this.current ? "step" : null,
        onclick: () => void this.goTo(n) }, n.path!);
      return b;
    };
    const number = (ply: number) => h("span", { class: "round-no" }, `${Math.floor(ply / seats) + 1}.`);
    const line = (from: TreeNode, opening: boolean, into: (Node | string)[]) => {
      let n = from;
      let first = opening;
      while (n.children.length > 0) {
        const [main, ...others] = n.children;
        if (first || n.ply % seats === 0) into.push(number(n.ply));
        into.push(moveButton(main));
        for (const v of others) {
          const inner: (Node | string)[] = [number(n.ply), moveButton(v)];
          line(v, false, inner);
          into.push(h("span", { class: "variation" }, "(", ...inner, ")"));
        }
        first = others.length > 0;
        n = main;
      }
    };
    line(this.tree.root, true, out);
    if (out.length === 0) out.push(h("span", { class: "note" }, t("analysis.noMoves")));
    this.treeBox.append(...out);
  }

  private exportTree(): void {
    const seats = this.views.get(this.tree.root.id)?.seats.length ?? 2;
    const tags: [string, string][] = [["Variant", this.variant], ...this.tags];
    if (this.start) tags.push(["Start", this.start]);
    const text = writeTreeRecord(tags, this.tree, seats);
    this.exportBox.value = text;
    this.exportBox.hidden = false;
    if (this.downloadUrl) URL.revokeObjectURL(this.downloadUrl);
    this.downloadUrl = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    this.download.setAttribute("href", this.downloadUrl);
    this.download.hidden = false;
  }

  /** Reviews the main line, move by move, in the review worker. */
  private async startReview(): Promise<void> {
    if (this.review.busy) return;
    const tree = this.tree;
    const moves: MoveToReview[] = [];
    try {
      for (const node of tree.mainLine()) {
        const before = await this.viewOf(node.parent!);
        if (!before.toMove) break;
        moves.push({ node, before: before.position, mover: before.toMove });
      }
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      throw e;
    }
    if (moves.length === 0) {
      this.error.textContent = t("analysis.noMoves");
      return;
    }
    // A finished online game may have been reviewed by the server already.
    const stored = this.game ? await api.gameReview(this.game).catch(() => null) : null;
    if (this.destroyed || this.tree !== tree) return;
    try {
      await this.review.run(this.reviewer, moves, () => !this.destroyed && this.tree === tree, () => this.drawTree(), stored ?? undefined);
    } catch (e) {
      if (e instanceof EngineStopped || this.destroyed) return;
      this.error.textContent = (e as Error).message;
    }
  }
}
