import { describe, expect, it } from "vitest";
import { MoveTree, readTreeRecord, TreeRecordError, writeTreeRecord } from "../src/analysis/moveTree";
import { analysisHref, parseAnalysisQuery } from "../src/analysis/link";
import { barShare, judge, lossOf, rowsText, decidedFor, MISTAKE_LOSS, INACCURACY_LOSS } from "../src/analysis/score";

describe("move tree", () => {
  it("keeps the first move from a node as its line and later ones as variations", () => {
    const t = MoveTree.ofLine(["m3-m5", "e15-e13", "l3-l4"]);
    const [a] = t.mainLine();
    const b2 = t.add(a, "f15-f13");
    t.add(b2, "l3-l5");
    expect(t.add(a, "f15-f13")).toBe(b2);
    expect(t.mainLine().map((n) => n.path)).toEqual(["m3-m5", "e15-e13", "l3-l4"]);
    expect(t.moveText(2)).toBe("1. m3-m5 e15-e13 (1. f15-f13 2. l3-l5) 2. l3-l4");
    expect(t.pathTo(b2.children[0])).toEqual(["m3-m5", "f15-f13", "l3-l5"]);
  });

  it("exports and imports the same tree, nested variations included", () => {
    const t = MoveTree.ofLine(["m3-m5", "e15-e13", "l3-l4", "f15-f13"]);
    const [a, b] = t.mainLine();
    const alt = t.add(a, "f15-f13");
    t.add(t.add(alt, "l3-l5"), "e15-e13");
    t.add(alt, "l4-l5");
    t.add(b, "k3-k5");
    const text = writeTreeRecord([["Variant", "classic-2"]], t, 2);
    const back = readTreeRecord(text);
    expect(back.tags).toEqual([["Variant", "classic-2"]]);
    expect(writeTreeRecord(back.tags, back.tree, 2)).toBe(text);
    expect(text).toContain("(1. f15-f13 2. l3-l5 (2. l4-l5) 2. e15-e13)");
  });

  it("reads a plain record as a main line and promotes a variation", () => {
    const r = readTreeRecord('[Variant "classic-3"]\n[Result "*"]\n\n1. m3-m5 d12-e12 l12-k12\n2. k3-m3-k5 *\n');
    expect(r.tree.mainLine().map((n) => n.path)).toEqual(["m3-m5", "d12-e12", "l12-k12", "k3-m3-k5"]);
    const alt = r.tree.add(r.tree.root, "l3-l5");
    r.tree.promote(alt);
    expect(r.tree.mainLine().map((n) => n.path)).toEqual(["l3-l5"]);
    r.tree.remove(alt);
    expect(r.tree.mainLine()).toHaveLength(4);
  });

  it("names what is wrong in a bad record", () => {
    expect(() => readTreeRecord('[Variant "classic-2"]\n\n1. m3-m5 (e15-e13\n')).toThrow(TreeRecordError);
    expect(() => readTreeRecord('[Variant "classic-2"]\n\n1. m3-m5 e15-e13)\n')).toThrow(/without/);
    expect(() => readTreeRecord("1. m3-m5\n")).toThrow(/Variant/);
    expect(() => readTreeRecord('[Variant "classic-2"]\n\n1. m3-zz\n')).toThrow(/"m3-zz" is not a move/);
  });
});

describe("scores", () => {
  it("fills the bar by the lead and prints rows", () => {
    expect(barShare(0)).toBe(0.5);
    expect(barShare(300)).toBeGreaterThan(0.6);
    expect(barShare(-300)).toBeLessThan(0.4);
    expect(barShare(1_000_000)).toBe(1);
    expect(rowsText(125)).toBe("+1.25");
    expect(rowsText(-50)).toBe("−0.50");
    expect(rowsText(999_990)).toBeNull();
    expect(decidedFor(-999_990)).toBe("loss");
  });

  it("judges by the rows lost against the best move", () => {
    expect(lossOf(200, 250)).toBe(0);
    expect(lossOf(1_000_000, 0)).toBe(1000);
    expect(judge(0, true)).toBe("best");
    expect(judge(INACCURACY_LOSS - 1, false)).toBe("good");
    expect(judge(INACCURACY_LOSS, false)).toBe("inaccuracy");
    expect(judge(MISTAKE_LOSS, false)).toBe("mistake");
  });
});

describe("analysis links", () => {
  it("carry the online game's id, and drop an id that cannot be one", () => {
    const href = analysisHref({ variant: "classic-2", moves: ["m4-m5", "e14-e13"], game: "AbC_1-x" });
    expect(parseAnalysisQuery(href.split("?")[1])).toEqual({ variant: "classic-2", start: undefined, moves: ["m4-m5", "e14-e13"], game: "AbC_1-x" });
    expect(parseAnalysisQuery("variant=classic-2&game=a%20b")?.game).toBeUndefined();
    expect(parseAnalysisQuery("variant=classic-2")?.game).toBeUndefined();
  });
});
