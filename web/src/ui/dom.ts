/** A tiny helper to build DOM elements. */

/** Attributes and event handlers of an element built with {@link h}. */
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** Children of an element: nodes, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/**
 * Creates an HTML element. Attributes whose name starts with `on` and whose value is
 * a function become event listeners; `false`, `null` and `undefined` are left out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (typeof v === "function") e.addEventListener(k.slice(2).toLowerCase(), v);
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Removes every child of an element. */
export function clear(e: Element): void {
  while (e.firstChild) e.firstChild.remove();
}
