/**
 * The lessons, following the how-to-play article: where you are going, a step, a
 * jump, landing and jumping again (the four-jump chain), the setups for 2/3/4/6, the
 * tenth marble that wins, and the rules people get wrong. Each lesson is a small
 * live position; {@link LessonDef.check} says whether the learner's move was right.
 * Their words are in `content/lessons/`.
 */
import type { Colour } from "../colour";
import type { LegalMove } from "../board/state";
import type { GameView } from "../engine/protocol";
import { axialOf, distance, nameOf, neighbours, type HoleName } from "../geometry/hole";

/** Where a lesson starts. */
export type LessonStart =
  /** A game's starting position. */
  | { readonly variant: string }
  /** A position string (engine notation). */
  | { readonly variant: string; readonly position: string };

/** One lesson. */
export interface LessonDef {
  /** Stable id, used in the address `/learn/<id>`. */
  readonly id: string;
  /** Starting positions; several when the learner may choose (the setups lesson). */
  readonly starts: readonly LessonStart[];
  /** Whether the learner's move is what the lesson asks for. */
  check(move: LegalMove, before: GameView, after: GameView): boolean;
}

/** Distance from a hole to the nearest goal hole of `colour`. */
export function distanceToGoal(hole: HoleName, view: GameView, colour: Colour): number {
  const goal = view.goals[colour] ?? [];
  return Math.min(...goal.map((g) => distance(hole, g)));
}

/** Whether a move is a single step (to a neighbouring hole). */
export function isStep(move: LegalMove): boolean {
  return move.path.length === 2 && neighbours(move.from).includes(move.to);
}

/** Number of jumps in a move's path. */
export function jumpCount(move: LegalMove): number {
  return isStep(move) ? 0 : move.path.length - 1;
}

/** The hole between two holes two steps apart on a line (the jumped marble). */
export function between(a: HoleName, b: HoleName): HoleName {
  const p = axialOf(a);
  const q = axialOf(b);
  return nameOf({ l: (p.l + q.l) / 2, r: (p.r + q.r) / 2 });
}

const TWO = "classic-2";
const LEARNER: Colour = "white";

/** The lessons in order. */
export const LESSONS: readonly LessonDef[] = [
  {
    id: "goal",
    starts: [{ variant: TWO }],
    check: (m, before) => distanceToGoal(m.to, before, LEARNER) < distanceToGoal(m.from, before, LEARNER),
  },
  {
    id: "step",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:i9,k3,l2,l3,m1,m2 black:j9,i10,e16,e17,f16` }],
    check: (m) => m.from === "i9" && isStep(m),
  },
  {
    id: "jump",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:h9,i9 black:i10,e17,f16` }],
    check: (m) => jumpCount(m) >= 1,
  },
  {
    id: "chain",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:i7,h10,i12 black:i8,h11,e17` }],
    check: (m) => m.to === "i13",
  },
  {
    id: "setups",
    starts: [{ variant: "classic-2" }, { variant: "classic-3" }, { variant: "classic-4" }, { variant: "classic-6" }],
    check: () => true,
  },
  {
    id: "tenth",
    starts: [{
      variant: TWO,
      position: `${TWO} white 1 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:i9,j6,k5,l7`,
    }],
    check: (_m, _before, after) => (after.arrived[LEARNER] ?? 0) === 10,
  },
  {
    id: "directions",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:i9 black:i8,j9,e17` }],
    check: (m, before) => distanceToGoal(m.to, before, LEARNER) >= distanceToGoal(m.from, before, LEARNER),
  },
  {
    id: "colours",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:h9,i9 black:j9,e17` }],
    check: (m, before, after) =>
      jumpCount(m) === 1 &&
      before.pieces[between(m.path[0], m.path[1])] === "black" &&
      after.pieces[between(m.path[0], m.path[1])] === "black",
  },
  {
    id: "optional",
    starts: [{ variant: TWO, position: `${TWO} white 1 white:i7 black:i8,i10,e17` }],
    check: (m) => m.from === "i7" && m.to === "i9",
  },
];

/** The lesson with this id, if any. */
export function lessonById(id: string): LessonDef | undefined {
  return LESSONS.find((l) => l.id === id);
}
