/**
 * The start page: one click starts a game against the computer; the star with its
 * two armies shows what the game looks like; cards lead to the rest of the site.
 */
import type { Colour } from "../colour";
import { mountBoard } from "../board/board";
import { initialState } from "../board/state";
import { pointHoles } from "../geometry/points";
import type { HoleName } from "../geometry/hole";
import { t } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages/en";
import { savedGame } from "../offline/saved";
import { DEFAULT_SETUP, setupQuery } from "../offline/setup";
import { boardLabels } from "../table/labels";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";

const CARDS: readonly [string, MessageKey, MessageKey][] = [
  ["/offline", "nav.play", "home.offline"],
  ["/lobby", "nav.online", "home.online"],
  ["/learn", "nav.learn", "home.learn"],
  ["/rules", "nav.rules", "home.rules"],
];

/** The home page. */
export class HomePage implements Page {
  readonly root = h("section", { class: "home" });
  private readonly text = h("div", { class: "home-text" });

  constructor() {
    // A two-player start position, drawn once and not interactive.
    const picture = h("div", { class: "home-board", inert: true, "aria-hidden": "true" });
    const state = initialState("white", boardLabels, () => undefined);
    const pieces = new Map<HoleName, Colour>();
    for (const c of ["white", "black"] as const) for (const hole of pointHoles(c)) pieces.set(hole, c);
    state.pieces = pieces;
    mountBoard(picture, state);
    this.root.append(this.text, picture);
    this.render();
  }

  title(): string {
    return t("nav.home");
  }

  private render(): void {
    clear(this.text);
    const saved = savedGame(localStorage);
    this.text.append(
      h("h1", {}, t("app.name")),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("p", { class: "play-now" },
        h("a", { href: `/offline${setupQuery(DEFAULT_SETUP)}`, "data-link": true, class: "button primary big", "data-action": "play-now" }, t("home.playNow")),
        saved && !saved.finished ? h("a", { href: `/offline${saved.query}`, "data-link": true, class: "button", "data-action": "continue" }, t("setup.continue")) : null),
      h("p", { class: "note" }, t("home.playNowNote")),
      h("ul", { class: "cards" },
        CARDS.map(([href, title, text]) =>
          h("li", {}, h("a", { href, "data-link": true, class: "card" }, h("strong", {}, t(title)), h("span", {}, t(text)))))),
    );
  }

  relabel(): void {
    this.render();
  }
}
