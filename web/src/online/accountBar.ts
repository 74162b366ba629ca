/** A line that says who is logged in, with log in / register / log out. */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import { api } from "./api";
import { currentUser, knownUser, onUserChange, setUser } from "./session";

/** The account line of the online pages. */
export class AccountBar {
  readonly root = h("p", { class: "account-bar" });
  private readonly stop: () => void;

  constructor() {
    this.stop = onUserChange(() => this.render());
    void currentUser().then(() => this.render(), () => this.render());
  }

  /** Redraws in the language in use. */
  render(): void {
    clear(this.root);
    const u = knownUser();
    if (u) {
      this.root.append(
        h("span", { "data-user": u.name }, t("online.loggedInAs", { name: u.name })), " · ",
        h("a", { href: `/games/${encodeURIComponent(u.name)}`, "data-link": true }, t("online.myGames")), " · ",
        ...(u.guest ? [] : [h("a", { href: "/account/bot", "data-link": true, "data-action": "bot-page" }, t("bot.link")), " · "]),
        h("button", {
          type: "button",
          onclick: async () => {
            await api.logout().catch(() => undefined);
            setUser(null);
          },
        }, t("online.logout")),
      );
    } else {
      this.root.append(
        t("online.needLogin"), " ",
        h("a", { href: "/login", "data-link": true, class: "button" }, t("online.login")), " ",
        h("a", { href: "/register", "data-link": true, class: "button" }, t("online.register")), " ",
        h("button", {
          type: "button",
          "data-action": "guest",
          onclick: async () => {
            const r = await api.guest();
            setUser(r.user);
            navigate("/lobby");
          },
        }, t("online.guest")),
      );
    }
  }

  /** Stops listening to logins. */
  destroy(): void {
    this.stop();
  }
}
