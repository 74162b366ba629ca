/**
 * Direct challenges in the lobby: a form to challenge a registered player by name to a
 * two-player game (clock, rated or casual), the challenges waiting for this user's
 * answer (accept or decline) and the ones this user made (take back). The server
 * tells both sides when a challenge is accepted (the page opens the table) or ends.
 */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import { userName } from "./playerName";
import type { Socket } from "./socket";
import type { ChallengeEnd, ChallengeView, ServerMsg, TimeSpec } from "./wire";

/** The clocks a challenge may carry (`null`: untimed, one day per move). */
export const CHALLENGE_CLOCKS: readonly (TimeSpec | null)[] = [
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 3, increment: 2 },
  null,
];

/** The open challenges of a user, split by direction, in the order they arrived. */
export class ChallengeList {
  private readonly open = new Map<string, ChallengeView>();

  /** Replaces the list (the server's `challenges`). */
  reset(list: readonly ChallengeView[]): void {
    this.open.clear();
    for (const c of list) this.open.set(c.id, c);
  }

  /** Adds or updates one challenge. */
  add(c: ChallengeView): void {
    this.open.set(c.id, c);
  }

  /** Removes one; returns it if it was there. */
  remove(id: string): ChallengeView | undefined {
    const c = this.open.get(id);
    this.open.delete(id);
    return c;
  }

  /** Challenges made to `me`. */
  incoming(me: string | null): ChallengeView[] {
    return [...this.open.values()].filter((c) => c.to.id === me);
  }

  /** Challenges `me` made. */
  outgoing(me: string | null): ChallengeView[] {
    return [...this.open.values()].filter((c) => c.from.id === me);
  }
}

/** The message key of each way a challenge ends without a game. */
const ENDINGS: Record<ChallengeEnd, "challenge.declined" | "challenge.cancelled" | "challenge.expired" | "challenge.left"> = {
  declined: "challenge.declined",
  cancelled: "challenge.cancelled",
  expired: "challenge.expired",
  left: "challenge.left",
};

/** The settings of a challenge in words: clock and rated or casual. */
export function challengeTerms(c: Pick<ChallengeView, "time" | "rated">): string {
  const clock = c.time ? t("online.timeControl", c.time as unknown as Record<string, number>) : t("online.untimed");
  return `${clock} · ${t(c.rated ? "online.rated" : "online.casual")}`;
}

/** The challenge section of the lobby. */
export class ChallengePanel {
  readonly root = h("section", { class: "challenges" });
  private readonly list = new ChallengeList();
  private readonly status = h("p", { class: "note", role: "status" });
  private name = "";
  private clock = 0;
  private rated = false;

  /**
   * `socket` carries the messages, `me` says who is logged in (null for nobody, and
   * guests cannot challenge), `open` shows a table once a challenge is accepted.
   */
  constructor(
    private readonly socket: Socket,
    private readonly me: () => { id: string; guest: boolean } | null,
    private readonly open: (table: string) => void,
  ) {}

  /** Handles a server message; true if it was about challenges. */
  onMessage(m: ServerMsg): boolean {
    switch (m.t) {
      case "challenges":
        this.list.reset(m.d.challenges);
        break;
      case "challenge":
        this.list.add(m.d);
        if (m.d.from.id === this.me()?.id) this.status.textContent = t("challenge.sent", { name: userName(m.d.to) });
        break;
      case "challenge_accepted":
        this.list.remove(m.d.id);
        this.open(m.d.table);
        return true;
      case "challenge_ended": {
        const c = this.list.remove(m.d.id);
        if (c) {
          const other = userName(c.from.id === this.me()?.id ? c.to : c.from);
          this.status.textContent = t(ENDINGS[m.d.reason], { name: other });
        }
        break;
      }
      default:
        return false;
    }
    this.render();
    return true;
  }

  /** Draws the form and both lists. */
  render(): void {
    clear(this.root);
    const me = this.me();
    this.root.append(h("h2", {}, t("challenge.title")));
    if (!me || me.guest) {
      this.root.append(h("p", { class: "note" }, t("challenge.accountsOnly")));
      return;
    }
    const form = h("form", { class: "challenge-form online-form" },
      h("div", { class: "field" },
        h("label", { for: "challenge-name" }, t("challenge.name")),
        h("input", {
          id: "challenge-name",
          autocomplete: "off",
          maxlength: 20,
          required: true,
          value: this.name,
          oninput: (e: Event) => (this.name = (e.target as HTMLInputElement).value),
        })),
      h("div", { class: "field" },
        h("label", { for: "challenge-clock" }, t("online.clock")),
        h("select", { id: "challenge-clock", onchange: (e: Event) => (this.clock = Number((e.target as HTMLSelectElement).value)) },
          CHALLENGE_CLOCKS.map((tc, i) => h("option", { value: String(i), selected: i === this.clock },
            tc ? t("online.timeControl", tc as unknown as Record<string, number>) : t("online.untimed"))))),
      h("label", {}, h("input", {
        type: "checkbox",
        id: "challenge-rated",
        checked: this.rated,
        onchange: (e: Event) => (this.rated = (e.target as HTMLInputElement).checked),
      }), " ", t("online.rated")),
      h("button", { type: "submit", class: "primary", "data-action": "challenge" }, t("challenge.send")),
    );
    form.onsubmit = (e) => {
      e.preventDefault();
      const to = this.name.trim();
      if (!to) return;
      this.socket.send({ t: "challenge", d: { to, time: CHALLENGE_CLOCKS[this.clock], rated: this.rated } });
    };
    const incoming = this.list.incoming(me.id);
    const outgoing = this.list.outgoing(me.id);
    const lists: HTMLElement[] = [];
    if (incoming.length > 0)
      lists.push( h("ul", { class: "challenge-list", "aria-label": t("challenge.incoming") },
        incoming.map((c) => h("li", { class: "challenge incoming", "data-challenge": c.id },
          h("span", {}, t("challenge.from", { name: userName(c.from) })),
          h("span", { class: "terms" }, challengeTerms(c)),
          h("button", {
            type: "button",
            class: "primary",
            "data-action": "challenge-accept",
            onclick: () => this.socket.send({ t: "challenge_accept", d: { id: c.id } }),
          }, t("challenge.accept")),
          h("button", {
            type: "button",
            "data-action": "challenge-decline",
            onclick: () => this.socket.send({ t: "challenge_decline", d: { id: c.id } }),
          }, t("challenge.decline"))))));
    if (outgoing.length > 0)
      lists.push( h("ul", { class: "challenge-list", "aria-label": t("challenge.outgoing") },
        outgoing.map((c) => h("li", { class: "challenge outgoing", "data-challenge": c.id },
          h("span", {}, t("challenge.to", { name: userName(c.to) })),
          h("span", { class: "terms" }, challengeTerms(c)),
          h("button", {
            type: "button",
            "data-action": "challenge-cancel",
            onclick: () => this.socket.send({ t: "challenge_cancel", d: { id: c.id } }),
          }, t("challenge.cancel"))))));
    this.root.append(form, this.status, ...lists);
  }
}
