/**
 * A live table as the client knows it: a snapshot from the server with the numbered
 * events applied in order. A gap in the numbering means events were missed (for
 * example while reconnecting); the caller then asks for the events since the last
 * version it has.
 */
import type { ChatLine, EventEnvelope, TableSnapshot } from "./wire";

/** The result of applying one event. */
export type ApplyResult =
  /** Applied; here is the new state. */
  | { readonly kind: "applied"; readonly table: TableSnapshot }
  /** Already seen (version not newer); nothing changed. */
  | { readonly kind: "stale" }
  /** Events are missing before this one: resynchronise from `since`. */
  | { readonly kind: "gap"; readonly since: number };

/** Applies one event to a table. */
export function applyEvent(t: TableSnapshot, e: EventEnvelope): ApplyResult {
  if (e.table !== t.id || e.v <= t.v) return { kind: "stale" };
  if (e.v !== t.v + 1) return { kind: "gap", since: t.v };
  const v = e.v;
  switch (e.type) {
    case "seated":
      return {
        kind: "applied",
        table: { ...t, v, seats: t.seats.map((s) => (s.seat === e.seat ? { ...s, player: e.player } : s)) },
      };
    case "vacated":
      return {
        kind: "applied",
        table: { ...t, v, seats: t.seats.map((s) => (s.seat === e.seat ? { ...s, player: { kind: "open" } } : s)) },
      };
    case "started":
      return { kind: "applied", table: { ...t, v, status: "live", turn: e.turn, clock: e.clock, move_deadline: e.move_deadline ?? null } };
    case "moved":
      return {
        kind: "applied",
        table: {
          ...t,
          v,
          position: e.position,
          turn: e.turn,
          clock: e.clock,
          moves: [...t.moves, e.path],
          move_deadline: e.move_deadline ?? null,
        },
      };
    case "ended":
      return {
        kind: "applied",
        table: {
          ...t,
          v,
          status: "finished",
          turn: null,
          clock: t.clock ? { ...t.clock, running: null } : null,
          result: { reason: e.reason, places: e.places },
          absent: [],
        },
      };
    case "closed":
      return { kind: "applied", table: { ...t, v, status: "closed" } };
    case "chat": {
      const line: ChatLine = {
        from: e.from,
        text: e.text,
        at: e.at,
        spectator: e.spectator,
        hidden_from_players: e.hidden_from_players,
      };
      return { kind: "applied", table: { ...t, v, chat: [...(t.chat ?? []), line] } };
    }
    case "aborted":
      return {
        kind: "applied",
        table: { ...t, v, status: "aborted", turn: null, clock: t.clock ? { ...t.clock, running: null } : null, absent: [] },
      };
    case "absent": {
      const away = { seat: e.seat, since: e.since, claim_at: e.claim_at };
      return { kind: "applied", table: { ...t, v, absent: [...(t.absent ?? []).filter((a) => a.seat !== e.seat), away] } };
    }
    case "present":
      return { kind: "applied", table: { ...t, v, absent: (t.absent ?? []).filter((a) => a.seat !== e.seat) } };
    case "rematch_offered":
      return { kind: "applied", table: { ...t, v, rematch: e.accepted } };
    case "rematch_started":
    case "rematch_lapsed":
    case "withheld":
      return { kind: "applied", table: { ...t, v } };
  }
}

/** The seat index of a user at a table, or `null` when they only watch. */
export function seatOf(t: TableSnapshot, userId: string | null): number | null {
  if (!userId) return null;
  const s = t.seats.find((s) => s.player.kind === "human" && s.player.id === userId);
  return s ? s.seat : null;
}

/** Remaining clock time of each seat at `now`, counting down the running seat. */
export function clocksAt(t: TableSnapshot, receivedAt: number, now: number): number[] | null {
  if (!t.clock) return null;
  return t.clock.remaining_ms.map((ms, i) =>
    t.clock!.running === i && t.status === "live" ? Math.max(0, ms - (now - receivedAt)) : ms,
  );
}

/**
 * Colours that have finished (arrived or been eliminated) in a position string: they
 * are out of the game and can no longer resign.
 */
export function finishedColours(position: string): Set<string> {
  const done = new Set<string>();
  for (const field of position.split(/\s+/)) {
    const m = /^(arrived|out):(.*)$/.exec(field);
    if (m) for (const c of m[2].split(",")) if (c) done.add(c);
  }
  return done;
}

/** Whether the game can still be aborted: it is live and some seat has not yet made its
 * first move (the first round, in which no seat is skipped). */
export function canAbort(t: TableSnapshot): boolean {
  return t.status === "live" && t.moves.length < t.seats.length;
}
