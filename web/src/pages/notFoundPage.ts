/** Shown for an address the client does not know. */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";

/** The not-found page: points back home. */
export class NotFoundPage implements Page {
  readonly root = h("section", { class: "not-found" });

  constructor() {
    this.render();
  }

  title(): string {
    return "404";
  }

  private render(): void {
    clear(this.root);
    this.root.append(h("h1", {}, "404"), h("p", {}, h("a", { href: "/", "data-link": true }, t("nav.home"))));
  }

  relabel(): void {
    this.render();
  }
}
