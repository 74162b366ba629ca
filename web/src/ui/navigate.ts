/** Moves to another page of the client without reloading. */

/** Goes to `url` (path and query) and lets the app shell show its page. */
export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
