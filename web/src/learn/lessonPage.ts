/**
 * One lesson: the explanation, a small live board where the learner makes the move,
 * and the verdict. A wrong move is taken back so the learner can try again.
 */
import { mountBoard, type Board } from "../board/board";
import { setPosition } from "../board/actions";
import { groupMoves, initialState, type LegalMove } from "../board/state";
import type { Colour } from "../colour";
import { EngineClient } from "../engine/client";
import type { GameView } from "../engine/protocol";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import { boardLabels } from "../table/labels";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { LESSONS, type LessonDef, type LessonStart } from "./lessons";
import { lessonText } from "./texts";

/** A lesson page. */
export class LessonPage implements Page {
  readonly root: HTMLElement;
  private readonly engine = new EngineClient();
  private readonly board: Board;
  private readonly text = h("div", { class: "lesson-text" });
  private readonly feedback = h("p", { class: "feedback", role: "status", "aria-live": "polite" });
  private readonly nav = h("nav", { class: "lesson-nav" });
  private readonly choices = h("div", { class: "lesson-choices" });
  private view: GameView | null = null;
  private start: LessonStart;
  private verdict: "right" | "wrong" | null = null;

  constructor(private readonly lesson: LessonDef) {
    this.start = lesson.starts[0];
    const boardBox = h("div", { class: "board-box lesson-board" });
    this.root = h("article", { class: "lesson", "data-lesson": lesson.id },
      this.text, this.choices, boardBox, this.feedback, this.nav);
    this.board = mountBoard(boardBox, initialState("white", boardLabels, (m) => void this.tryMove(m)));
    this.render();
    void this.reset();
  }

  title(): string {
    return lessonText(this.lesson.id).title;
  }

  private async load(): Promise<GameView> {
    const s = this.start;
    return "position" in s ? this.engine.fromPosition(s.variant, s.position) : this.engine.newGame(s.variant);
  }

  /** Puts the lesson's position back on the board. */
  async reset(lastTry: readonly HoleName[] | null = null): Promise<void> {
    const view = await this.load();
    this.view = view;
    this.showView(view, true, lastTry);
  }

  private showView(view: GameView, movable: boolean, lastMove: readonly HoleName[] | null): void {
    const s = this.board.state;
    const pieces = new Map(Object.entries(view.pieces) as [HoleName, Colour][]);
    const who = view.toMove;
    setPosition(s, pieces, movable ? who : null, movable && who ? groupMoves(view.legal) : new Map(), lastMove ? [{ colour: pieces.get(lastMove[lastMove.length - 1]) ?? who ?? "white", path: lastMove }] : []);
    s.orientation = "white";
    s.goal = view.goals.white ?? [];
    this.board.redraw();
  }

  private async tryMove(move: LegalMove): Promise<void> {
    const before = this.view;
    if (!before) return;
    const after = await this.engine.play(move.path.join("-"));
    const right = this.lesson.check(move, before, after);
    if (right) this.showView(after, false, after.lastMove);
    else await this.reset(move.path);
    // The verdict shows once the board already holds the result.
    this.verdict = right ? "right" : "wrong";
    this.renderFeedback();
  }

  private renderFeedback(): void {
    const words = lessonText(this.lesson.id);
    this.feedback.className = `feedback ${this.verdict ?? ""}`;
    this.feedback.setAttribute("data-verdict", this.verdict ?? "");
    this.feedback.textContent =
      this.verdict === "right" ? t("learn.right", { why: words.right })
        : this.verdict === "wrong" ? t("learn.wrong", { why: words.wrong }) : "";
  }

  private render(): void {
    const words = lessonText(this.lesson.id);
    const index = LESSONS.indexOf(this.lesson);
    clear(this.text);
    this.text.append(
      ...[
      h("p", { class: "crumb" }, h("a", { href: "/learn", "data-link": true }, t("learn.back")), ` · ${index + 1}/${LESSONS.length}`),
      h("h1", {}, words.title),
      words.body.map((p) => h("p", {}, p)),
      h("p", { class: "task" }, h("strong", {}, `${t("learn.task")}: `), words.task),
      ].flat(),
    );
    clear(this.choices);
    if (this.lesson.starts.length > 1) {
      for (const s of this.lesson.starts) {
        const n = s.variant.split("-")[1];
        this.choices.append(h("button", {
          type: "button",
          "aria-pressed": s === this.start ? "true" : "false",
          onclick: () => {
            this.start = s;
            this.verdict = null;
            this.render();
            void this.reset();
          },
        }, `${n} · ${t("setup.players")}`));
      }
    }
    clear(this.nav);
    const prev = LESSONS[index - 1];
    const next = LESSONS[index + 1];
    const items: (HTMLElement | null)[] = [
      h("button", { type: "button", onclick: () => { this.verdict = null; this.renderFeedback(); void this.reset(); } }, t("learn.again")),
      prev ? h("a", { href: `/learn/${prev.id}`, "data-link": true, class: "button" }, t("learn.previous")) : null,
      next
        ? h("a", { href: `/learn/${next.id}`, "data-link": true, class: "button primary", "data-next": true }, t("learn.next"))
        : h("p", {}, t("learn.done")),
    ];
    for (const item of items) if (item) this.nav.append(item);
    this.renderFeedback();
    this.board.redraw();
  }

  relabel(): void {
    this.render();
  }

  destroy(): void {
    this.engine.close();
  }
}
