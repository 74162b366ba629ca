/**
 * Telling a player their turn has come while they look elsewhere: the page title says
 * so, and, where the person allowed it, a browser notification appears when the tab is
 * hidden.
 */
import { t } from "../i18n/i18n";
import { h } from "../ui/dom";

/** Whether the browser can show notifications and has not been asked yet. */
function askable(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}

/** Watches for the moment a player's turn begins. */
export class TurnAlert {
  /** A button asking for permission to notify (hidden when not useful). */
  readonly button: HTMLButtonElement;
  private myTurn = false;

  constructor() {
    this.button = h("button", {
      type: "button",
      class: "link",
      "data-action": "notify",
      hidden: true,
      onclick: () => {
        void Notification.requestPermission().finally(() => (this.button.hidden = true));
      },
    });
    this.relabel();
  }

  /**
   * Records whether it is the player's turn (`seated`: the viewer plays here) and
   * notifies when the turn has just begun in a hidden tab.
   */
  update(myTurn: boolean, seated: boolean, what: string): void {
    this.button.hidden = !(seated && askable());
    const began = myTurn && !this.myTurn;
    this.myTurn = myTurn;
    if (!began || typeof document === "undefined" || !document.hidden) return;
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    try {
      new Notification(t("table.yourTurn"), { body: what, tag: "stella-turn" });
    } catch {
      // Some browsers only notify from a service worker; the title still tells.
    }
  }

  /** The page title: "your turn" first while it is. */
  title(base: string): string {
    return this.myTurn ? `${t("turn.title")} · ${base}` : base;
  }

  /** Redraws the labels in the current language. */
  relabel(): void {
    this.button.textContent = t("turn.notify");
  }
}
