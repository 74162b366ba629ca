/**
 * A player who left a live game: everyone sees who is away; at 2 players the opponent
 * sees the countdown to the moment they may claim the win, then a "Claim the win"
 * button. The server decides (it refuses a claim made too early).
 */
import { t } from "../i18n/i18n";
import { h } from "../ui/dom";
import { playerName } from "./playerName";
import { seatOf } from "./tableState";
import type { TableSnapshot } from "./wire";

/** What the bar shows for a viewer. */
export type AbsenceState =
  | { readonly kind: "none" }
  /** Someone is away; this viewer cannot claim (spectator, or more than 2 players). */
  | { readonly kind: "away"; readonly name: string }
  /** The viewer may claim the win in `seconds`. */
  | { readonly kind: "countdown"; readonly name: string; readonly seconds: number }
  /** The viewer may claim the win now. */
  | { readonly kind: "claimable"; readonly name: string };

/** The absence state of `snap` for user `me` at `now` (Unix ms). */
export function absenceState(snap: TableSnapshot, me: string | null, now: number): AbsenceState {
  if (snap.status !== "live" || snap.result) return { kind: "none" };
  const mine = seatOf(snap, me);
  const away = (snap.absent ?? []).find((a) => a.seat !== mine);
  if (!away) return { kind: "none" };
  const name = playerName(snap.seats[away.seat].player);
  if (mine === null || away.claim_at === null) return { kind: "away", name };
  const seconds = Math.ceil((away.claim_at - now) / 1000);
  return seconds > 0 ? { kind: "countdown", name, seconds } : { kind: "claimable", name };
}

/** The absence line and the claim button. */
export class AbsenceBar {
  readonly root: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly status = h("span", { class: "absence-status", role: "status" });
  private state: AbsenceState = { kind: "none" };

  constructor(claim: () => void) {
    this.button = h("button", { type: "button", class: "primary", "data-action": "claim-win", onclick: claim });
    this.root = h("p", { class: "absence", hidden: true }, this.status, " ", this.button);
  }

  /** Shows `state`. */
  render(state: AbsenceState): void {
    this.state = state;
    this.root.hidden = state.kind === "none";
    this.button.hidden = state.kind !== "claimable";
    this.button.textContent = t("absent.claim");
    this.status.textContent =
      state.kind === "countdown"
        ? t("absent.countdown", { name: state.name, s: state.seconds })
        : state.kind === "claimable"
          ? t("absent.claimable", { name: state.name })
          : state.kind === "away"
            ? t("absent.away", { name: state.name })
            : "";
  }

  /** Redraws the labels in the current language. */
  relabel(): void {
    this.render(this.state);
  }
}
