/**
 * A live table over `/ws`: players move on the board, everyone else watches. The
 * board's legal moves come from the engine (wasm worker) applied to the position the
 * server sends; the server decides. After a dropped connection the page asks for the
 * events since the last one it has.
 */
import { analysisHref } from "../analysis/link";
import { isColour, type Colour } from "../colour";
import { EngineClient } from "../engine/client";
import type { GameView } from "../engine/protocol";
import { t } from "../i18n/i18n";
import { Table, type SeatInfo } from "../table/table";
import { colourName } from "../table/labels";
import { variantName } from "../offline/setupPage";
import { confirmDialog } from "../ui/confirm";
import { h } from "../ui/dom";
import type { Page } from "../ui/page";
import { AccountBar } from "./accountBar";
import { api } from "./api";
import { ChatPanel } from "./chatPanel";
import { RematchBar, rematchState } from "./rematchBar";
import { InviteBox, inviteOf } from "./inviteLink";
import { TurnAlert } from "./turnAlert";
import { navigate } from "../ui/navigate";
import { currentUser, knownUser, liveSocket, onUserChange } from "./session";
import { playerName } from "./playerName";
import { AbsenceBar, absenceState } from "./absenceBar";
import { applyEvent, canAbort, clocksAt, finishedColours, seatOf } from "./tableState";
import type { ServerMsg, TableSnapshot } from "./wire";

/** The page of one live table. */
export class TablePage implements Page {
  readonly root: HTMLElement;
  private readonly engine = new EngineClient();
  private readonly table: Table;
  private readonly account = new AccountBar();
  private readonly conn = h("p", { class: "conn", role: "status" });
  private readonly note = h("p", { class: "note" });
  /** Shown instead of the table when the server knows no table of this id. */
  private readonly missing = h("section", { class: "missing-table", hidden: true, "data-missing": true });
  private replayExists = false;
  private readonly joinButton: HTMLButtonElement;
  private readonly leaveButton: HTMLButtonElement;
  private readonly resignButton: HTMLButtonElement;
  private readonly abortButton: HTMLButtonElement;
  private readonly chat: ChatPanel;
  private readonly rematch: RematchBar;
  private readonly absence: AbsenceBar;
  /** The invitation of a private table, from the page address. */
  private readonly invite = inviteOf(location.search);
  private readonly inviteBox = new InviteBox();
  private readonly turnAlert = new TurnAlert();
  /** Whether a player left this finished table (no rematch then). */
  private rematchLapsed = false;
  private snapshot: TableSnapshot | null = null;
  private view: GameView | null = null;
  /** When the clocks in {@link snapshot} were received (for the countdown). */
  private clockReceived = 0;
  private nextAck = 1;
  private drawn = 0;
  private readonly ticker: ReturnType<typeof setInterval>;
  /** Opens the finished game on the analysis board. */
  private readonly analyseLink = h("a", { href: "/analysis", "data-link": true, class: "button", "data-action": "analyse" });
  private readonly stops: (() => void)[] = [];

  constructor(private readonly id: string) {
    this.table = new Table((path, eliminates) => this.move(path, eliminates));
    const socket = liveSocket();
    this.joinButton = h("button", { type: "button", "data-action": "join", onclick: () => socket.send({ t: "join", d: this.withInvite({ table: id }) }) });
    this.leaveButton = h("button", { type: "button", "data-action": "leave", onclick: () => socket.send({ t: "leave", d: { table: id } }) });
    this.resignButton = h("button", {
      type: "button",
      "data-action": "resign",
      onclick: async () => {
        const question = this.snapshot?.seats.length === 2 ? t("online.confirmResignTwo") : t("online.confirmResign");
        if (await confirmDialog(question, t("table.resign"), t("table.cancel"))) {
          socket.send({ t: "resign", d: { table: id } });
        }
      },
    });
    this.abortButton = h("button", {
      type: "button",
      "data-action": "abort",
      onclick: async () => {
        if (await confirmDialog(t("abort.confirm"), t("abort.button"), t("table.cancel"))) {
          socket.send({ t: "abort", d: { table: id } });
        }
      },
    });
    this.table.controls.append(this.joinButton, this.leaveButton, this.abortButton, this.resignButton);
    this.table.resultActions.append(this.analyseLink);
    this.chat = new ChatPanel((text) => socket.send({ t: "chat", d: { table: id, text } }));
    this.rematch = new RematchBar(() => socket.send({ t: "rematch", d: { table: id } }));
    this.absence = new AbsenceBar(() => socket.send({ t: "claim_win", d: { table: id } }));
    // The account line and the connection sit at the top of the side panel, so that the
    // board starts right below the site's header and the player's own point stays in view;
    // the turn alert, the invitation, the rematch offer and the chat follow in the side panel.
    this.table.side.prepend(this.account.root, this.conn, this.turnAlert.button, this.inviteBox.root);
    this.table.side.append(this.absence.root, this.rematch.root, this.chat.root);
    this.root = h("div", { class: "online-table", "data-table": id }, this.table.root, this.note, this.missing);
    this.stops.push(
      socket.onOpen(() => socket.send({ t: "watch", d: this.withInvite(this.snapshot ? { table: id, since: this.snapshot.v } : { table: id }) })),
      socket.onMessage((m) => this.onMessage(m)),
      socket.onState(() => this.renderConn()),
      onUserChange(() => void this.redraw()),
    );
    this.ticker = setInterval(() => this.tick(), 250);
    void currentUser().then(() => this.redraw(), () => undefined);
    this.relabel();
  }

  title(): string {
    return this.turnAlert.title(this.snapshot ? variantName(this.snapshot.variant) : t("online.lobby"));
  }

  private onMessage(m: ServerMsg): void {
    const socket = liveSocket();
    switch (m.t) {
      case "table":
        if (m.d.id !== this.id) return;
        this.snapshot = m.d;
        this.clockReceived = performance.now();
        void this.redraw();
        return;
      case "event": {
        if (!this.snapshot || m.d.table !== this.id) return;
        const r = applyEvent(this.snapshot, m.d);
        if (r.kind === "gap") socket.send({ t: "watch", d: this.withInvite({ table: this.id, since: r.since }) });
        if (r.kind !== "applied") return;
        if (m.d.type === "rematch_lapsed") this.rematchLapsed = true;
        if (m.d.type === "rematch_started" && this.mySeat() !== null) {
          navigate(`/table/${encodeURIComponent(m.d.id)}`);
          return;
        }
        this.snapshot = r.table;
        this.clockReceived = performance.now();
        void this.redraw();
        return;
      }
      case "error":
        if (m.d.code === "no_such_table" && !this.snapshot) {
          this.showMissing();
          return;
        }
        this.note.textContent = m.d.message;
        this.note.classList.add("error");
        // A refused move: draw the server's position again.
        if (m.d.ack !== undefined) void this.redraw();
        return;
      case "ack":
        this.note.textContent = "";
        this.note.classList.remove("error");
        return;
      default:
        return;
    }
  }

  /** Adds the page's invitation (private tables) to a join or watch request. */
  private withInvite<T extends object>(d: T): T & { invite?: string } {
    return this.invite ? { ...d, invite: this.invite } : d;
  }

  private move(path: string, eliminates: boolean): void {
    liveSocket().send({ t: "move", d: { table: this.id, path, ack: this.nextAck++, confirm: eliminates } });
  }

  private mySeat(): number | null {
    return this.snapshot ? seatOf(this.snapshot, knownUser()?.id ?? null) : null;
  }

  /** Recomputes the view of the snapshot's position and draws the table. */
  private async redraw(): Promise<void> {
    const snap = this.snapshot;
    if (!snap) return;
    const stamp = ++this.drawn;
    const base = await this.engine.positionViewUnlessClosed(snap.position);
    if (!base) return; // the page was left while this view was on its way
    if (stamp !== this.drawn) return; // a newer redraw is on its way
    const last = snap.moves[snap.moves.length - 1];
    const outcome = snap.result
      ? { reason: snap.result.reason, places: Object.fromEntries(snap.result.places.map((p) => [p.colour, p.place])) }
      : base.outcome;
    const live = snap.status === "live" && !outcome;
    this.view = {
      ...base,
      moves: snap.moves,
      lastMove: last ? last.split("-") : null,
      outcome,
      toMove: live ? base.toMove : null,
      legal: live ? base.legal : [],
    };
    this.show();
  }

  private seatInfos(): SeatInfo[] {
    const snap = this.snapshot!;
    const clocks = clocksAt(snap, this.clockReceived, performance.now());
    return snap.seats
      .filter((s) => isColour(s.colour))
      .map((s) => ({
        colour: s.colour as Colour,
        // Events keep the list of absent players current (the snapshot's `connected` is not).
        name: (snap.absent ?? []).some((a) => a.seat === s.seat) ? `${playerName(s.player)} (${t("presence.offline")})` : playerName(s.player),
        clockMs: clocks ? clocks[s.seat] : null,
      }));
  }

  private show(): void {
    const snap = this.snapshot;
    const view = this.view;
    if (!snap || !view) return;
    const seat = this.mySeat();
    const mine = seat !== null ? (snap.seats[seat].colour as Colour) : null;
    const myTurn = mine !== null && view.toMove === mine;
    const status =
      snap.status === "aborted"
        ? t("abort.done")
        : snap.status === "open"
        ? t("online.waiting")
        : myTurn
          ? t("table.yourTurn")
          : view.toMove
            ? t("table.turnOf", { colour: colourName(view.toMove) })
            : "";
    this.table.setHeading(variantName(snap.variant));
    const deadline =
      snap.status === "live" && snap.move_deadline
        ? ` ${t("move.until", { time: new Date(snap.move_deadline).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" }) })}`
        : "";
    this.table.show(view, this.seatInfos(), {
      me: mine,
      movable: myTurn ? mine : null,
      orientation: mine ?? view.seats[0],
      status: (seat === null && snap.status !== "open" ? `${status} ${t("online.spectating")}` : status) + deadline,
    });
    this.analyseLink.setAttribute("href", analysisHref({ variant: snap.variant, moves: snap.moves }));
    this.analyseLink.hidden = !view.outcome;
    const user = knownUser();
    const open = snap.status === "open";
    this.joinButton.hidden = !(open && seat === null && user && snap.seats.some((s) => s.player.kind === "open"));
    this.leaveButton.hidden = !(open && seat !== null);
    // Only a player still in the game (not arrived, not eliminated) can resign.
    const stillPlaying = mine !== null && !finishedColours(snap.position).has(mine);
    this.resignButton.hidden = !(snap.status === "live" && stillPlaying && !view.outcome);
    this.abortButton.hidden = !(seat !== null && canAbort(snap));
    this.turnAlert.update(myTurn, seat !== null, variantName(snap.variant));
    document.title = `${this.title()} · ${t("app.name")}`;
    this.rematch.render(rematchState(snap, user?.id ?? null, this.rematchLapsed));
    this.absence.render(absenceState(snap, user?.id ?? null, Date.now()));
    this.inviteBox.render(this.id, snap.private ? this.invite : null);
    const quietSpectators = snap.rated && snap.status === "live";
    this.chat.render(
      snap.chat ?? [],
      user?.id ?? null,
      quietSpectators ? t(seat === null ? "chat.playersDoNotHear" : "chat.spectatorsHidden") : "",
    );
  }

  private tick(): void {
    const snap = this.snapshot;
    if (snap) this.absence.render(absenceState(snap, knownUser()?.id ?? null, Date.now()));
    if (!snap?.clock || snap.status !== "live") return;
    const clocks = clocksAt(snap, this.clockReceived, performance.now());
    if (!clocks) return;
    const byColour: Partial<Record<Colour, number>> = {};
    for (const s of snap.seats) if (isColour(s.colour)) byColour[s.colour] = clocks[s.seat];
    this.table.setClocks(byColour);
  }

  /** The missing-table page: what happened and a way back (to the replay, if the game was played). */
  private showMissing(): void {
    this.table.root.hidden = true;
    this.note.hidden = true;
    this.missing.hidden = false;
    this.renderMissing();
    api.replay(this.id).then(
      () => {
        this.replayExists = true;
        this.renderMissing();
      },
      () => undefined,
    );
  }

  private renderMissing(): void {
    if (this.missing.hidden) return;
    this.missing.replaceChildren(
      h("h1", {}, t("online.noSuchTable")),
      h("p", {}, t("online.noSuchTableText", { id: this.id })),
      h("p", { class: "controls" },
        h("a", { href: "/lobby", "data-link": true, class: "button primary" }, t("online.backToLobby")),
        this.replayExists ? h("a", { href: `/replay/${encodeURIComponent(this.id)}`, "data-link": true, class: "button" }, t("online.replay")) : null),
    );
  }

  private renderConn(): void {
    const s = liveSocket().state;
    this.conn.className = `conn ${s === "lost" ? "lost" : ""}`;
    this.conn.textContent = s === "lost" ? t("online.reconnecting") : s === "open" ? t("online.connected") : "…";
  }

  relabel(): void {
    this.joinButton.textContent = t("online.join");
    this.leaveButton.textContent = t("online.leave");
    this.resignButton.textContent = t("table.resign");
    this.abortButton.textContent = t("abort.button");
    this.analyseLink.textContent = t("analysis.open");
    this.chat.relabel();
    this.rematch.relabel();
    this.absence.relabel();
    this.inviteBox.relabel();
    this.turnAlert.relabel();
    this.account.render();
    this.renderConn();
    this.renderMissing();
    this.table.relabel();
    this.show();
  }

  destroy(): void {
    liveSocket().send({ t: "unwatch", d: { table: this.id } });
    clearInterval(this.ticker);
    for (const s of this.stops) s();
    this.account.destroy();
    this.engine.close();
  }
}
