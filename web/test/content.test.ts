import { describe, expect, it } from "vitest";
import { rulesEn } from "../src/content/rules/en";
import { rulesIt } from "../src/content/rules/it";
import { rulesEl } from "../src/content/rules/el";
import { rulesPt } from "../src/content/rules/pt";
import { DIAGRAMS, type DiagramId } from "../src/content/rules/figures";
import { ALL_HOLES, axialOf, distance } from "../src/geometry/hole";
import { pointOf } from "../src/geometry/points";
import { between, isStep, jumpCount, LESSONS } from "../src/learn/lessons";
import { matchRoute } from "../src/router";
import { formatClock, reasonText } from "../src/table/labels";

describe("lessons", () => {
  it("tells steps from jumps", () => {
    const step = { from: "i9", to: "h9", path: ["i9", "h9"], eliminates: false };
    const jump = { from: "i9", to: "i11", path: ["i9", "i11"], eliminates: false };
    const chain = { from: "i7", to: "i13", path: ["i7", "i9", "g11", "i11", "i13"], eliminates: false };
    expect(isStep(step)).toBe(true);
    expect(jumpCount(step)).toBe(0);
    expect(jumpCount(jump)).toBe(1);
    expect(jumpCount(chain)).toBe(4);
    expect(between("i9", "k9")).toBe("j9");
    expect(between("i7", "i9")).toBe("i8");
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
  });
});

describe("routes and labels", () => {
  it("matches every page", () => {
    expect(matchRoute("/").name).toBe("home");
    expect(matchRoute("/offline").name).toBe("offline");
    expect(matchRoute("/learn/chain")).toEqual({ name: "lesson", params: { id: "chain" } });
    expect(matchRoute("/table/abc")).toEqual({ name: "table", params: { id: "abc" } });
    expect(matchRoute("/games/ann%20b")).toEqual({ name: "games", params: { user: "ann b" } });
    expect(matchRoute("/nope").name).toBe("notFound");
  });
  it("formats clocks and reasons", () => {
    expect(formatClock(65_000)).toBe("1:05");
    expect(formatClock(3_600_000)).toBe("1:00:00");
    expect(formatClock(-5)).toBe("0:00");
    expect(reasonText("round-limit")).toBe("the limit of 150 rounds was reached");
    expect(reasonText("resigned-red")).toBe("a player resigned");
    expect(reasonText("weird")).toBe("the game ended (weird)");
  });
});

describe("rules for players", () => {
  const docs = { en: rulesEn, it: rulesIt, el: rulesEl, pt: rulesPt };
  const shape = (d: typeof rulesEn) =>
    d.sections.map((s) => [s.id, s.paras.filter((p) => p.startsWith("• ")).length, (s.figures ?? []).map((f) => f.diagram)]);

  it("has the same sections, list items and diagrams in every language", () => {
    for (const [lang, doc] of Object.entries(docs)) {
      expect(shape(doc), lang).toEqual(shape(rulesEn));
      for (const s of doc.sections) {
        expect(s.heading.length, `${lang} ${s.id}`).toBeGreaterThan(0);
        for (const f of s.figures ?? []) expect(f.caption.length, `${lang} ${f.diagram}`).toBeGreaterThan(10);
      }
    }
    const ids = rulesEn.sections.map((s) => s.id);
    for (const topic of ["game", "board", "moves", "chains", "foreign", "goal", "deadline", "arrival", "end", "clock", "ratings", "variants"]) {
      expect(ids).toContain(topic);
    }
  });

  it("speaks to players, not to developers", () => {
    for (const [lang, doc] of Object.entries(docs)) {
      const text = JSON.stringify(doc);
      for (const word of ["axial", "canonical", "docs/", "RULES", "perft", "§"]) expect(text, `${lang}: ${word}`).not.toContain(word);
    }
  });

  it("uses every diagram, each drawn on real holes", () => {
    const used = new Set(rulesEn.sections.flatMap((s) => (s.figures ?? []).map((f) => f.diagram)));
    expect([...used].sort()).toEqual(Object.keys(DIAGRAMS).sort());
    for (const [id, d] of Object.entries(DIAGRAMS)) {
      const marbles = Object.values(d.marbles).flat();
      const holes = [...marbles, ...(d.frame ?? []), ...(d.names ?? []), ...(d.marks ?? []).map((m) => m.hole), ...(d.moves ?? []).flatMap((m) => m.path)];
      for (const h of holes) expect(ALL_HOLES, `${id}: ${h}`).toContain(h);
      expect(new Set(marbles).size, `${id}: a hole holds one marble`).toBe(marbles.length);
    }
  });

  it("draws moves that follow the board's lines and the rule they illustrate", () => {
    const stretched = new Set<DiagramId>(["long", "symmetric"]);
    for (const [id, d] of Object.entries(DIAGRAMS) as [DiagramId, (typeof DIAGRAMS)[DiagramId]][]) {
      const occupied = new Set(Object.values(d.marbles).flat());
      for (const m of d.moves ?? []) {
        expect(occupied.has(m.path[0]), `${id}: a marble starts ${m.path.join("-")}`).toBe(true);
        for (let k = 1; k < m.path.length; k++) {
          const a = axialOf(m.path[k - 1]);
          const b = axialOf(m.path[k]);
          const dl = b.l - a.l;
          const dr = b.r - a.r;
          expect(dl === 0 || dr === 0 || dl === -dr, `${id}: ${m.path[k - 1]}-${m.path[k]} is straight`).toBe(true);
          const n = distance(m.path[k - 1], m.path[k]);
          if (!stretched.has(id)) {
            expect(n === 2 || (n === 1 && m.path.length === 2), `${id}: a step or a classic jump`).toBe(true);
            if (n === 2) {
              const mid = ALL_HOLES.find((h) => { const c = axialOf(h); return 2 * c.l === a.l + b.l && 2 * c.r === a.r + b.r; })!;
              expect(occupied.has(mid), `${id}: ${mid} is jumped over`).toBe(true);
            }
          }
          const swap = id === "masters" && k === m.path.length - 1;
          if (!swap) expect(occupied.has(m.path[k]), `${id}: ${m.path[k]} is empty`).toBe(false);
        }
      }
    }
    // The forbidden end of the foreign-point picture lies in another player's point.
    expect(pointOf("f7")).toBe("red");
  });
});
