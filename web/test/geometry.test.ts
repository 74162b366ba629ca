import { describe, expect, it } from "vitest";
import { ALL_HOLES, distance, neighbours, parseHole, nameOf } from "../src/geometry/hole";
import { pointHoles, pointOf, HEXAGON } from "../src/geometry/points";
import { arrowTarget, layout, position } from "../src/geometry/layout";
import { COLOURS, opposite } from "../src/colour";

describe("holes", () => {
  it("has 121 holes with the row lengths of docs/rules.md §1", () => {
    expect(ALL_HOLES.length).toBe(121);
    const lengths = Array.from({ length: 17 }, (_, i) =>
      ALL_HOLES.filter((h) => parseHole(h)!.r === i + 1).length,
    );
    expect(lengths).toEqual([1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]);
  });
  it("names the tips and the centre", () => {
    expect(ALL_HOLES[0]).toBe("m1");
    expect(ALL_HOLES[120]).toBe("e17");
    expect(parseHole("i9")).toEqual({ l: 9, r: 9 });
    expect(parseHole("a1")).toBeNull();
    expect(parseHole("zz")).toBeNull();
    expect(nameOf({ l: 13, r: 1 })).toBe("m1");
  });
  it("knows neighbours and distances", () => {
    expect(neighbours("m1").sort()).toEqual(["l2", "m2"]);
    expect(neighbours("i9").length).toBe(6);
    expect(distance("m1", "e17")).toBe(16);
    expect(distance("m1", "m3")).toBe(2);
  });
});

describe("points", () => {
  it("gives every colour ten holes and the hexagon 61", () => {
    for (const c of COLOURS) expect(pointHoles(c).length).toBe(10);
    expect(HEXAGON.length).toBe(61);
    expect(pointOf("m1")).toBe("white");
    expect(pointOf("e17")).toBe("black");
    expect(pointOf("i9")).toBeNull();
    expect(opposite("red")).toBe("yellow");
  });
});

describe("layout", () => {
  const centroid = (c: (typeof COLOURS)[number], bottom: (typeof COLOURS)[number]) => {
    const ps = pointHoles(c).map((h) => position(h, bottom));
    return { x: ps.reduce((s, p) => s + p.x, 0) / 10, y: ps.reduce((s, p) => s + p.y, 0) / 10 };
  };
  it("puts m1 at the bottom and e17 at the top for white", () => {
    expect(position("m1", "white").x).toBeCloseTo(0);
    expect(position("m1", "white").y).toBeGreaterThan(6);
    expect(position("e17", "white").y).toBeLessThan(-6);
    expect(position("i9", "white")).toEqual({ x: 0, y: 0 });
  });
  it("turns every seat's point to the bottom", () => {
    for (const c of COLOURS) {
      const p = centroid(c, c);
      expect(p.x).toBeCloseTo(0);
      expect(p.y).toBeGreaterThan(5);
    }
  });
  it("places seats clockwise on screen: red lower left, green lower right", () => {
    const red = centroid("red", "white");
    const green = centroid("green", "white");
    expect(red.x).toBeLessThan(0);
    expect(red.y).toBeGreaterThan(0);
    expect(green.x).toBeGreaterThan(0);
    expect(green.y).toBeGreaterThan(0);
  });
  it("keeps neighbours one unit apart", () => {
    const pos = layout("blue");
    for (const h of ALL_HOLES)
      for (const n of neighbours(h)) {
        const a = pos.get(h)!;
        const b = pos.get(n)!;
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(1);
      }
  });
  it("moves the cursor with arrow keys on screen", () => {
    const pos = layout("white");
    expect(arrowTarget("i9", "ArrowRight", pos)).toBe("j9");
    expect(arrowTarget("i9", "ArrowLeft", pos)).toBe("h9");
    expect(["i10", "h10"]).toContain(arrowTarget("i9", "ArrowUp", pos));
    expect(["i8", "j8"]).toContain(arrowTarget("i9", "ArrowDown", pos));
    expect(arrowTarget("m1", "ArrowDown", pos)).toBeNull();
    // Every hole is reachable from the centre by arrows.
    const seen = new Set(["i9"]);
    const queue = ["i9"];
    while (queue.length) {
      const h = queue.shift()!;
      for (const a of ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"] as const) {
        const t = arrowTarget(h, a, pos);
        if (t && !seen.has(t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    expect(seen.size).toBe(121);
  });
});

describe("star outline", () => {
  it("has 24 corners, all of them holes' positions", async () => {
    const { starOutline } = await import("../src/geometry/layout");
    const { ALL_HOLES } = await import("../src/geometry/hole");
    const outline = starOutline();
    expect(outline.length).toBe(24);
    const all = ALL_HOLES.map((h) => position(h, "white"));
    for (const p of outline) expect(all.some((q) => Math.hypot(q.x - p.x, q.y - p.y) < 1e-6)).toBe(true);
  });
});
