import { afterEach, describe, expect, it, vi } from "vitest";
import { NEW_RATING, rate } from "../src/puzzles/glicko";
import { readPuzzleRecord, recordAttempt } from "../src/puzzles/store";
import { dailyIndex, dailyPuzzle, loadPuzzleSet, type Puzzle } from "../src/puzzles/puzzleFile";

describe("Glicko-2", () => {
  it("gives the numbers of Glickman's worked example", () => {
    const r = rate({ rating: 1500, deviation: 200, volatility: 0.06 }, [
      { rating: 1400, deviation: 30, score: 1 },
      { rating: 1550, deviation: 100, score: 0 },
      { rating: 1700, deviation: 300, score: 0 },
    ]);
    expect(r.rating).toBeCloseTo(1464.06, 1);
    expect(r.deviation).toBeCloseTo(151.52, 1);
    expect(r.volatility).toBeCloseTo(0.05999, 4);
  });

  it("raises the rating for a solved puzzle and lowers it for a failed one", () => {
    expect(rate(NEW_RATING, [{ rating: 1500, deviation: 60, score: 1 }]).rating).toBeGreaterThan(1500);
    expect(rate(NEW_RATING, [{ rating: 1500, deviation: 60, score: 0 }]).rating).toBeLessThan(1500);
    expect(rate(NEW_RATING, []).deviation).toBe(350);
  });
});

describe("guest puzzle record", () => {
  it("counts only the first attempt at a puzzle", () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    expect(readPuzzleRecord(storage).rating).toEqual(NEW_RATING);
    const once = recordAttempt(storage, "g-10", 1500, true);
    expect(once.rating.rating).toBeGreaterThan(1500);
    expect(recordAttempt(storage, "g-10", 1500, false)).toEqual(once);
    map.set("stella.puzzles", "{not json");
    expect(readPuzzleRecord(storage).rating).toEqual(NEW_RATING);
  });

  it("picks one daily puzzle per UTC day", () => {
    const day = Date.UTC(2026, 11, 4, 10);
    expect(dailyIndex(day, 7)).toBe(dailyIndex(Date.UTC(2026, 11, 4, 23, 59), 7));
    expect(dailyIndex(day + 86_400_000, 7)).toBe((dailyIndex(day, 7) + 1) % 7);
  });
});

describe("puzzle set", () => {
  const puzzle = (id: string): Puzzle => ({ id, position: "classic-2 white 40", moves: 2, rating: 1300, game: "g", ply: 1 });
  const file = (ids: string[]) => ({ format: "stella-puzzles/1", puzzles: ids.map(puzzle) });
  const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
  afterEach(() => vi.unstubAllGlobals());

  it("takes the server's set and its daily puzzle", async () => {
    const fetch = vi.fn(async (url: string) => (url === "/api/puzzles" ? json({ ...file(["a", "b"]), daily: { day: 1, id: "b" } }) : json(file(["old"]))));
    vi.stubGlobal("fetch", fetch);
    const set = await loadPuzzleSet();
    expect(set.puzzles.map((p) => p.id)).toEqual(["a", "b"]);
    expect(dailyPuzzle(set, 0)?.id).toBe("b");
  });

  it("falls back to the built-in file without a server", async () => {
    vi.stubGlobal("fetch", vi.fn(async (url: string) => {
      if (url === "/api/puzzles") return new Response("<!doctype html>", { headers: { "content-type": "text/html" } });
      return json(file(["x", "y"]));
    }));
    const set = await loadPuzzleSet();
    expect(set).toEqual({ puzzles: file(["x", "y"]).puzzles, daily: null });
    const day = Date.UTC(2026, 11, 4);
    expect(dailyPuzzle(set, day)?.id).toBe(set.puzzles[dailyIndex(day, 2)].id);
    vi.stubGlobal("fetch", vi.fn(async (url: string) => {
      if (url === "/api/puzzles") throw new TypeError("offline");
      return json(file(["z"]));
    }));
    expect((await loadPuzzleSet()).puzzles.map((p) => p.id)).toEqual(["z"]);
  });
});
