/** The words of the lessons, one file per language. */

/** The words of one lesson. */
export interface LessonText {
  /** Short title. */
  readonly title: string;
  /** Explanation, one paragraph per entry. */
  readonly body: readonly string[];
  /** What the learner should do on the board. */
  readonly task: string;
  /** Said after a right move. */
  readonly right: string;
  /** Said after a wrong move (then the position is reset). */
  readonly wrong: string;
}

/** All lesson texts of a language, by lesson id. */
export type LessonTexts = Readonly<Record<
  "goal" | "step" | "jump" | "chain" | "setups" | "tenth" | "directions" | "colours" | "optional",
  LessonText
>>;
