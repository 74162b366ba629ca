/** Localised words the table and board show, built from the message files. */
import type { Colour } from "../colour";
import type { BoardLabels } from "../board/state";
import type { MessageKey } from "../i18n/messages/en";
import { t } from "../i18n/i18n";

/** The localised name of a colour. */
export function colourName(c: Colour): string {
  return t(`colour.${c}` as MessageKey);
}

/** Board labels in the language in use (read at every redraw). */
export const boardLabels: BoardLabels = {
  hole(name, marble, isDest) {
    const base = marble
      ? t("hole.marble", { hole: name, colour: colourName(marble) })
      : t("hole.empty", { hole: name });
    return isDest ? t("hole.dest", { label: base }) : base;
  },
  get board() {
    return t("board.label");
  },
};

/** Known outcome reasons; anything else is shown through `reason.other`. */
const REASONS = [
  "arrived",
  "draw",
  "moveLimit",
  "repetition",
  "noMoves",
  "deadline",
  "eliminated",
  "resignation",
  "timeout",
  "aborted",
] as const;

/** The localised reason a game ended. */
export function reasonText(reason: string): string {
  const key = reason.replace(/[-_ ](\w)/g, (_, c: string) => c.toUpperCase());
  return (REASONS as readonly string[]).includes(key)
    ? t(`reason.${key}` as MessageKey)
    : t("reason.other", { reason });
}

/** Formats a clock reading in milliseconds as m:ss (or h:mm:ss). */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const hrs = Math.floor(total / 3600);
  const ss = String(s).padStart(2, "0");
  return hrs > 0 ? `${hrs}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
