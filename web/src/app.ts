/**
 * The app shell: header with navigation and the language switch, and the page of the
 * current route in `<main>`.
 */
import { LANG_NAMES, LANGS, lang, onLangChange, setLang, t, type Lang } from "./i18n/i18n";
import type { MessageKey } from "./i18n/messages/en";
import { matchRoute } from "./router";
import { clear, h } from "./ui/dom";
import { navigate } from "./ui/navigate";
import type { Page } from "./ui/page";
import { createPage } from "./pages";

const NAV: readonly [string, MessageKey][] = [
  ["/offline", "nav.play"],
  ["/lobby", "nav.online"],
  ["/learn", "nav.learn"],
  ["/analysis", "nav.analysis"],
  ["/puzzles", "nav.puzzles"],
  ["/rules", "nav.rules"],
  ["/leaderboard", "nav.leaderboard"],
];

/** Builds the shell in `root` and keeps the page in step with the address bar. */
export function startApp(root: HTMLElement): void {
  const brand = h("a", { href: "/", "data-link": true, class: "brand" });
  const navList = h("ul", {});
  const langSelect = h("select", {
    id: "lang-switch",
    onchange: (e: Event) => setLang((e.target as HTMLSelectElement).value as Lang),
  }, LANGS.map((l) => h("option", { value: l, lang: l }, LANG_NAMES[l])));
  const langLabel = h("label", { for: "lang-switch", class: "visually-hidden" });
  const nav = h("nav", { class: "main-nav" }, navList);
  const main = h("main", { id: "main", tabindex: "-1" });
  root.append(h("header", { class: "site-header" }, brand, nav, h("div", { class: "lang" }, langLabel, langSelect)), main);

  let page: Page | null = null;

  const relabelShell = () => {
    brand.textContent = `✦ ${t("app.name")}`;
    nav.setAttribute("aria-label", t("nav.main"));
    clear(navList);
    for (const [href, key] of NAV) {
      const current = location.pathname.startsWith(href);
      navList.append(h("li", {}, h("a", { href, "data-link": true, "aria-current": current ? "page" : null }, t(key))));
    }
    langLabel.textContent = t("nav.language");
    langSelect.value = lang();
    if (page) document.title = `${page.title()} · ${t("app.name")}`;
  };

  const show = () => {
    page?.destroy?.();
    clear(main);
    page = createPage(matchRoute(location.pathname), location.search);
    main.append(page.root);
    relabelShell();
  };

  document.addEventListener("click", (e) => {
    const a = (e.target as Element).closest?.("a[data-link]") as HTMLAnchorElement | null;
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute("href")!);
  });
  window.addEventListener("popstate", show);
  onLangChange(() => {
    page?.relabel();
    relabelShell();
  });
  show();
}
