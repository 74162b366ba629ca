/**
 * The rematch offer under a finished table: a player asks, the others accept, and when
 * every person has accepted the server starts a new table (same settings, seats
 * rotated) and every page moves to it. The offer lapses when a player leaves.
 */
import { t } from "../i18n/i18n";
import { h } from "../ui/dom";
import { seatOf } from "./tableState";
import type { TableSnapshot } from "./wire";

/** What the bar shows for a viewer. */
export type RematchState =
  /** Nothing: the game is not over, or the viewer does not play here. */
  | { readonly kind: "none" }
  /** The viewer may ask (nobody asked) or accept (others asked). */
  | { readonly kind: "ask" | "accept" }
  /** The viewer accepted; `waiting` people have not yet. */
  | { readonly kind: "waiting"; readonly waiting: number }
  /** A player left: no rematch. */
  | { readonly kind: "lapsed" };

/** The rematch state of `snap` for user `me`. */
export function rematchState(snap: TableSnapshot, me: string | null, lapsed: boolean): RematchState {
  if (snap.status !== "finished" || seatOf(snap, me) === null) return { kind: "none" };
  if (lapsed) return { kind: "lapsed" };
  const accepted = snap.rematch ?? [];
  if (me !== null && accepted.includes(me)) {
    const people = snap.seats.filter((s) => s.player.kind === "human").map((s) => (s.player.kind === "human" ? s.player.id : ""));
    return { kind: "waiting", waiting: people.filter((id) => !accepted.includes(id)).length };
  }
  return { kind: accepted.length > 0 ? "accept" : "ask" };
}

/** The rematch button and its status line. */
export class RematchBar {
  readonly root: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly status = h("span", { class: "rematch-status", role: "status" });
  private state: RematchState = { kind: "none" };

  constructor(ask: () => void) {
    this.button = h("button", { type: "button", "data-action": "rematch", onclick: ask });
    this.root = h("p", { class: "rematch", hidden: true }, this.button, " ", this.status);
  }

  /** Shows `state`. */
  render(state: RematchState): void {
    this.state = state;
    this.root.hidden = state.kind === "none";
    this.button.hidden = !(state.kind === "ask" || state.kind === "accept");
    this.button.textContent = state.kind === "accept" ? t("rematch.accept") : t("rematch.offer");
    this.status.textContent =
      state.kind === "waiting"
        ? t("rematch.waiting", { n: state.waiting })
        : state.kind === "accept"
          ? t("rematch.offered")
          : state.kind === "lapsed"
            ? t("rematch.lapsed")
            : "";
  }

  /** Redraws the labels in the current language. */
  relabel(): void {
    this.render(this.state);
  }
}
