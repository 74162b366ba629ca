import { describe, expect, it } from "vitest";
import { ChallengeList, challengeTerms } from "../src/online/challengePanel";
import type { ChallengeView } from "../src/online/wire";

const person = (id: string) => ({ id, name: `name-${id}`, guest: false });
const challenge = (id: string, from: string, to: string): ChallengeView => ({
  id,
  from: person(from),
  to: person(to),
  time: { minutes: 5, increment: 3 },
  rated: true,
  move_time: null,
  expires_at: 1_000,
});

describe("challenge list", () => {
  it("splits a user's challenges by direction and forgets ended ones", () => {
    const list = new ChallengeList();
    list.reset([challenge("a", "me", "x"), challenge("b", "y", "me")]);
    list.add(challenge("c", "z", "me"));
    expect(list.outgoing("me").map((c) => c.id)).toEqual(["a"]);
    expect(list.incoming("me").map((c) => c.id)).toEqual(["b", "c"]);
    expect(list.remove("b")?.from.id).toBe("y");
    expect(list.remove("b")).toBeUndefined();
    expect(list.incoming("me").map((c) => c.id)).toEqual(["c"]);
    list.reset([]);
    expect(list.outgoing("me")).toEqual([]);
  });

  it("describes the terms of a challenge", () => {
    expect(challengeTerms({ time: { minutes: 5, increment: 3 }, rated: true })).toBe("Time: 5 min + 3 s · Rated");
    expect(challengeTerms({ time: null, rated: false })).toBe("No clock · Casual");
  });
});

describe("bot accounts", () => {
  it("are marked wherever a player is named", async () => {
    const { playerName, userName } = await import("../src/online/playerName");
    expect(userName({ name: "robo", bot: true })).toBe("BOT robo");
    expect(userName({ name: "pat" })).toBe("pat");
    expect(playerName({ kind: "human", id: "1", name: "robo", guest: false, bot: true })).toBe("BOT robo");
  });
});
