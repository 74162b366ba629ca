/** The lesson texts in the language in use. */
import { lang } from "../i18n/i18n";
import { lessonsEn } from "../content/lessons/en";
import { lessonsIt } from "../content/lessons/it";
import { lessonsEl } from "../content/lessons/el";
import { lessonsPt } from "../content/lessons/pt";
import type { LessonText, LessonTexts } from "../content/lessons/types";

const TEXTS: Readonly<Record<string, LessonTexts>> = { en: lessonsEn, it: lessonsIt, el: lessonsEl, pt: lessonsPt };

/** The words of a lesson in the language in use. */
export function lessonText(id: string): LessonText {
  return (TEXTS[lang()] as Record<string, LessonText>)[id];
}
