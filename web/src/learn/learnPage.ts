/** The list of lessons. */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import { LESSONS } from "./lessons";
import { lessonText } from "./texts";

/** The lessons index. */
export class LearnPage implements Page {
  readonly root = h("section", { class: "learn-page" });

  constructor() {
    this.render();
  }

  title(): string {
    return t("learn.title");
  }

  private render(): void {
    clear(this.root);
    this.root.append(
      h("h1", {}, t("learn.title")),
      h("p", {}, t("learn.intro")),
      h("ol", { class: "lesson-list" },
        LESSONS.map((l) => h("li", {}, h("a", { href: `/learn/${l.id}`, "data-link": true }, lessonText(l.id).title)))),
    );
  }

  relabel(): void {
    this.render();
  }
}
