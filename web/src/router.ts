/**
 * Client-side routes. The server answers every unknown path with `index.html`
 * (SPA fallback), so these paths work when typed or reloaded.
 */

/** A matched route: its name and the parameters taken from the path. */
export interface RouteMatch {
  /** Route name. */
  readonly name: RouteName;
  /** Parameters taken from the path, e.g. `{ id: "42" }`. */
  readonly params: Readonly<Record<string, string>>;
}

/** Every page of the client. */
export type RouteName =
  | "home"
  | "offline"
  | "rules"
  | "learn"
  | "lesson"
  | "login"
  | "register"
  | "lobby"
  | "table"
  | "games"
  | "replay"
  | "leaderboard"
  | "analysis"
  | "puzzles"
  | "puzzle"
  | "bot"
  | "notFound";

const ROUTES: readonly [RegExp, RouteName, readonly string[]][] = [
  [/^\/$/, "home", []],
  [/^\/offline\/?$/, "offline", []],
  [/^\/rules\/?$/, "rules", []],
  [/^\/learn\/?$/, "learn", []],
  [/^\/learn\/([\w-]+)\/?$/, "lesson", ["id"]],
  [/^\/login\/?$/, "login", []],
  [/^\/register\/?$/, "register", []],
  [/^\/lobby\/?$/, "lobby", []],
  [/^\/table\/([\w-]+)\/?$/, "table", ["id"]],
  [/^\/games\/([^/]+)\/?$/, "games", ["user"]],
  [/^\/replay\/([\w-]+)\/?$/, "replay", ["id"]],
  [/^\/leaderboard\/?$/, "leaderboard", []],
  [/^\/analysis\/?$/, "analysis", []],
  [/^\/puzzles\/?$/, "puzzles", []],
  [/^\/puzzles\/([\w-]+)\/?$/, "puzzle", ["id"]],
  [/^\/account\/bot\/?$/, "bot", []],
];

/** Finds the route of a path. */
export function matchRoute(pathname: string): RouteMatch {
  for (const [re, name, keys] of ROUTES) {
    const m = re.exec(pathname);
    if (m) {
      const params: Record<string, string> = {};
      keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1])));
      return { name, params };
    }
  }
  return { name: "notFound", params: {} };
}
