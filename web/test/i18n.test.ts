import { describe, expect, it } from "vitest";
import { detectLanguage, format, LANGS } from "../src/i18n/i18n";
import { en } from "../src/i18n/messages/en";
import { it as itMessages } from "../src/i18n/messages/it";
import { el } from "../src/i18n/messages/el";
import { pt } from "../src/i18n/messages/pt";
import { lessonsEn } from "../src/content/lessons/en";
import { lessonsIt } from "../src/content/lessons/it";
import { lessonsEl } from "../src/content/lessons/el";
import { lessonsPt } from "../src/content/lessons/pt";
import { rulesEn } from "../src/content/rules/en";
import { rulesIt } from "../src/content/rules/it";
import { rulesEl } from "../src/content/rules/el";
import { rulesPt } from "../src/content/rules/pt";
import { LESSONS } from "../src/learn/lessons";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("language detection", () => {
  it("prefers the stored choice, then the browser, then English", () => {
    expect(detectLanguage("el", ["it-IT"])).toBe("el");
    expect(detectLanguage(null, ["pt-BR", "en"])).toBe("pt");
    expect(detectLanguage("xx", ["de-DE", "it"])).toBe("it");
    expect(detectLanguage(null, ["de-DE"])).toBe("en");
    expect(LANGS).toEqual(["en", "it", "el", "pt"]);
  });
  it("fills placeholders and leaves unknown ones", () => {
    expect(format("{n} of {total} arrived", { n: 3, total: 10 })).toBe("3 of 10 arrived");
    expect(format("{x}", {})).toBe("{x}");
  });
});

describe("message files", () => {
  for (const [name, m] of [["it", itMessages], ["el", el], ["pt", pt]] as const) {
    it(`${name} has every key with the same placeholders, none empty`, () => {
      expect(Object.keys(m).sort()).toEqual(Object.keys(en).sort());
      for (const k of Object.keys(en) as (keyof typeof en)[]) {
        expect(m[k].trim().length, k).toBeGreaterThan(0);
        expect(placeholders(m[k]), k).toEqual(placeholders(en[k]));
      }
    });
  }
  it("has the words of every lesson in every language", () => {
    for (const texts of [lessonsEn, lessonsIt, lessonsEl, lessonsPt]) {
      expect(Object.keys(texts).sort()).toEqual(LESSONS.map((l) => l.id).sort());
      for (const l of Object.values(texts)) {
        expect(l.title && l.task && l.right && l.wrong && l.body.length).toBeTruthy();
      }
    }
  });
  it("has the same rules sections in every language", () => {
    for (const doc of [rulesIt, rulesEl, rulesPt]) {
      expect(doc.sections.length).toBe(rulesEn.sections.length);
      doc.sections.forEach((s, i) => expect(s.paras.length, s.heading).toBe(rulesEn.sections[i].paras.length));
    }
  });
});
