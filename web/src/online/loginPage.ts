/** Log in or register with a name and a password. */
import { t } from "../i18n/i18n";
import { clear, h } from "../ui/dom";
import { navigate } from "../ui/navigate";
import type { Page } from "../ui/page";
import { api } from "./api";
import { setUser } from "./session";

/** The log-in page (`mode` "login") or the registration page ("register"). */
export class LoginPage implements Page {
  readonly root = h("section", { class: "login-page" });
  private error = "";

  constructor(private readonly mode: "login" | "register") {
    this.render();
  }

  title(): string {
    return t(this.mode === "login" ? "online.login" : "online.register");
  }

  private render(): void {
    clear(this.root);
    const user = h("input", { id: "username", name: "username", autocomplete: "username", required: true, minlength: 2, maxlength: 32 });
    const pass = h("input", {
      id: "password", name: "password", type: "password", required: true,
      autocomplete: this.mode === "login" ? "current-password" : "new-password",
    });
    const form = h("form", {
      class: "online-form",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        try {
          const r = this.mode === "login" ? await api.login(user.value, pass.value) : await api.register(user.value, pass.value);
          setUser(r.user);
          navigate("/lobby");
        } catch (err) {
          this.error = err instanceof Error ? err.message : String(err);
          this.render();
        }
      },
    },
      h("div", { class: "field" }, h("label", { for: "username" }, t("online.username")), user),
      h("div", { class: "field" }, h("label", { for: "password" }, t("online.password")), pass),
      this.error ? h("p", { class: "note error", role: "alert" }, this.error) : null,
      h("button", { type: "submit", class: "primary" }, this.title()),
    );
    const other = this.mode === "login" ? ["/register", "online.register"] as const : ["/login", "online.login"] as const;
    this.root.append(h("h1", {}, this.title()), form, h("p", {}, h("a", { href: other[0], "data-link": true }, t(other[1]))));
  }

  relabel(): void {
    this.render();
  }
}
