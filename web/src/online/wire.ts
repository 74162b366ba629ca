/**
 * The server's live protocol over `/ws` (crates/server `protocol/messages.rs`, documented in
 * docs/protocol.md): one message type per direction, `{"t": type, "d": data}`.
 */

/** A time control: reserve in minutes, increment in seconds. */
export interface TimeSpec {
  readonly minutes: number;
  readonly increment: number;
}

/** What a new table's seat holds. */
export type SeatRequest = "open" | "me" | { readonly computer: number };

/** Who sits in a seat. */
export type PlayerView =
  | { readonly kind: "open" }
  | { readonly kind: "human"; readonly id: string; readonly name: string; readonly guest: boolean; readonly bot?: boolean }
  | { readonly kind: "computer"; readonly level: number };

/** One seat of a table. */
export interface SeatView {
  readonly seat: number;
  readonly colour: string;
  readonly player: PlayerView;
}

/** A table as the lobby lists it. */
export interface TableSummary {
  readonly id: string;
  readonly variant: string;
  readonly time: TimeSpec | null;
  readonly rated: boolean;
  /** `open`, `live` or `finished`. */
  readonly status: string;
  readonly seats: readonly SeatView[];
  /** Kept out of the lobby; only invitation holders sit or watch. */
  readonly private?: boolean;
  /** Untimed tables: seconds each move may take. */
  readonly move_time?: number | null;
  /** Per seat, whether its player follows the table now. */
  readonly connected?: readonly boolean[];
  /** Bot accounts may sit at the free seats. */
  readonly bots?: boolean;
}

/** Clocks: reserve of each seat in seat order, and the seat whose clock runs. */
export interface ClockView {
  readonly remaining_ms: readonly number[];
  readonly running: number | null;
}

/** A seat's result. */
export interface PlaceView {
  readonly seat: number;
  readonly colour: string;
  readonly place: number;
  readonly rating_before: number | null;
  readonly rating_after: number | null;
}

/** How a game ended. */
export interface ResultView {
  readonly reason: string;
  readonly places: readonly PlaceView[];
}

/** Everything a client needs to draw a table. */
export interface TableSnapshot extends TableSummary {
  /** Version of the last event included. */
  readonly v: number;
  /** Position string. */
  readonly position: string;
  readonly turn: string | null;
  readonly moves: readonly string[];
  readonly clock: ClockView | null;
  readonly result: ResultView | null;
  /** The chat as this viewer may see it, oldest first. */
  readonly chat: readonly ChatLine[];
  /** User ids who asked for a rematch of this finished table. */
  readonly rematch?: readonly string[];
  /** Untimed tables: when (Unix ms) the seat to move flags unless it moves. */
  readonly move_deadline?: number | null;
  /** Players of the live game who are away now. */
  readonly absent?: readonly Absence[];
}

/** A player away from a live game: since when, and (at 2 players) when the opponent
 * may claim the win (Unix ms). */
export interface Absence {
  readonly seat: number;
  readonly since: number;
  readonly claim_at: number | null;
}

/** One line of a table's chat (plain text: always shown as text, never as HTML). */
export interface ChatLine {
  readonly from: UserInfo;
  readonly text: string;
  /** Unix milliseconds. */
  readonly at: number;
  /** Written by someone watching rather than playing. */
  readonly spectator: boolean;
  /** Kept from the players (a spectator's line during a rated game). */
  readonly hidden_from_players: boolean;
}

/** A numbered table event. */
export type TableEvent =
  | { readonly type: "seated"; readonly seat: number; readonly player: PlayerView }
  | { readonly type: "vacated"; readonly seat: number }
  | {
      readonly type: "started";
      readonly turn: string | null;
      readonly clock: ClockView | null;
      readonly move_deadline?: number | null;
    }
  | {
      readonly type: "moved";
      readonly ply: number;
      readonly colour: string;
      readonly path: string;
      readonly position: string;
      readonly turn: string | null;
      readonly clock: ClockView | null;
      readonly move_deadline?: number | null;
    }
  | ({ readonly type: "ended" } & ResultView)
  | { readonly type: "closed" }
  | ({ readonly type: "chat" } & ChatLine)
  | { readonly type: "aborted"; readonly seat: number }
  | ({ readonly type: "absent" } & Absence)
  | { readonly type: "present"; readonly seat: number }
  | { readonly type: "rematch_offered"; readonly accepted: readonly string[] }
  | { readonly type: "rematch_started"; readonly id: string }
  | { readonly type: "rematch_lapsed" }
  /** An event this viewer may not see; it only keeps the numbering whole. */
  | { readonly type: "withheld" };

/** A table event with its table and version. */
export type EventEnvelope = { readonly table: string; readonly v: number } & TableEvent;

/** Who a connection is. */
export interface UserInfo {
  readonly id: string;
  readonly name: string;
  readonly guest: boolean;
  /** A bot account (a program playing with an API token). */
  readonly bot?: boolean;
}

/** Messages from a client. */
export type ClientMsg =
  | { t: "ping"; d: { n: number } }
  | { t: "lobby_subscribe" }
  | { t: "lobby_unsubscribe" }
  | {
      t: "create_table";
      d: { variant: string; time: TimeSpec | null; rated: boolean; seats: SeatRequest[]; private?: boolean; move_time?: number; bots?: boolean };
    }
  | { t: "join"; d: { table: string; seat?: number; invite?: string } }
  | { t: "leave"; d: { table: string } }
  | { t: "watch"; d: { table: string; since?: number; invite?: string } }
  | { t: "unwatch"; d: { table: string } }
  | { t: "move"; d: { table: string; path: string; ack: number; confirm: boolean } }
  | { t: "resign"; d: { table: string } }
  | { t: "chat"; d: { table: string; text: string } }
  | { t: "rematch"; d: { table: string } }
  | { t: "abort"; d: { table: string } }
  | { t: "claim_win"; d: { table: string } }
  | { t: "quick_pair"; d: TimeSpec }
  | { t: "quick_pair_cancel" }
  | { t: "challenge"; d: ChallengeRequest }
  | { t: "challenge_accept"; d: { id: string } }
  | { t: "challenge_decline"; d: { id: string } }
  | { t: "challenge_cancel"; d: { id: string } };

/** A challenge to a named user for a classic-2 game. */
export interface ChallengeRequest {
  readonly to: string;
  readonly time: TimeSpec | null;
  readonly rated: boolean;
  readonly move_time?: number;
}

/** An open challenge as both sides see it. */
export interface ChallengeView {
  readonly id: string;
  readonly from: UserInfo;
  readonly to: UserInfo;
  readonly time: TimeSpec | null;
  readonly rated: boolean;
  readonly move_time: number | null;
  /** When it lapses unless answered (Unix ms). */
  readonly expires_at: number;
}

/** Why a challenge ended without a game. */
export type ChallengeEnd = "declined" | "cancelled" | "expired" | "left";

/** Messages from the server. */
export type ServerMsg =
  | { t: "hello"; d: { user: UserInfo | null; now: number } }
  | { t: "pong"; d: { n: number } }
  | { t: "lobby"; d: { tables: TableSummary[] } }
  | { t: "lobby_update"; d: TableSummary }
  | { t: "lobby_remove"; d: { table: string } }
  | { t: "table_created"; d: { table: string; invite?: string } }
  | { t: "paired"; d: { table: string } }
  | { t: "challenge"; d: ChallengeView }
  | { t: "challenges"; d: { challenges: ChallengeView[] } }
  | { t: "challenge_accepted"; d: { id: string; table: string } }
  | { t: "challenge_ended"; d: { id: string; reason: ChallengeEnd } }
  | { t: "table"; d: TableSnapshot }
  | { t: "event"; d: EventEnvelope }
  | { t: "ack"; d: { ack: number } }
  | { t: "error"; d: { code: string; message: string; ack?: number } };
