/**
 * The lobby: open and live tables (join a seat, or watch), and a form to create a
 * table with seats for the creator, for anyone, or for the computer.
 */
import { isColour } from "../colour";
import { t } from "../i18n/i18n";
import { variantName } from "../offline/setupPage";
import { colourName } from "../table/labels";
import { clear, h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import type { Page } from "../ui/page";
import { swatch } from "../ui/swatch";
import { AccountBar } from "./accountBar";
import { ChallengePanel } from "./challengePanel";
import { tableUrl } from "./inviteLink";
import { currentUser, knownUser, liveSocket, onUserChange } from "./session";
import { seatLabel } from "./playerName";
import type { SeatRequest, ServerMsg, TableSummary, TimeSpec } from "./wire";

/** Variant ids and their seat counts, in the engine's order. */
export const VARIANT_SEATS: readonly [string, number][] = [
  ["classic-2", 2], ["classic-3", 3], ["classic-4", 4], ["classic-6", 6],
  ["long-2", 2], ["long-3", 3], ["long-4", 4], ["long-6", 6],
  ["fifteen-2", 2], ["fifteen-3", 3], ["pairs-2x2", 4], ["pairs-3x2", 6],
  ["masters-2", 2], ["masters-6", 6], ["symmetric-2", 2], ["symmetric-6", 6],
];

/** Time controls offered when creating a table (`null`: untimed). */
export const TIME_CONTROLS: readonly (TimeSpec | null)[] = [
  null,
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
];

/** Times per move of an untimed table, in seconds (docs/protocol.md). */
export const MOVE_TIMES: readonly number[] = [300, 3_600, 86_400, 259_200];

/** The labels of {@link MOVE_TIMES}. */
const MOVE_TIME_LABELS = ["move.time0", "move.time1", "move.time2", "move.time3"] as const;

/** Quick pairing presets of the server (docs/protocol.md). */
export const QUICK_PAIR_PRESETS: readonly TimeSpec[] = [
  { minutes: 1, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
];

/** Seat choices of the creation form, as option values. */
const SEAT_CHOICES = ["me", "open", ...[1, 2, 3, 4, 5, 6, 7, 8].map((l) => `computer-${l}`)];

function seatRequest(v: string): SeatRequest {
  return v.startsWith("computer-") ? { computer: Number(v.slice(9)) } : (v as "me" | "open");
}

/** The lobby page. */
export class LobbyPage implements Page {
  readonly root = h("section", { class: "lobby-page" });
  private readonly account = new AccountBar();
  private readonly list = h("ul", { class: "lobby-tables", "aria-live": "polite" });
  private readonly form = h("form", { class: "create-table online-form" });
  private readonly conn = h("p", { class: "conn" });
  private readonly error = h("p", { class: "note error", role: "alert" });
  private readonly quick = h("section", { class: "quick-pair" });
  private readonly challenges = new ChallengePanel(liveSocket(), () => knownUser(), (table) => navigate(tableUrl(table)));
  /** The preset being waited for, if any. */
  private waiting: TimeSpec | null = null;
  private tables = new Map<string, TableSummary>();
  private variant = "classic-2";
  private seats: string[] = ["me", "open"];
  private time = 0;
  private rated = false;
  private privateTable = false;
  private botsWelcome = false;
  /** Index in {@link MOVE_TIMES}: one day unless chosen. */
  private moveTime = 2;
  private readonly stops: (() => void)[] = [];

  constructor() {
    const socket = liveSocket();
    this.stops.push(
      socket.onOpen(() => socket.send({ t: "lobby_subscribe" })),
      socket.onMessage((m) => this.onMessage(m)),
      socket.onState((s) => this.renderConn(s)),
      onUserChange(() => this.render()),
    );
    this.renderConn(socket.state);
    this.render();
    // Join and quick-game buttons depend on who is logged in.
    void currentUser().then(() => this.render(), () => undefined);
  }

  title(): string {
    return t("online.lobby");
  }

  private onMessage(m: ServerMsg): void {
    if (this.challenges.onMessage(m)) return;
    switch (m.t) {
      case "lobby":
        this.tables = new Map(m.d.tables.map((x) => [x.id, x]));
        break;
      case "lobby_update":
        this.tables.set(m.d.id, m.d);
        break;
      case "lobby_remove":
        this.tables.delete(m.d.table);
        break;
      case "table_created":
        navigate(tableUrl(m.d.table, m.d.invite));
        return;
      case "paired":
        this.waiting = null;
        navigate(tableUrl(m.d.table));
        return;
      case "error":
        this.error.textContent = m.d.message;
        return;
      default:
        return;
    }
    this.renderTables();
  }

  private renderConn(s: string): void {
    this.conn.className = `conn ${s === "lost" ? "lost" : ""}`;
    this.conn.textContent = s === "lost" ? t("online.reconnecting") : s === "open" ? t("online.connected") : "…";
  }

  private renderTables(): void {
    clear(this.list);
    const socket = liveSocket();
    const me = knownUser();
    if (this.tables.size === 0) this.list.append(h("li", {}, t("online.noTables")));
    for (const table of this.tables.values()) {
      const seated = me !== null && table.seats.some((s) => s.player.kind === "human" && s.player.id === me.id);
      this.list.append(h("li", { class: "lobby-table", "data-table": table.id },
        h("strong", {}, variantName(table.variant)),
        h("span", {}, table.time ? t("online.timeControl", table.time as unknown as Record<string, number>) : t("online.untimed")),
        h("span", {}, t(table.rated ? "online.rated" : "online.casual")),
        table.bots ? h("span", { class: "tag", "data-bots": true }, t("online.botsWelcome")) : null,
        table.seats.map((s) => h("span", { class: "seat", "data-seat": s.seat },
          isColour(s.colour) ? swatch(s.colour) : null,
          isColour(s.colour) ? colourName(s.colour) : s.colour, ": ", seatLabel(table, s.seat),
          s.player.kind === "open" && table.status === "open" && me && !seated
            ? h("button", {
                type: "button",
                "data-action": "join",
                onclick: () => {
                  socket.send({ t: "join", d: { table: table.id, seat: s.seat } });
                  navigate(`/table/${encodeURIComponent(table.id)}`);
                },
              }, t("online.join"))
            : null)),
        h("a", { href: `/table/${encodeURIComponent(table.id)}`, "data-link": true, class: "button", "data-action": "watch" },
          t(seated ? "online.open" : "online.watch")),
      ));
    }
  }

  private renderQuick(): void {
    clear(this.quick);
    const socket = liveSocket();
    const label = (tc: TimeSpec) => t("online.timeControl", tc as unknown as Record<string, number>);
    this.quick.append(h("h2", {}, t("online.quickPair")));
    if (this.waiting) {
      this.quick.append(
        h("p", { role: "status" }, `${t("online.quickPairWaiting")} (${label(this.waiting)})`),
        h("button", {
          type: "button",
          "data-action": "quick-cancel",
          onclick: () => {
            socket.send({ t: "quick_pair_cancel" });
            this.waiting = null;
            this.renderQuick();
          },
        }, t("online.quickPairCancel")),
      );
      return;
    }
    const buttons = h("div", { class: "controls" });
    for (const tc of QUICK_PAIR_PRESETS) {
      buttons.append(h("button", {
        type: "button",
        "data-quick": `${tc.minutes}+${tc.increment}`,
        disabled: !knownUser(),
        onclick: () => {
          if (socket.send({ t: "quick_pair", d: tc })) {
            this.waiting = tc;
            this.renderQuick();
          }
        },
      }, label(tc)));
    }
    this.quick.append(buttons);
  }

  private renderForm(): void {
    clear(this.form);
    const seatCount = VARIANT_SEATS.find(([v]) => v === this.variant)?.[1] ?? 2;
    while (this.seats.length < seatCount) this.seats.push("open");
    this.seats.length = seatCount;
    const select = (id: string, label: string, options: [string, string][], value: string, change: (v: string) => void) =>
      h("div", { class: "field" },
        h("label", { for: id }, label),
        h("select", { id, onchange: (e: Event) => { change((e.target as HTMLSelectElement).value); this.renderForm(); } },
          options.map(([v, text]) => h("option", { value: v, selected: v === value }, text))));
    this.form.append(...[
      h("h2", {}, t("online.createTable")),
      select("create-variant", t("setup.variant"), VARIANT_SEATS.map(([v]) => [v, variantName(v)]), this.variant, (v) => (this.variant = v)),
      this.seats.map((s, i) =>
        select(`create-seat-${i}`, t("online.seat", { n: i + 1 }), SEAT_CHOICES.map((c) => [c,
          c === "me" ? t("player.you") : c === "open" ? t("online.emptySeat") : t("online.addComputer", { level: c.slice(9) })]),
          s, (v) => (this.seats[i] = v))),
      select("create-time", t("online.clock"), TIME_CONTROLS.map((tc, i) => [String(i),
        tc ? t("online.timeControl", tc as unknown as Record<string, number>) : t("online.untimed")]), String(this.time), (v) => (this.time = Number(v))),
      TIME_CONTROLS[this.time] === null
        ? select("create-move-time", t("move.timePerMove"), MOVE_TIMES.map((_, i) => [String(i), t(MOVE_TIME_LABELS[i])]), String(this.moveTime), (v) => (this.moveTime = Number(v)))
        : [],
      h("label", {}, h("input", { type: "checkbox", id: "create-rated", checked: this.rated, onchange: (e: Event) => (this.rated = (e.target as HTMLInputElement).checked) }), " ", t("online.rated")),
      h("label", {}, h("input", { type: "checkbox", id: "create-bots", checked: this.botsWelcome, onchange: (e: Event) => (this.botsWelcome = (e.target as HTMLInputElement).checked) }), " ", t("online.botsWelcome")),
      h("label", {}, h("input", { type: "checkbox", id: "create-private", checked: this.privateTable, onchange: (e: Event) => (this.privateTable = (e.target as HTMLInputElement).checked) }), " ", t("invite.private")),
      h("button", { type: "submit", class: "primary", "data-action": "create" }, t("online.createTable")),
    ].flat());
  }

  private render(): void {
    clear(this.root);
    this.form.onsubmit = (e) => {
      e.preventDefault();
      this.error.textContent = "";
      liveSocket().send({
        t: "create_table",
        d: { variant: this.variant, time: TIME_CONTROLS[this.time], rated: this.rated, seats: this.seats.map(seatRequest), private: this.privateTable, move_time: MOVE_TIMES[this.moveTime], bots: this.botsWelcome },
      });
    };
    this.account.render();
    this.renderQuick();
    this.challenges.render();
    this.renderForm();
    this.renderTables();
    this.renderConn(liveSocket().state);
    this.root.append(
      h("h1", {}, t("online.lobby")),
      this.account.root,
      this.conn,
      this.error,
      this.quick,
      this.challenges.root,
      h("div", { class: "lobby-grid" }, h("section", {}, h("h2", {}, t("online.tables")), this.list), this.form),
      h("p", {}, h("a", { href: "/leaderboard", "data-link": true }, t("online.leaderboards"))),
    );
  }

  relabel(): void {
    this.render();
  }

  destroy(): void {
    if (this.waiting) liveSocket().send({ t: "quick_pair_cancel" });
    liveSocket().send({ t: "lobby_unsubscribe" });
    for (const s of this.stops) s();
    this.account.destroy();
  }
}
