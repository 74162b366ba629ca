import { describe, expect, it } from "vitest";
import { MUTED_KEY, readMuted, visibleLines, writeMuted } from "../src/online/chatPanel";
import { applyEvent, finishedColours } from "../src/online/tableState";
import type { ChatLine, TableSnapshot } from "../src/online/wire";

const line = (id: string, text: string): ChatLine => ({
  from: { id, name: `n-${id}`, guest: false },
  text,
  at: 1,
  spectator: false,
  hidden_from_players: false,
});

const snap: TableSnapshot = {
  id: "t1",
  variant: "classic-2",
  time: null,
  rated: false,
  status: "live",
  seats: [],
  v: 3,
  position: "classic-2 white 1 white:m1 black:e17",
  turn: "white",
  moves: [],
  clock: null,
  result: null,
  chat: [],
};

/** A Storage stand-in. */
function memory(): Pick<Storage, "getItem" | "setItem"> {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

describe("table chat", () => {
  it("adds chat lines and skips withheld events, keeping the numbering", () => {
    const r = applyEvent(snap, { table: "t1", v: 4, type: "chat", ...line("a", "hi") });
    expect(r.kind).toBe("applied");
    if (r.kind !== "applied") return;
    expect(r.table.chat.map((l) => l.text)).toEqual(["hi"]);
    const w = applyEvent(r.table, { table: "t1", v: 5, type: "withheld" });
    expect(w.kind === "applied" && w.table.v).toBe(5);
    expect(w.kind === "applied" && w.table.chat.length).toBe(1);
  });

  it("hides a user's lines and remembers it", () => {
    const store = memory();
    expect(readMuted(store)).toEqual([]);
    writeMuted(store, [{ id: "b", name: "bo" }]);
    expect(readMuted(store)).toEqual([{ id: "b", name: "bo" }]);
    const shown = visibleLines([line("a", "1"), line("b", "2"), line("a", "3")], readMuted(store));
    expect(shown.map((l) => l.text)).toEqual(["1", "3"]);
    store.setItem(MUTED_KEY, "not json");
    expect(readMuted(store)).toEqual([]);
  });
});

describe("resigning", () => {
  it("knows which colours have finished", () => {
    const s = "classic-3 white 30 white:m1 blue:e9 yellow:e5 arrived:yellow out:blue places:yellow=1,blue=3 made:29,29,29";
    expect([...finishedColours(s)].sort()).toEqual(["blue", "yellow"]);
    expect(finishedColours("classic-2 white 1 white:m1 black:e17").size).toBe(0);
  });
});

describe("invitations", () => {
  it("builds and reads invitation links", async () => {
    const { inviteOf, tableUrl } = await import("../src/online/inviteLink");
    expect(tableUrl("t1")).toBe("/table/t1");
    expect(tableUrl("t1", "abc")).toBe("/table/t1?invite=abc");
    expect(inviteOf("?invite=abc")).toBe("abc");
    expect(inviteOf("?invite=")).toBeNull();
    expect(inviteOf("")).toBeNull();
  });
});

describe("abort", () => {
  it("is possible until every seat has made its first move", async () => {
    const { canAbort } = await import("../src/online/tableState");
    const seats = [
      { seat: 0, colour: "white", player: { kind: "open" as const } },
      { seat: 1, colour: "black", player: { kind: "open" as const } },
    ];
    const live = { ...snap, seats };
    expect(canAbort({ ...live, moves: ["m4-m5"] })).toBe(true);
    expect(canAbort({ ...live, moves: ["m4-m5", "e14-e13"] })).toBe(false);
    expect(canAbort({ ...live, status: "finished", moves: [] })).toBe(false);
    const r = applyEvent({ ...live, v: 3 }, { table: "t1", v: 4, type: "aborted", seat: 1 });
    expect(r.kind === "applied" && r.table.status).toBe("aborted");
  });
});
