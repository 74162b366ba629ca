/** The rules as shown on the rules page, one document per language. */
import type { DiagramId } from "./figures";

/** A board diagram placed in a section, with its caption in the page's language. */
export interface RulesFigure {
  /** Which diagram of `DIAGRAMS` in figures.ts to draw. */
  readonly diagram: DiagramId;
  /** What the diagram shows, in words. */
  readonly caption: string;
}

/**
 * One section: a heading and paragraphs (a paragraph starting with "• " is a list
 * item), then its diagrams. The `id` is the same in every language.
 */
export interface RulesSection {
  readonly id: string;
  readonly heading: string;
  readonly paras: readonly string[];
  readonly figures?: readonly RulesFigure[];
}

/** A language's rules document. */
export interface RulesDoc {
  readonly title: string;
  readonly sections: readonly RulesSection[];
}
