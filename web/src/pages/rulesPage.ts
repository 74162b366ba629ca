/**
 * The rules page: the rules for players in the chosen language, section by section,
 * with small board diagrams where a picture explains better than words. The same
 * sections and diagrams appear in every language (content/rules/).
 */
import { lang, t } from "../i18n/i18n";
import { rulesEn } from "../content/rules/en";
import { rulesIt } from "../content/rules/it";
import { rulesEl } from "../content/rules/el";
import { rulesPt } from "../content/rules/pt";
import { DIAGRAMS } from "../content/rules/figures";
import { drawDiagram } from "../content/rules/diagram";
import type { RulesDoc, RulesSection } from "../content/rules/types";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";
import "../content/rules/rules.css";

/** The rules document of each language. */
export const RULES_DOCS: Readonly<Record<"en" | "it" | "el" | "pt", RulesDoc>> = {
  en: rulesEn,
  it: rulesIt,
  el: rulesEl,
  pt: rulesPt,
};

function renderSection(s: RulesSection): HTMLElement {
  const section = h("section", { id: `rules-${s.id}`, "data-section": s.id }, h("h2", {}, s.heading));
  let list: HTMLUListElement | null = null;
  for (const p of s.paras) {
    if (p.startsWith("• ")) {
      if (!list) section.append((list = h("ul", {})));
      list.append(h("li", {}, p.slice(2)));
    } else {
      list = null;
      section.append(h("p", {}, p));
    }
  }
  if (s.figures && s.figures.length > 0) {
    const row = h("div", { class: "rules-figures" });
    for (const f of s.figures) {
      const figure = h("figure", { class: "rules-figure" });
      figure.append(drawDiagram(f.diagram, DIAGRAMS[f.diagram], f.caption), h("figcaption", {}, f.caption));
      row.append(figure);
    }
    section.append(row);
  }
  return section;
}

/** The rules page. */
export class RulesPage implements Page {
  readonly root = h("div", { class: "rules-page" });

  constructor() {
    this.render();
  }

  title(): string {
    return t("rules.title");
  }

  private render(): void {
    clear(this.root);
    const doc = RULES_DOCS[lang()];
    const article = h("article", { class: "rules" }, h("h1", {}, doc.title));
    for (const s of doc.sections) article.append(renderSection(s));
    this.root.append(article);
  }

  relabel(): void {
    this.render();
  }
}
