import { describe, expect, it } from "vitest";
import { againstComputer, parseSetup, setupQuery, VARIANTS_BY_PLAYERS } from "../src/offline/setup";
import { addResult, readRecord, recordKey } from "../src/offline/record";

class MapStore {
  readonly m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

describe("offline setup from the address", () => {
  it("reads players, humans and level", () => {
    expect(parseSetup("?players=4&humans=2&level=3")).toEqual({ players: 4, humans: 2, level: 3, variant: "classic-4" });
    expect(parseSetup("")).toBeNull();
    expect(parseSetup("?players=6&humans=9&level=99&variant=masters-6")).toEqual({ players: 6, humans: 6, level: 8, variant: "masters-6" });
    expect(parseSetup("?players=5")).toEqual({ players: 2, humans: 1, level: 2, variant: "classic-2" });
    expect(parseSetup("?players=3&variant=classic-2")!.variant).toBe("classic-3");
  });
  it("round-trips through the query string", () => {
    const s = { players: 3, humans: 1, level: 5, variant: "long-3" };
    expect(parseSetup(setupQuery(s))).toEqual(s);
  });
  it("offers variants with the right seat count", () => {
    for (const [n, ids] of Object.entries(VARIANTS_BY_PLAYERS)) {
      for (const id of ids) {
        const seats = id.split("-")[1];
        expect(seats.includes("x") ? Number(seats[0]) * Number(seats[2]) : Number(seats)).toBe(Number(n));
      }
    }
  });
});

describe("record per setup", () => {
  const vs = { players: 2, humans: 1, level: 2, variant: "classic-2" };
  it("counts wins, losses and draws against the computer", () => {
    const store = new MapStore();
    expect(readRecord(store, vs)).toEqual({ wins: 0, losses: 0, draws: 0 });
    addResult(store, vs, [1], false);
    addResult(store, vs, [2], false);
    addResult(store, vs, [1], true);
    expect(readRecord(store, vs)).toEqual({ wins: 1, losses: 1, draws: 1 });
    expect(store.m.has(recordKey(vs))).toBe(true);
    expect(readRecord(store, { ...vs, level: 3 })).toEqual({ wins: 0, losses: 0, draws: 0 });
  });
  it("does not record pass-and-play", () => {
    const store = new MapStore();
    const pnp = { ...vs, humans: 2 };
    expect(againstComputer(pnp)).toBe(false);
    addResult(store, pnp, [1, 2], false);
    expect(store.m.size).toBe(0);
  });
  it("survives a damaged entry", () => {
    const store = new MapStore();
    store.setItem(recordKey(vs), "{oops");
    expect(readRecord(store, vs)).toEqual({ wins: 0, losses: 0, draws: 0 });
  });
});

describe("offline game from a position", () => {
  it("takes the variant and player count from the position", () => {
    const position = "classic-3 white 1 white:i9 blue:a13 yellow:q13";
    const s = parseSetup(`?players=2&humans=1&position=${encodeURIComponent(position)}`)!;
    expect(s).toEqual({ players: 3, humans: 1, level: 2, variant: "classic-3", position });
    expect(parseSetup(setupQuery(s))).toEqual(s);
  });
  it("is not recorded", () => {
    const store = new MapStore();
    const s = { players: 2, humans: 1, level: 2, variant: "classic-2", position: "classic-2 white 1 white:i9 black:e17" };
    addResult(store, s, [1], false);
    expect(store.m.size).toBe(0);
  });
  it("ignores a position of an unknown variant", () => {
    expect(parseSetup("?players=2&position=nonsense")!.position).toBeUndefined();
  });
});

describe("seats rotated and the saved game", () => {
  it("moves the people one seat on for the next game", async () => {
    const { rotated, isPersonSeat } = await import("../src/offline/setup");
    const s = { players: 2, humans: 1, level: 2, variant: "classic-2" };
    const next = rotated(s);
    expect(next.first).toBe(1);
    expect(isPersonSeat(next, 0)).toBe(false);
    expect(isPersonSeat(next, 1)).toBe(true);
    expect(rotated(next)).toEqual(s);
    expect(parseSetup(setupQuery(next))).toEqual(next);
  });
  it("keeps one game and rejects damaged saves", async () => {
    const { saveGame, savedGameFor, savedGame, SAVED_KEY } = await import("../src/offline/saved");
    const store = new (class extends MapStore {
      removeItem(k: string) {
        this.m.delete(k);
      }
    })();
    const s = { players: 2, humans: 1, level: 2, variant: "classic-2" };
    saveGame(store, { query: setupQuery(s), moves: ["l4-l5"], movers: ["white"], seed: 7, finished: false });
    expect(savedGameFor(store, s)?.moves).toEqual(["l4-l5"]);
    expect(savedGameFor(store, { ...s, level: 3 })).toBeNull();
    store.setItem(SAVED_KEY, JSON.stringify({ query: "?x", moves: ["a"], movers: ["purple"] }));
    expect(savedGame(store)).toBeNull();
  });
});
