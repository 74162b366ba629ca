/** The rules as shown on the rules page, one document per language. */

/** One section: a heading and paragraphs; a paragraph starting with "• " is a list item. */
export interface RulesSection {
  readonly heading: string;
  readonly paras: readonly string[];
}

/** A language's rules document. */
export interface RulesDoc {
  readonly title: string;
  readonly sections: readonly RulesSection[];
}
