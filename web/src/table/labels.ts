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
  hole(name, marble, isDest, area) {
    let label = marble
      ? t("hole.marble", { hole: name, colour: colourName(marble) })
      : t("hole.empty", { hole: name });
    if (area !== "centre") label = t(`hole.area.${area}`, { label });
    return isDest ? t("hole.dest", { label }) : label;
  },
  get board() {
    return t("board.label");
  },
  get zoomOut() {
    return t("board.zoomOut");
  },
};

/** Message of each engine reason (`docs/rules.md`); `-<colour>` suffixes are dropped. */
const REASONS: Readonly<Record<string, MessageKey>> = {
  arrived: "reason.arrived",
  draw: "reason.draw",
  eliminated: "reason.eliminated",
  "round-limit": "reason.moveLimit",
  repetition: "reason.repetition",
  "no-moves": "reason.noMoves",
  deadline: "reason.deadline",
  resigned: "reason.resignation",
  abandoned: "reason.abandoned",
  timeout: "reason.timeout",
  aborted: "reason.aborted",
};

/** The localised reason a game ended, e.g. for `"round-limit"` or `"resigned-red"`. */
export function reasonText(reason: string): string {
  const key = REASONS[reason] ?? REASONS[reason.replace(/-(white|red|blue|black|yellow|green)$/, "")];
  return key ? t(key) : t("reason.other", { reason });
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
