import { describe, expect, it } from "vitest";
import { applyEvent, clocksAt, seatOf } from "../src/online/tableState";
import { reconnectDelay } from "../src/online/socket";
import { absenceState } from "../src/online/absenceBar";
import type { TableSnapshot } from "../src/online/wire";

const snap: TableSnapshot = {
  id: "t1",
  variant: "classic-2",
  time: { minutes: 5, increment: 3 },
  rated: false,
  status: "open",
  seats: [
    { seat: 0, colour: "white", player: { kind: "human", id: "u1", name: "ann", guest: false } },
    { seat: 1, colour: "black", player: { kind: "open" } },
  ],
  v: 1,
  position: "classic-2 white 1 white:m1 black:e17",
  turn: null,
  moves: [],
  clock: null,
  result: null,
  chat: [],
};

describe("live table events", () => {
  it("applies events in order", () => {
    let t = snap;
    const seated = applyEvent(t, { table: "t1", v: 2, type: "seated", seat: 1, player: { kind: "computer", level: 3 } });
    expect(seated.kind).toBe("applied");
    t = (seated as { table: TableSnapshot }).table;
    expect(t.seats[1].player).toEqual({ kind: "computer", level: 3 });
    const clock = { remaining_ms: [300000, 300000], running: 0 };
    t = (applyEvent(t, { table: "t1", v: 3, type: "started", turn: "white", clock }) as { table: TableSnapshot }).table;
    expect(t.status).toBe("live");
    t = (applyEvent(t, {
      table: "t1", v: 4, type: "moved", ply: 1, colour: "white", path: "m1-m2", position: "p2", turn: "black", clock,
    }) as { table: TableSnapshot }).table;
    expect(t.moves).toEqual(["m1-m2"]);
    expect(t.position).toBe("p2");
    t = (applyEvent(t, { table: "t1", v: 5, type: "ended", reason: "resigned-black", places: [] }) as { table: TableSnapshot }).table;
    expect(t.status).toBe("finished");
    expect(t.result?.reason).toBe("resigned-black");
    expect(t.clock?.running).toBeNull();
  });
  it("ignores old events and reports gaps", () => {
    expect(applyEvent(snap, { table: "t1", v: 1, type: "vacated", seat: 1 }).kind).toBe("stale");
    expect(applyEvent(snap, { table: "t2", v: 2, type: "vacated", seat: 1 }).kind).toBe("stale");
    expect(applyEvent(snap, { table: "t1", v: 4, type: "vacated", seat: 1 })).toEqual({ kind: "gap", since: 1 });
  });
  it("knows the user's seat and counts the running clock down", () => {
    expect(seatOf(snap, "u1")).toBe(0);
    expect(seatOf(snap, "u2")).toBeNull();
    expect(seatOf(snap, null)).toBeNull();
    const live = { ...snap, status: "live", clock: { remaining_ms: [1000, 2000], running: 1 } };
    expect(clocksAt(live, 100, 600)).toEqual([1000, 1500]);
    expect(clocksAt(live, 100, 5000)).toEqual([1000, 0]);
    expect(clocksAt(snap, 0, 0)).toBeNull();
  });
  it("waits longer after each failed reconnection, up to 8 s", () => {
    expect([0, 1, 2, 3, 4, 10].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
});

describe("games list", () => {
  it("shows rating changes of rated games only", async () => {
    const { ratingChange } = await import("../src/online/gamesPage");
    expect(ratingChange(1500, 1516.4)).toBe(" 1500 → 1516");
    expect(ratingChange(null, null)).toBe("");
  });
});

describe("an absent player", () => {
  const live: TableSnapshot = {
    ...snap,
    status: "live",
    seats: [snap.seats[0], { seat: 1, colour: "black", player: { kind: "human", id: "u2", name: "bob", guest: false } }],
  };
  it("is listed on absent and dropped on present", () => {
    const away = applyEvent(live, { table: "t1", v: 2, type: "absent", seat: 1, since: 1000, claim_at: 61000 });
    const t = (away as { table: TableSnapshot }).table;
    expect(t.absent).toEqual([{ seat: 1, since: 1000, claim_at: 61000 }]);
    const back = applyEvent(t, { table: "t1", v: 3, type: "present", seat: 1 });
    expect((back as { table: TableSnapshot }).table.absent).toEqual([]);
  });
  it("gives the opponent a countdown, then the claim; others only see who is away", () => {
    const t = { ...live, absent: [{ seat: 1, since: 1000, claim_at: 61000 }] };
    expect(absenceState(t, "u1", 30500)).toEqual({ kind: "countdown", name: "bob", seconds: 31 });
    expect(absenceState(t, "u1", 61000)).toEqual({ kind: "claimable", name: "bob" });
    expect(absenceState(t, "u3", 61000)).toEqual({ kind: "away", name: "bob" });
    expect(absenceState(t, "u2", 61000)).toEqual({ kind: "none" });
    expect(absenceState({ ...t, status: "finished" }, "u1", 61000)).toEqual({ kind: "none" });
    const many = { ...t, absent: [{ seat: 1, since: 1000, claim_at: null }] };
    expect(absenceState(many, "u1", 99000)).toEqual({ kind: "away", name: "bob" });
  });
});
