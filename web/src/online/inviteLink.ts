/**
 * Invitations to private tables: the link `/table/ID?invite=TOKEN`, and the box that
 * shows it to the people at the table so they can pass it on.
 */
import { t } from "../i18n/i18n";
import { h } from "../ui/dom";

/** The path of a table, with its invitation when it has one. */
export function tableUrl(table: string, invite?: string | null): string {
  const path = `/table/${encodeURIComponent(table)}`;
  return invite ? `${path}?invite=${encodeURIComponent(invite)}` : path;
}

/** The invitation in a page address (`?invite=...`), if any. */
export function inviteOf(search: string): string | null {
  const v = new URLSearchParams(search).get("invite");
  return v && v.length > 0 ? v : null;
}

/** The invitation box of a private table: the full link, ready to copy. */
export class InviteBox {
  readonly root: HTMLElement;
  private readonly label = h("span", {});
  private readonly input = h("input", { type: "text", readonly: true, "data-action": "invite-link" });
  private readonly copy: HTMLButtonElement;

  constructor() {
    this.copy = h("button", {
      type: "button",
      "data-action": "invite-copy",
      onclick: () => {
        this.input.select();
        void navigator.clipboard?.writeText(this.input.value).catch(() => undefined);
      },
    });
    this.root = h("p", { class: "invite", hidden: true }, h("label", {}, this.label, " ", this.input), " ", this.copy);
    this.relabel();
  }

  /** Shows the link of `table` with `invite`, or hides the box when there is none. */
  render(table: string, invite: string | null): void {
    this.root.hidden = invite === null;
    if (invite !== null) this.input.value = `${location.origin}${tableUrl(table, invite)}`;
  }

  /** Redraws the labels in the current language. */
  relabel(): void {
    this.label.textContent = t("invite.link");
    this.copy.textContent = t("invite.copy");
  }
}
