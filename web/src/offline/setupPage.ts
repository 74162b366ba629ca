/** The offline setup screen: players, people at this screen, level, variant. */
import { t } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages/en";
import { clear, h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import type { Page } from "../ui/page";
import { readRecord } from "./record";
import { savedGame } from "./saved";
import { againstComputer, DEFAULT_SETUP, LEVELS, PLAYER_COUNTS, setupQuery, VARIANTS_BY_PLAYERS, type Setup } from "./setup";

/** The localised name of a variant id, e.g. "Long jumps · 2". */
export function variantName(id: string): string {
  const [family, seats] = id.split("-");
  return `${t(`variant.${family}` as MessageKey)} · ${seats.replace("x", "×")}`;
}

/** The setup form. */
export class SetupPage implements Page {
  readonly root: HTMLElement;
  private setup: Setup = DEFAULT_SETUP;

  constructor() {
    this.root = h("section", { class: "setup-page" });
    this.render();
  }

  title(): string {
    return t("setup.title");
  }

  private select(name: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void): HTMLElement {
    const sel = h("select", { name, id: `setup-${name}`, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
      options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
    return h("div", { class: "field" }, h("label", { for: `setup-${name}` }, label), sel);
  }

  private render(): void {
    const s = this.setup;
    clear(this.root);
    const change = (next: Partial<Setup>) => {
      const merged = { ...this.setup, ...next };
      const variants = VARIANTS_BY_PLAYERS[merged.players];
      this.setup = {
        ...merged,
        humans: Math.min(merged.humans, merged.players),
        variant: variants.includes(merged.variant) ? merged.variant : variants[0],
      };
      this.render();
    };
    const record = readRecord(localStorage, s);
    const form = h("form", {
      class: "setup",
      onsubmit: (e: Event) => {
        e.preventDefault();
        navigate(`/offline${setupQuery(this.setup)}`);
      },
    },
      this.select("players", t("setup.players"), PLAYER_COUNTS.map((n) => [String(n), String(n)]), String(s.players), (v) => change({ players: Number(v) })),
      this.select("humans", t("setup.humans"), Array.from({ length: s.players }, (_, i) => [String(i + 1), String(i + 1)]), String(s.humans), (v) => change({ humans: Number(v) })),
      this.select("level", t("setup.level"), LEVELS.map((n) => [String(n), String(n)]), String(s.level), (v) => change({ level: Number(v) })),
      this.select("variant", t("setup.variant"), VARIANTS_BY_PLAYERS[s.players].map((id) => [id, variantName(id)]), s.variant, (v) => change({ variant: v })),
      h("p", { class: "record" }, againstComputer(s) ? t("setup.recordDraws", { wins: record.wins, draws: record.draws, losses: record.losses }) : t("setup.noRecord")),
      h("button", { type: "submit", class: "primary" }, t("setup.start")),
    );
    const saved = savedGame(localStorage);
    const resume = saved && !saved.finished
      ? h("p", {}, h("a", { href: `/offline${saved.query}`, "data-link": true, class: "button primary", "data-action": "continue" }, t("setup.continue")))
      : null;
    this.root.append(h("h1", {}, t("setup.title")), resume ?? "", h("p", {}, t("setup.intro")), form, h("p", { class: "note" }, t("table.offlineNote")));
  }

  relabel(): void {
    this.render();
  }
}
