/** Leaderboards, one per rating category (duel, multi, teams). */
import { t } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages/en";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { api, CATEGORIES, type RatingRow } from "./api";

/** The leaderboard page. */
export class LeaderboardPage implements Page {
  readonly root = h("section", { class: "leaderboard-page" });
  private category: string = CATEGORIES[0];
  private rows: RatingRow[] | null = null;
  private error = "";

  constructor() {
    this.load();
  }

  title(): string {
    return t("online.leaderboards");
  }

  private load(): void {
    this.rows = null;
    this.render();
    api.leaderboard(this.category).then(
      (r) => {
        this.rows = r.players;
        this.error = "";
        this.render();
      },
      (e: Error) => {
        this.error = e.message;
        this.render();
      },
    );
  }

  private render(): void {
    clear(this.root);
    this.root.append(
      h("h1", {}, t("online.leaderboards")),
      h("div", { class: "controls", role: "group" }, CATEGORIES.map((c) => h("button", {
        type: "button",
        "aria-pressed": c === this.category ? "true" : "false",
        onclick: () => {
          this.category = c;
          this.load();
        },
      }, t(`category.${c}` as MessageKey)))),
    );
    if (this.error) this.root.append(h("p", { class: "note error" }, `${t("online.unavailable")} (${this.error})`));
    if (!this.rows) return;
    if (this.rows.length === 0) {
      this.root.append(h("p", {}, t("online.none")));
      return;
    }
    this.root.append(h("table", { class: "data" },
      h("thead", {}, h("tr", {}, h("th", {}, t("online.rank")), h("th", {}, t("online.player")), h("th", {}, t("online.rating")), h("th", {}, t("online.played")))),
      h("tbody", {}, this.rows.map((r, i) => h("tr", {},
        h("td", {}, i + 1),
        h("td", {}, h("a", { href: `/games/${encodeURIComponent(r.username)}`, "data-link": true }, r.username)),
        h("td", {}, Math.round(r.rating)),
        h("td", {}, r.games))))));
  }

  relabel(): void {
    this.render();
  }
}
