/**
 * The rules page. In English it shows the project's own rules text (`docs/rules.md`,
 * read at build time) when the repository has it; every language otherwise shows the
 * rules from its message file in `content/rules/`.
 */
import { lang, t } from "../i18n/i18n";
import { markdownToHtml } from "../content/markdown";
import { rulesEn } from "../content/rules/en";
import { rulesIt } from "../content/rules/it";
import { rulesEl } from "../content/rules/el";
import { rulesPt } from "../content/rules/pt";
import type { RulesDoc } from "../content/rules/types";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";

const DOCS = { en: rulesEn, it: rulesIt, el: rulesEl, pt: rulesPt } as const;

/** `docs/rules.md` when it exists at build time. */
const PROJECT_RULES: string | undefined = Object.values(
  import.meta.glob("../../../docs/rules.md", { query: "?raw", import: "default", eager: true }),
)[0] as string | undefined;

/**
 * The project's rules text as players read it: the title and the numbered sections,
 * without the opening note addressed to the project's developers and without the
 * references to source pages such as "[000 §Notation]".
 */
export function playerRules(md: string): string {
  const title = /^# .*$/m.exec(md)?.[0] ?? "";
  const firstSection = md.search(/^## /m);
  const body = firstSection < 0 ? md : `${title}\n\n${md.slice(firstSection)}`;
  return body.replace(/[ \t]*\[\d{3}[^\]]*\]/g, "");
}

function renderDoc(doc: RulesDoc): HTMLElement {
  const root = h("article", { class: "rules" }, h("h1", {}, doc.title));
  for (const s of doc.sections) {
    const section = h("section", {}, h("h2", {}, s.heading));
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
    root.append(section);
  }
  return root;
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
    if (lang() === "en" && PROJECT_RULES) {
      const article = h("article", { class: "rules markdown" });
      article.innerHTML = markdownToHtml(playerRules(PROJECT_RULES));
      this.root.append(article);
    } else {
      this.root.append(renderDoc(DOCS[lang()]));
    }
  }

  relabel(): void {
    this.render();
  }
}
