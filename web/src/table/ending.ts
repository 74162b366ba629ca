/**
 * The end of a game in the words players use: a headline ("You won", "You finished
 * 2nd of 4", "Draw", "Black won") and what ended it ("White resigned", "Black ran out
 * of time"), from the engine's places and reason (docs/rules.md §4, §7, §8).
 */
import { opposite, type Colour } from "../colour";
import type { Outcome } from "../engine/protocol";
import { lang, t, type Lang } from "../i18n/i18n";
import type { MessageKey } from "../i18n/messages/en";
import { colourName } from "./labels";

/** An ordinal place in a language: 2 → "2nd", "2º", "2ος". */
export function ordinal(n: number, language: Lang = lang()): string {
  switch (language) {
    case "en": {
      const tens = n % 100;
      const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
      return `${n}${suffix}`;
    }
    case "el":
      return `${n}ος`;
    default:
      return `${n}º`;
  }
}

/** Whether two seats play as partners (team variants: partners sit opposite). */
function partners(variant: string, a: Colour, b: Colour): boolean {
  return a === b || (variant.startsWith("pairs-") && opposite(a) === b);
}

/** How a game ended for the seats at this screen. */
export type Verdict = "won" | "draw" | "lost";

/**
 * The verdict for `mine` (a seat or the seats of one team): won when they took first
 * place and no other side did, a draw when first place is shared with another side.
 */
export function verdictOf(outcome: Outcome, variant: string, mine: Colour): Verdict {
  const places = outcome.places;
  const mySide = (c: Colour) => partners(variant, mine, c);
  const firsts = (Object.keys(places) as Colour[]).filter((c) => places[c] === 1);
  if (!firsts.some(mySide)) return "lost";
  return firsts.every(mySide) ? "won" : "draw";
}

/**
 * The headline: about `mine` when one seat (or one team) at this screen plays,
 * otherwise naming the winner (or a draw).
 */
export function headline(outcome: Outcome, variant: string, seats: readonly Colour[], mine: Colour | null): string {
  const places = outcome.places;
  if (mine) {
    const verdict = verdictOf(outcome, variant, mine);
    if (verdict === "won") return t("end.youWon");
    if (verdict === "draw") return t("end.draw");
    const place = places[mine] ?? seats.length;
    const sides = variant.startsWith("pairs-") ? seats.length / 2 : seats.length;
    return t("end.youPlace", { place: ordinal(place), n: sides });
  }
  const firsts = seats.filter((c) => places[c] === 1);
  if (firsts.length === 0) return "";
  if (!firsts.every((c) => partners(variant, firsts[0], c))) return t("end.draw");
  return t("end.won", { colour: firsts.map(colourName).join(" + ") });
}

const BY_COLOUR: Readonly<Record<string, MessageKey>> = {
  resigned: "end.resigned",
  abandoned: "end.abandoned",
  timeout: "end.timeout",
  deadline: "end.deadline",
  eliminated: "end.eliminated",
};

const PLAIN: Readonly<Record<string, MessageKey>> = {
  draw: "end.sameRound",
  "round-limit": "end.roundLimit",
  repetition: "end.repetition",
  "no-moves": "end.noMoves",
  aborted: "end.aborted",
  resigned: "reason.resignation",
  abandoned: "reason.abandoned",
  timeout: "reason.timeout",
  deadline: "reason.deadline",
  eliminated: "reason.eliminated",
};

/**
 * What ended the game, as a sentence, e.g. `"resigned-black"` → "Black resigned.";
 * an arrival names the seat placed first from `places` (docs/rules.md §7).
 */
export function reasonSentence(reason: string, places: Outcome["places"] = {}): string {
  if (reason === "arrived") {
    const firsts = (Object.keys(places) as Colour[]).filter((c) => places[c] === 1);
    if (firsts.length > 0) return t("end.arrived", { colour: firsts.map(colourName).join(" + ") });
    return t("reason.arrived");
  }
  const m = /^([a-z-]+?)-(white|red|blue|black|yellow|green)$/.exec(reason);
  if (m && BY_COLOUR[m[1]]) return t(BY_COLOUR[m[1]], { colour: colourName(m[2] as Colour) });
  const key = PLAIN[reason];
  return key ? t(key) : t("reason.other", { reason });
}
