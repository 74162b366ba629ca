/**
 * The bot account page (`/account/bot`): a registered player makes the account a bot
 * account (for good, as the server's bot rules say), then makes API tokens (each shown
 * once, with a copy button), sees them listed with when they were made and last used,
 * and revokes them. The server's answers (docs/bot-api.md) drive everything shown.
 */
import { t } from "../i18n/i18n";
import { api, type BotToken } from "../online/api";
import { currentUser, setUser } from "../online/session";
import type { UserInfo } from "../online/wire";
import { confirmDialog } from "../ui/confirm";
import { clear, h } from "../ui/dom";
import type { Page } from "../ui/page";

/** The bot account page. */
export class BotPage implements Page {
  readonly root = h("section", { class: "bot-page" });
  private user: UserInfo | null = null;
  private tokens: BotToken[] | null = null;
  /** The token just made, shown until the page is left. */
  private fresh: { label: string; token: string } | null = null;
  private copied = false;
  private error = "";
  private loaded = false;
  private readonly labelInput = h("input", { id: "token-label", type: "text", maxlength: 40, autocomplete: "off" });

  constructor() {
    void this.load();
  }

  title(): string {
    return t("bot.title");
  }

  relabel(): void {
    this.render();
  }

  private async load(): Promise<void> {
    try {
      this.user = await currentUser();
      if (this.user?.bot) this.tokens = (await api.tokens()).tokens;
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.loaded = true;
    this.render();
  }

  /** Runs a server call; its error is shown on the page. */
  private async act(f: () => Promise<void>): Promise<void> {
    this.error = "";
    try {
      await f();
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.render();
  }

  private async becomeBot(): Promise<void> {
    const name = this.user?.name ?? "";
    if (!(await confirmDialog(t("bot.confirm", { name }), t("bot.yes"), t("bot.no")))) return;
    await this.act(async () => {
      const r = await api.becomeBot();
      this.user = r.user;
      setUser(r.user);
      this.tokens = (await api.tokens()).tokens;
    });
  }

  private async create(): Promise<void> {
    const label = this.labelInput.value.trim();
    await this.act(async () => {
      const made = await api.createToken(label);
      this.fresh = { label: made.label, token: made.token };
      this.copied = false;
      this.labelInput.value = "";
      this.tokens = (await api.tokens()).tokens;
    });
  }

  private async revoke(token: BotToken): Promise<void> {
    if (!(await confirmDialog(t("bot.revokeConfirm", { label: token.label }), t("bot.revoke"), t("bot.no")))) return;
    await this.act(async () => {
      await api.revokeToken(token.id);
      this.tokens = (await api.tokens()).tokens;
    });
  }

  private async copy(token: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(token);
      this.copied = true;
    } catch (e) {
      this.error = (e as Error).message;
    }
    this.render();
  }

  private render(): void {
    clear(this.root);
    this.root.append(h("h1", {}, t("bot.title")));
    if (!this.loaded) return;
    const u = this.user;
    if (!u || u.guest) {
      this.root.append(h("p", { "data-bot-state": "no-account" }, u ? t("bot.guest") : t("bot.needLogin")), " ",
        h("a", { href: "/login", "data-link": true, class: "button" }, t("online.login")), " ",
        h("a", { href: "/register", "data-link": true, class: "button" }, t("online.register")));
    } else if (!u.bot) {
      this.root.append(
        h("p", {}, t("bot.about")),
        h("p", { class: "note", "data-bot-state": "person" }, t("bot.forGood")),
        h("button", { type: "button", class: "primary", "data-action": "become-bot", onclick: () => void this.becomeBot() }, t("bot.become", { name: u.name })),
      );
    } else {
      this.root.append(h("p", { "data-bot-state": "bot" }, t("bot.isBot", { name: u.name })));
      this.root.append(this.tokenTable(), this.createForm());
      if (this.fresh) this.root.append(this.freshToken(this.fresh));
      this.root.append(h("p", { class: "note" }, t("bot.run", { url: location.origin })));
    }
    if (this.error) this.root.append(h("p", { class: "note error", role: "alert", "data-bot-error": "" }, this.error));
  }

  private tokenTable(): HTMLElement {
    const tokens = this.tokens ?? [];
    if (tokens.length === 0) return h("p", { "data-tokens": "0" }, t("bot.none"));
    const when = (ms: number | null) => (ms === null ? t("bot.never") : new Date(ms).toLocaleString());
    return h("table", { class: "data", "data-tokens": tokens.length },
      h("thead", {}, h("tr", {}, h("th", {}, t("bot.label")), h("th", {}, t("bot.created_ms")), h("th", {}, t("bot.lastUsed")), h("th", {}))),
      h("tbody", {}, tokens.map((tok) => h("tr", { "data-token": tok.id },
        h("td", { "data-token-label": "" }, tok.label),
        h("td", {}, when(tok.created_ms)),
        h("td", { "data-last-used": "" }, when(tok.last_used_ms)),
        h("td", {}, h("button", { type: "button", "data-action": "revoke", onclick: () => void this.revoke(tok) }, t("bot.revoke"))),
      ))));
  }

  private createForm(): HTMLElement {
    const form = h("form", { class: "controls", "data-form": "token" },
      h("label", { for: "token-label" }, t("bot.label")), " ", this.labelInput, " ",
      h("button", { type: "submit", class: "primary", "data-action": "create-token" }, t("bot.create")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.create();
    });
    return form;
  }

  private freshToken(fresh: { label: string; token: string }): HTMLElement {
    return h("div", { class: "fresh-token", "data-fresh-token": "" },
      h("p", {}, t("bot.created")),
      h("p", {}, h("strong", {}, fresh.label), ": ", h("code", { "data-token-secret": "" }, fresh.token)),
      h("button", { type: "button", "data-action": "copy-token", onclick: () => void this.copy(fresh.token) }, t("bot.copy")),
      this.copied ? h("span", { role: "status", "data-copied": "" }, ` ${t("bot.copied")}`) : null);
  }
}
