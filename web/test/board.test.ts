import { describe, expect, it } from "vitest";
import { activate, canPick, deselect, hover, moveCursor, setPosition } from "../src/board/actions";
import { foreignHoles, groupMoves, initialState, selectedDests, type LegalMove } from "../src/board/state";
import { ALL_HOLES } from "../src/geometry/hole";
import { convexHull, outline } from "../src/board/hull";

const labels = { hole: (n: string) => n, board: "board", zoomOut: "whole board" };
const moves: LegalMove[] = [
  { from: "l4", to: "l5", path: ["l4", "l5"], eliminates: false },
  { from: "l4", to: "k5", path: ["l4", "k5"], eliminates: false },
  { from: "m3", to: "m5", path: ["m3", "m5"], eliminates: true },
];

function state() {
  const played: LegalMove[] = [];
  const s = initialState("white", labels, (m) => played.push(m));
  setPosition(s, new Map([["l4", "white"], ["m3", "white"], ["m4", "white"], ["e17", "black"]]), "white", groupMoves(moves), []);
  return { s, played };
}

describe("board actions", () => {
  it("picks a movable marble, shows its destinations and moves", () => {
    const { s, played } = state();
    expect(canPick(s, "l4")).toBe(true);
    expect(canPick(s, "m4")).toBe(false); // no legal move
    expect(canPick(s, "e17")).toBe(false); // not ours
    activate(s, "l4");
    expect(s.selected).toBe("l4");
    expect([...selectedDests(s).keys()].sort()).toEqual(["k5", "l5"]);
    hover(s, "k5");
    expect(s.preview).toBe("k5");
    hover(s, "i9");
    expect(s.preview).toBeNull();
    expect(activate(s, "k5")).toBe(true);
    expect(played.map((m) => m.to)).toEqual(["k5"]);
    expect(s.selected).toBeNull();
  });
  it("switches marbles, and a click elsewhere or Esc puts the marble down", () => {
    const { s } = state();
    activate(s, "l4");
    activate(s, "m3");
    expect(s.selected).toBe("m3");
    activate(s, "i9");
    expect(s.selected).toBeNull();
    activate(s, "m3");
    activate(s, "m3");
    expect(s.selected).toBeNull();
    activate(s, "m3");
    deselect(s);
    expect(s.selected).toBeNull();
  });
  it("shades the points where the picked marble may not stop", () => {
    const { s } = state();
    expect(foreignHoles(s, ALL_HOLES).size).toBe(0);
    activate(s, "l4");
    const grey = foreignHoles(s, ALL_HOLES);
    expect(grey.size).toBe(40);
    expect(grey.has("m1")).toBe(false);
    expect(grey.has("e17")).toBe(false);
    expect(grey.has("a13")).toBe(true);
  });
  it("drops the selection when the position changes under it", () => {
    const { s } = state();
    activate(s, "l4");
    setPosition(s, s.pieces, null, new Map(), [{ colour: "white", path: ["l4", "l5"] }]);
    expect(s.selected).toBeNull();
    expect(s.marks).toEqual([{ colour: "white", path: ["l4", "l5"] }]);
  });
  it("moves the cursor with arrows and previews destinations on the way", () => {
    const { s } = state();
    activate(s, "l4");
    s.cursor = "l4";
    moveCursor(s, "ArrowUp");
    expect(["l5", "k5"]).toContain(s.cursor);
    expect(s.preview).toBe(s.cursor);
  });
});

describe("goal outline", () => {
  it("is the hull of the points", () => {
    const hull = convexHull([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 1, y: 1 }, { x: 1, y: 0.2 }]);
    expect(hull.length).toBe(3);
    expect(outline([], 1)).toBe("");
    expect(outline([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 1, y: 2 }], 0.5).split(" ").length).toBe(3);
  });
});
