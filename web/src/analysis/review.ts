/**
 * The review of a game on the analysis board: every move of the main line judged by
 * the engine in the browser worker against the best move of its position (a search of
 * bounded depth and nodes per move), an evaluation graph over the moves, the moves
 * that lost the most marked as inaccuracies or mistakes with the better move, and a
 * jump to the biggest mistake.
 */
import type { Colour } from "../colour";
import type { EngineClient } from "../engine/client";
import type { AnalysedLine, Judgement as EngineJudgement } from "../engine/protocol";
import { t } from "../i18n/i18n";
import { colourName } from "../table/labels";
import { clear, h } from "../ui/dom";
import type { TreeNode } from "./moveTree";
import { judge, lossOf, raceLoss, type Judgement } from "./score";

/** Plies of the search judging each move. */
export const REVIEW_DEPTH = 3;
/** Nodes of the search judging each move (each of the two searches). */
export const REVIEW_NODES = 40_000;

/** One move of the main line to review. */
export interface MoveToReview {
  /** The tree node of the move. */
  readonly node: TreeNode;
  /** Position string before the move. */
  readonly before: string;
  /** The seat that played it. */
  readonly mover: Colour;
}

/** One reviewed move. */
export interface ReviewedMove extends MoveToReview {
  /** The best move of the position before. */
  readonly best: AnalysedLine;
  /** Score of the move played for its mover, `null` when the engine would never play it. */
  readonly score: number | null;
  /** Hundredths of a row lost against the best move. */
  readonly loss: number;
  /** In a race, the moves it added to the mover's finish; `null` outside races. */
  readonly movesLost: number | null;
  /** The better move to show. */
  readonly better: string;
  /** What the move was. */
  readonly judgement: Judgement;
}

/** The review panel. */
export class GameReview {
  /** Root element. */
  readonly root: HTMLElement;
  private readonly status = h("p", { class: "note", role: "status" });
  private readonly graph = h("div", { class: "review-graph" });
  private readonly list = h("ol", { class: "review-list" });
  private readonly jump = h("button", { type: "button", "data-action": "biggest-mistake", hidden: true });
  private results: ReviewedMove[] = [];
  private total = 0;
  private running = false;

  /** `onJump` shows a node of the tree (the position before a marked move). */
  constructor(private readonly onJump: (node: TreeNode) => void, private readonly seat0: () => Colour | null) {
    this.jump.addEventListener("click", () => this.jumpToBiggest());
    this.root = h("section", { class: "game-review", hidden: true, "data-review": "" },
      h("h2", {}), this.status, this.graph, this.jump, this.list);
    this.relabel();
  }

  /** The judgement of a node, once reviewed. */
  judgementOf(node: TreeNode): ReviewedMove | undefined {
    return this.results.find((r) => r.node === node);
  }

  /** Whether a review is under way. */
  get busy(): boolean {
    return this.running;
  }

  /**
   * Reviews `moves` one by one in `engine`; `alive` answers false once the review is
   * no longer wanted (the page was left or another game loaded). `onProgress` runs
   * after each move. `stored` holds judgements the server computed for the same
   * moves (`stored.paths[i]` is the move judged by `stored.moves[i]`); they are used
   * instead of searching in the browser.
   */
  async run(
    engine: EngineClient,
    moves: readonly MoveToReview[],
    alive: () => boolean,
    onProgress: () => void,
    stored?: { readonly paths: readonly string[]; readonly moves: readonly EngineJudgement[] },
  ): Promise<void> {
    this.root.hidden = false;
    const fromServer = (i: number) => (stored && stored.paths[i] === moves[i].node.path ? stored.moves[i] : undefined);
    this.root.dataset.source = moves.length > 0 && moves.every((_, i) => fromServer(i)) ? "server" : "browser";
    this.results = [];
    this.total = moves.length;
    this.running = true;
    this.draw();
    try {
      for (const [i, m] of moves.entries()) {
        const j = fromServer(i) ?? (await engine.judge(m.before, m.node.path!, REVIEW_DEPTH, REVIEW_NODES));
        if (!alive()) return;
        const score = j.played?.score ?? null;
        // In a race the solver's count of moves to the finish is exact where the
        // evaluation only sees rows; elsewhere the search's scores decide.
        const race = j.race;
        const same = race ? race.movesLost === 0 && race.better === m.node.path : j.best.path === m.node.path;
        const loss = race ? raceLoss(race.movesLost) : same ? 0 : lossOf(j.best.score, score ?? -Infinity);
        const better = race ? race.better : j.best.path;
        this.results.push({ ...m, best: j.best, score, loss, movesLost: race ? race.movesLost : null, better, judgement: judge(loss, same) });
        this.draw();
        onProgress();
      }
    } finally {
      this.running = false;
      if (alive()) this.draw();
    }
  }

  /** The reviewed move that lost the most, if any lost enough to be marked. */
  biggestMistake(): ReviewedMove | null {
    let worst: ReviewedMove | null = null;
    for (const r of this.results) {
      if (r.judgement !== "inaccuracy" && r.judgement !== "mistake") continue;
      if (!worst || r.loss > worst.loss) worst = r;
    }
    return worst;
  }

  private jumpToBiggest(): void {
    const worst = this.biggestMistake();
    if (worst?.node.parent) this.onJump(worst.node.parent);
  }

  /** Redraws every text in the language in use. */
  relabel(): void {
    this.root.querySelector("h2")!.textContent = t("analysis.review");
    this.jump.textContent = t("analysis.biggestMistake");
    this.draw();
  }

  private draw(): void {
    this.status.textContent = this.running
      ? t("analysis.reviewing", { done: this.results.length, total: this.total })
      : t("analysis.reviewed", {
          mistakes: this.results.filter((r) => r.judgement === "mistake").length,
          inaccuracies: this.results.filter((r) => r.judgement === "inaccuracy").length,
        }) + (this.root.dataset.source === "server" ? ` ${t("analysis.reviewedByServer")}` : "");
    this.jump.hidden = this.biggestMistake() === null;
    this.drawGraph();
    clear(this.list);
    for (const r of this.results) {
      if (r.judgement !== "mistake" && r.judgement !== "inaccuracy") continue;
      const better = r.better;
      this.list.append(h("li", { "data-judgement": r.judgement, "data-ply": r.node.ply },
        h("button", { type: "button", class: "link", onclick: () => r.node.parent && this.onJump(r.node.parent) },
          `${r.node.ply}. ${colourName(r.mover)} ${r.node.path}`),
        ` — ${t(r.judgement === "mistake" ? "analysis.mistake" : "analysis.inaccuracy")} `,
        h("span", { class: "loss" }, r.movesLost !== null
          ? t("analysis.lostMoves", { n: r.movesLost })
          : t("analysis.lost", { rows: (r.loss / 100).toFixed(2) })),
        h("span", { class: "better", "data-better": better }, t("analysis.better", { move: better }))));
    }
  }

  /**
   * The graph: the evaluation after each move, for the first seat in a two-sided game
   * (one curve), otherwise for the player who moved; marked moves get a red (mistake)
   * or orange (inaccuracy) bar. Clicking a move's column shows the position before it.
   */
  private drawGraph(): void {
    clear(this.graph);
    const n = Math.max(this.total, 1);
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 -110 ${n} 220`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("class", "review-graph-svg");
    svg.setAttribute("role", "img");
    const first = this.seat0();
    svg.setAttribute("aria-label", first ? t("analysis.graphFor", { colour: colourName(first) }) : t("analysis.graph"));
    const mid = document.createElementNS(NS, "line");
    mid.setAttribute("x1", "0");
    mid.setAttribute("x2", String(n));
    mid.setAttribute("class", "review-graph-zero");
    svg.append(mid);
    const points: string[] = [];
    this.results.forEach((r, i) => {
      const raw = r.score ?? -1000;
      const value = first && r.mover !== first ? -raw : raw;
      const y = -100 * Math.tanh(value / 800);
      points.push(`${i + 0.5},${y.toFixed(1)}`);
      if (r.judgement === "mistake" || r.judgement === "inaccuracy") {
        const bar = document.createElementNS(NS, "rect");
        bar.setAttribute("x", String(i));
        bar.setAttribute("y", "-110");
        bar.setAttribute("width", "1");
        bar.setAttribute("height", "220");
        bar.setAttribute("class", `review-mark ${r.judgement}`);
        svg.append(bar);
      }
      const hit = document.createElementNS(NS, "rect");
      hit.setAttribute("x", String(i));
      hit.setAttribute("y", "-110");
      hit.setAttribute("width", "1");
      hit.setAttribute("height", "220");
      hit.setAttribute("fill", "transparent");
      hit.setAttribute("data-ply", String(r.node.ply));
      hit.addEventListener("click", () => r.node.parent && this.onJump(r.node.parent));
      svg.append(hit);
    });
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("class", "review-graph-line");
    svg.insertBefore(line, svg.firstChild?.nextSibling ?? null);
    this.graph.append(svg);
  }
}
