/**
 * A table's chat: the lines so far, a box to write in (people with a session), and a
 * per-person "hide" that this browser remembers. Every line is shown as text, never
 * as HTML.
 */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import type { ChatLine } from "./wire";

/** Longest line the server accepts, in characters. */
export const CHAT_MAX_CHARS = 280;

/** localStorage key of the users whose lines are hidden. */
export const MUTED_KEY = "stella.chat.muted";

/** A hidden user: id, and the name to show on the "show again" button. */
export interface MutedUser {
  readonly id: string;
  readonly name: string;
}

/** The hidden users stored in `store` (none when unreadable). */
export function readMuted(store: Pick<Storage, "getItem"> | null): MutedUser[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(MUTED_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (m): m is MutedUser => typeof m === "object" && m !== null && typeof m.id === "string" && typeof m.name === "string",
    );
  } catch {
    return [];
  }
}

/** Stores the hidden users. */
export function writeMuted(store: Pick<Storage, "setItem"> | null, muted: readonly MutedUser[]): void {
  try {
    store?.setItem(MUTED_KEY, JSON.stringify(muted));
  } catch {
    // Private browsing may refuse storage; hiding then lasts for this page only.
  }
}

/** The lines to show: everything but the hidden users' lines. */
export function visibleLines(lines: readonly ChatLine[], muted: readonly MutedUser[]): ChatLine[] {
  const ids = new Set(muted.map((m) => m.id));
  return lines.filter((l) => !ids.has(l.from.id));
}

/** A read-only list of chat lines (replays). */
export function chatList(lines: readonly ChatLine[]): HTMLElement {
  return h(
    "section",
    { class: "chat", "data-panel": "chat" },
    h("h2", {}, t("chat.title")),
    h(
      "ol",
      { class: "chat-lines" },
      lines.length === 0 ? h("li", { class: "chat-empty" }, t("chat.empty")) : null,
      lines.map((line) => lineElement(line, null)),
    ),
  );
}

/** One line as an element: time, name, a watching tag, the text (as text), and an
 * optional button after it. */
function lineElement(line: ChatLine, after: HTMLElement | null): HTMLElement {
  const time = new Date(line.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return h(
    "li",
    { class: line.spectator ? "chat-line spectator" : "chat-line", "data-from": line.from.id },
    h("time", { datetime: new Date(line.at).toISOString() }, time),
    " ",
    h("strong", {}, line.from.name),
    line.spectator ? h("span", { class: "chat-tag" }, ` (${t("chat.spectator")})`) : null,
    ": ",
    h("span", { class: "chat-text" }, line.text),
    after ? " " : null,
    after,
  );
}

/** The chat panel of one table. */
export class ChatPanel {
  readonly root: HTMLElement;
  private readonly heading = h("h2", {});
  private readonly list = h("ol", { class: "chat-lines", "aria-live": "polite" });
  private readonly hiddenBar = h("p", { class: "chat-hidden" });
  private readonly note = h("p", { class: "chat-note" });
  private readonly input = h("input", {
    type: "text",
    maxlength: CHAT_MAX_CHARS,
    autocomplete: "off",
    "data-action": "chat-text",
  });
  private readonly sendButton = h("button", { type: "submit", "data-action": "chat-send" });
  private readonly form: HTMLFormElement;
  private muted: MutedUser[];
  private lines: readonly ChatLine[] = [];
  private me: string | null = null;

  /**
   * @param send sends a line; returns whether it went out.
   * @param store where hidden users are remembered.
   */
  constructor(
    private readonly send: (text: string) => boolean,
    private readonly store: Storage | null = typeof localStorage === "undefined" ? null : localStorage,
  ) {
    this.muted = readMuted(store);
    this.form = h(
      "form",
      {
        class: "chat-form",
        onsubmit: (e: Event) => {
          e.preventDefault();
          const text = this.input.value.trim();
          if (text && this.send(text)) this.input.value = "";
        },
      },
      this.input,
      this.sendButton,
    );
    this.root = h("section", { class: "chat", "data-panel": "chat" }, this.heading, this.list, this.hiddenBar, this.note, this.form);
    this.relabel();
  }

  /**
   * Shows `lines`. `me` is the viewer's user id (none without a session: reading only);
   * `note` is shown above the box, e.g. that players do not hear spectators.
   */
  render(lines: readonly ChatLine[], me: string | null, note: string): void {
    const grew = lines.length > this.lines.length;
    this.lines = lines;
    this.me = me;
    this.form.hidden = me === null;
    this.note.textContent = note;
    this.note.hidden = note === "";
    clear(this.list);
    const shown = visibleLines(lines, this.muted);
    if (shown.length === 0) this.list.append(h("li", { class: "chat-empty" }, t("chat.empty")));
    for (const line of shown) this.list.append(this.lineItem(line));
    clear(this.hiddenBar);
    for (const m of this.muted) {
      this.hiddenBar.append(
        h("button", { type: "button", class: "link", "data-action": "chat-unhide", onclick: () => this.setMuted(this.muted.filter((x) => x.id !== m.id)) }, t("chat.show", { name: m.name })),
      );
    }
    if (grew) this.list.scrollTop = this.list.scrollHeight;
  }

  private lineItem(line: ChatLine): HTMLElement {
    const hide =
      line.from.id !== this.me && this.me !== null
        ? h(
            "button",
            {
              type: "button",
              class: "link chat-hide",
              "data-action": "chat-hide",
              title: t("chat.hideUser", { name: line.from.name }),
              onclick: () => this.setMuted([...this.muted, { id: line.from.id, name: line.from.name }]),
            },
            t("chat.hide"),
          )
        : null;
    return lineElement(line, hide);
  }

  private setMuted(muted: MutedUser[]): void {
    this.muted = muted;
    writeMuted(this.store, muted);
    this.render(this.lines, this.me, this.note.textContent ?? "");
  }

  /** Redraws the labels in the current language. */
  relabel(): void {
    this.heading.textContent = t("chat.title");
    this.input.placeholder = t("chat.placeholder");
    this.input.setAttribute("aria-label", t("chat.placeholder"));
    this.sendButton.textContent = t("chat.send");
    this.render(this.lines, this.me, this.note.textContent ?? "");
  }
}
