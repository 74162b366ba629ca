import { describe, expect, it } from "vitest";
import type { Colour } from "../src/colour";
import { lastMoves, rebuildHistory } from "../src/table/history";

const W = "white" as Colour;
const R = "red" as Colour;
const B = "black" as Colour;

describe("history rebuilt backwards", () => {
  it("finds each move's mover and the position before it", () => {
    // white m1→m2 (step), black e17→e16, white m2-m4 (jump over m3).
    const now = new Map<string, Colour>([["m4", W], ["m3", W], ["e16", B]]);
    const h = rebuildHistory(now, ["m1-m2", "e17-e16", "m2-m4"]);
    expect(h.moves.map((m) => m.colour)).toEqual([W, B, W]);
    expect([...h.before[0].entries()].sort()).toEqual([["e17", B], ["m1", W], ["m3", W]]);
    expect(h.before[3]).toEqual(now);
  });
  it("undoes a Masters swap: the displaced marble goes back to the end hole", () => {
    // white steps l14→l13? here: a jump chain a-b-c whose last hop swapped with red on c.
    const now = new Map<string, Colour>([["e17", W], ["e16", R]]);
    const h = rebuildHistory(now, ["e15-e16-e17"]);
    expect(h.moves[0].colour).toBe(W);
    expect([...h.before[0].entries()].sort()).toEqual([["e15", W], ["e17", R]]);
  });
  it("undoes a swapping step", () => {
    const now = new Map<string, Colour>([["e17", W], ["e16", R]]);
    const h = rebuildHistory(now, ["e16-e17"]);
    expect([...h.before[0].entries()].sort()).toEqual([["e16", W], ["e17", R]]);
  });
  it("stops at a move that does not fit the position", () => {
    const now = new Map<string, Colour>([["m2", W]]);
    const h = rebuildHistory(now, ["a13-b13", "m1-m2"]);
    expect(h.moves.length).toBe(1);
    expect(h.moves[0].index).toBe(1);
  });
});

describe("last moves marked", () => {
  const now = new Map<string, Colour>([["m2", W], ["e16", B], ["a12", R]]);
  const h = rebuildHistory(now, ["m1-m2", "b13-a12", "e17-e16"]);
  it("marks every other seat's last move of the round", () => {
    expect(lastMoves(h, W, 3)).toEqual([
      { colour: R, path: ["b13", "a12"] },
      { colour: B, path: ["e17", "e16"] },
    ]);
  });
  it("marks the viewer's own move only when it is the latest", () => {
    const mine = rebuildHistory(new Map<string, Colour>([["m2", W]]), ["m1-m2"]);
    expect(lastMoves(mine, W, 3)).toEqual([{ colour: W, path: ["m1", "m2"] }]);
  });
});
