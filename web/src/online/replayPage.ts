/** A stored game: step through its moves on the board, download its record. */
import type { Colour } from "../colour";
import { isColour } from "../colour";
import { EngineClient } from "../engine/client";
import { t } from "../i18n/i18n";
import { Table } from "../table/table";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { variantName } from "../offline/setupPage";
import { analysisHref } from "../analysis/link";
import { api, type Replay } from "./api";
import { chatList } from "./chatPanel";
import { playerName } from "./playerName";

/** The replay page of one game. */
export class ReplayPage implements Page {
  readonly root: HTMLElement;
  private readonly engine = new EngineClient();
  private readonly table = new Table(() => undefined);
  private readonly heading = h("h1", {});
  private readonly steps = h("div", { class: "replay-steps" });
  private readonly list = h("ol", { class: "replay-moves" });
  private readonly download = h("a", { class: "button", download: true, "data-action": "download" });
  private readonly analyseLink = h("a", { class: "button", href: "/analysis", "data-link": true, "data-action": "analyse" });
  private readonly error = h("p", { class: "note error" });
  private readonly chat = h("div", { class: "replay-chat" });
  private replay: Replay | null = null;
  /** Number of moves shown as played (0 = the start). */
  private ply = 0;
  /** Counts requests to show a position, so a slow answer never overwrites a newer one. */
  private shown = 0;

  constructor(id: string) {
    this.download.setAttribute("href", api.recordUrl(id));
    this.table.controls.append(this.steps, this.download, this.analyseLink);
    this.root = h("section", { class: "replay-page", "data-game": id }, this.heading, this.error, this.table.root, this.list, this.chat);
    this.relabel();
    api.replay(id).then(
      (r) => {
        this.replay = r;
        this.ply = r.moves.length;
        this.relabel();
      },
      (e: Error) => (this.error.textContent = e.message),
    );
  }

  title(): string {
    return t("online.replay");
  }

  /** Shows the position after `ply` moves. */
  async go(ply: number): Promise<void> {
    const r = this.replay;
    if (!r) return;
    this.ply = Math.max(0, Math.min(r.moves.length, ply));
    const position = this.ply === 0 ? r.start : r.moves[this.ply - 1].position;
    const stamp = ++this.shown;
    const base = await this.engine.positionViewUnlessClosed(position);
    if (!base) return; // the page was left while this view was on its way
    if (stamp !== this.shown) return;
    const atEnd = this.ply === r.moves.length;
    const finished = r.seats.some((s) => s.place !== null);
    const outcome = atEnd && finished
      ? { reason: r.reason ?? "", places: Object.fromEntries(r.seats.filter((s) => s.place !== null).map((s) => [s.colour, s.place!])) }
      : null;
    const clocks = this.ply > 0 ? r.moves[this.ply - 1].clock_ms : null;
    this.table.show(
      {
        ...base,
        moves: r.moves.slice(0, this.ply).map((m) => m.path),
        lastMove: this.ply > 0 ? r.moves[this.ply - 1].path.split("-") : null,
        outcome,
        toMove: outcome ? null : base.toMove,
        legal: [],
      },
      r.seats.filter((s) => isColour(s.colour)).map((s) => ({
        colour: s.colour as Colour,
        name: playerName(s.player),
        clockMs: clocks ? clocks[s.seat] ?? null : null,
      })),
      { movable: null, orientation: base.seats[0], status: `${this.ply}/${r.moves.length}` },
    );
    for (const li of this.list.querySelectorAll("li")) li.removeAttribute("aria-current");
    this.list.querySelector(`[data-ply="${this.ply}"]`)?.setAttribute("aria-current", "step");
  }

  relabel(): void {
    const r = this.replay;
    this.heading.textContent = r ? `${t("online.replay")}: ${variantName(r.variant)}` : t("online.replay");
    this.download.textContent = t("online.download");
    this.analyseLink.textContent = t("analysis.open");
    if (r) this.analyseLink.setAttribute("href", analysisHref({ variant: r.variant, start: r.start, moves: r.moves.map((m) => m.path), game: r.id }));
    clear(this.steps);
    const step = (label: string, action: string, to: () => number) =>
      h("button", { type: "button", "data-step": action, onclick: () => void this.go(to()) }, label);
    this.steps.append(
      step(t("online.first"), "first", () => 0),
      step(t("online.prev"), "prev", () => this.ply - 1),
      step(t("online.next"), "next", () => this.ply + 1),
      step(t("online.last"), "last", () => Number.MAX_SAFE_INTEGER),
    );
    clear(this.list);
    r?.moves.forEach((m, i) =>
      this.list.append(h("li", { "data-ply": i + 1 }, h("button", { type: "button", class: "link", onclick: () => void this.go(i + 1) }, m.path))));
    clear(this.chat);
    if (r) this.chat.append(chatList(r.chat ?? []));
    this.table.relabel();
    void this.go(this.ply);
  }

  destroy(): void {
    this.engine.close();
  }
}
