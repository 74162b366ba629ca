/** What every page of the client provides to the app shell. */

/** A mounted page. */
export interface Page {
  /** The page's root element, placed in `<main>`. */
  readonly root: HTMLElement;
  /** The page title in the language in use. */
  title(): string;
  /** Redraws every text after a language switch, keeping the page's state. */
  relabel(): void;
  /** Stops timers, workers and connections when the page is left. */
  destroy?(): void;
}
