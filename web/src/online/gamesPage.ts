/** A player's games and ratings. */
import { isColour } from "../colour";
import { t } from "../i18n/i18n";
import { variantName } from "../offline/setupPage";
import { reasonText } from "../table/labels";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { swatch } from "../ui/swatch";
import { api, type GameSummary, type RatingRow } from "./api";
import { playerName } from "./playerName";

/** A rating change such as " 1500 → 1516", or nothing for casual games. */
export function ratingChange(before: number | null, after: number | null): string {
  return before !== null && after !== null ? ` ${Math.round(before)} → ${Math.round(after)}` : "";
}

/** The games page of one player. */
export class GamesPage implements Page {
  readonly root = h("section", { class: "games-page" });
  private games: GameSummary[] | null = null;
  private ratings: RatingRow[] = [];
  private error = "";

  constructor(private readonly name: string) {
    this.render();
    Promise.all([api.userGames(name), api.userRatings(name)]).then(
      ([g, r]) => {
        this.games = g.games;
        this.ratings = r.ratings;
        this.render();
      },
      (e: Error) => {
        this.error = e.message;
        this.render();
      },
    );
  }

  title(): string {
    return `${t("online.games")}: ${this.name}`;
  }

  private render(): void {
    clear(this.root);
    this.root.append(h("h1", {}, this.title()));
    if (this.error) this.root.append(h("p", { class: "note error" }, this.error));
    if (this.ratings.length) {
      this.root.append(h("h2", {}, t("online.rating")), h("ul", {},
        this.ratings.map((r) => h("li", {}, `${t(`category.${r.category}` as "category.duel")}: ${Math.round(r.rating)} (${r.games} ${t("online.played")})`))));
    }
    if (!this.games) return;
    if (this.games.length === 0) {
      this.root.append(h("p", {}, t("online.none")));
      return;
    }
    this.root.append(h("table", { class: "data games" },
      h("thead", {}, h("tr", {}, h("th", {}, t("online.date")), h("th", {}, t("setup.variant")), h("th", {}, t("setup.players")),
        h("th", {}, t("online.result")), h("th", {}, ""))),
      h("tbody", {}, this.games.map((g) => h("tr", { "data-game": g.id },
        h("td", {}, new Date(g.finished_ms ?? g.created_ms).toLocaleString()),
        h("td", {}, variantName(g.variant)),
        h("td", {}, g.seats.map((s) => h("span", { class: "seat" }, isColour(s.colour) ? swatch(s.colour) : null,
          `${playerName(s.player)}${s.place ? ` (${s.place})` : ""}${ratingChange(s.rating_before, s.rating_after)} `))),
        h("td", {}, g.reason ? reasonText(g.reason) : g.status),
        h("td", {}, h("a", { href: `/replay/${encodeURIComponent(g.id)}`, "data-link": true }, t("online.replay"))),
      )))));
  }

  relabel(): void {
    this.render();
  }
}
