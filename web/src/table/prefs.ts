/**
 * Display preferences of the table, kept in localStorage: animated moves (on unless
 * the system asks for reduced motion) and board coordinates (off).
 */

const ANIMATE_KEY = "stella.animate";
const COORDS_KEY = "stella.coords";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // Storage may be full or blocked; the choice then lasts for this page only.
  }
}

/** Whether moves made by others are animated. */
export function animateMoves(): boolean {
  const v = read(ANIMATE_KEY);
  if (v !== null) return v === "on";
  return !(typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Turns the animation of moves on or off. */
export function setAnimateMoves(on: boolean): void {
  write(ANIMATE_KEY, on);
}

/** Whether the letters and row numbers are drawn along the board's edges. */
export function showCoords(): boolean {
  return read(COORDS_KEY) === "on";
}

/** Shows or hides the board coordinates. */
export function setShowCoords(on: boolean): void {
  write(COORDS_KEY, on);
}
