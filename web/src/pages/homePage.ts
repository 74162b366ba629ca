/** The start page: what Stella is and where to go. */
import { t } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages/en";
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

  constructor() {
    this.render();
  }

  title(): string {
    return t("nav.home");
  }

  private render(): void {
    clear(this.root);
    this.root.append(
      h("h1", {}, t("app.name")),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("ul", { class: "cards" },
        CARDS.map(([href, title, text]) =>
          h("li", {}, h("a", { href, "data-link": true, class: "card" }, h("strong", {}, t(title)), h("span", {}, t(text)))))),
    );
  }

  relabel(): void {
    this.render();
  }
}
