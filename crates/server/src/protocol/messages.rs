//! The two message enums of the protocol, one per direction. On the wire each message
//! is `{"t": type, "d": data}`; see docs/protocol.md.

use serde::{Deserialize, Serialize};

use super::{ChallengeEnd, ChallengeRequest, ChallengeView, ErrorCode};
use crate::table::ClockView;

/// A time control as clients write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeSpec {
    /// Reserve in whole minutes (1–180).
    pub minutes: i64,
    /// Increment in whole seconds (0–60).
    pub increment: i64,
}

/// What a new table's seat holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatRequest {
    /// Open for anyone to join.
    Open,
    /// The creator sits here.
    Me,
    /// A computer player of level 1–8.
    Computer(u8),
}

/// A request to create a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateTable {
    /// Variant id, e.g. `classic-3`.
    pub variant: String,
    /// Time control, or none for an untimed game.
    #[serde(default)]
    pub time: Option<TimeSpec>,
    /// Rated (accounts only) or casual.
    #[serde(default)]
    pub rated: bool,
    /// One entry per seat in play order; empty means the creator in the first seat and
    /// every other seat open.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// Kept out of the lobby; only people holding the invitation sit or watch.
    #[serde(default)]
    pub private: bool,
    /// Untimed tables: seconds each move may take (300, 3600, 86400 or 259200; one day
    /// if absent); when they pass, the seat to move has flagged.
    #[serde(default)]
    pub move_time: Option<i64>,
    /// Bots may sit at the open seats (casual tables only); other tables refuse them.
    #[serde(default)]
    pub bots: bool,
}

/// The times per move an untimed table may take, in seconds: 5 minutes, 1 hour,
/// 1 day, 3 days.
pub const MOVE_TIMES: [i64; 4] = [300, 3_600, 86_400, 259_200];

/// The time per move of an untimed table when none is chosen: one day.
pub const DEFAULT_MOVE_TIME: i64 = 86_400;

/// Messages from a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Asks for a `pong`.
    Ping {
        /// Echoed back.
        #[serde(default)]
        n: u64,
    },
    /// Start receiving the lobby list and its changes.
    LobbySubscribe,
    /// Stop receiving lobby changes.
    LobbyUnsubscribe,
    /// Create a table.
    CreateTable(CreateTable),
    /// Sit at a table.
    Join {
        /// Table id.
        table: String,
        /// Seat index; the first open seat if absent.
        #[serde(default)]
        seat: Option<usize>,
        /// The invitation of a private table.
        #[serde(default)]
        invite: Option<String>,
    },
    /// Leave a seat of a table that has not started.
    Leave {
        /// Table id.
        table: String,
    },
    /// Receive a table's events (players and spectators alike).
    Watch {
        /// Table id.
        table: String,
        /// The last event version the client has; the server sends what follows, or a
        /// full snapshot when absent.
        #[serde(default)]
        since: Option<u64>,
        /// The invitation of a private table.
        #[serde(default)]
        invite: Option<String>,
    },
    /// Claim the win of a 2-player game whose opponent has been away long enough.
    ClaimWin {
        /// Table id.
        table: String,
    },
    /// Stop receiving a table's events.
    Unwatch {
        /// Table id.
        table: String,
    },
    /// Play a move.
    Move {
        /// Table id.
        table: String,
        /// The marble's path, e.g. `m1-m3-k5`.
        path: String,
        /// Client's id for this move, echoed in the `ack` or `error`.
        ack: u64,
        /// Confirms a move that eliminates its player.
        #[serde(default)]
        confirm: bool,
    },
    /// Resign the game.
    Resign {
        /// Table id.
        table: String,
    },
    /// Call the game off before every seat has made its first move: no result, no
    /// rating change.
    Abort {
        /// Table id.
        table: String,
    },
    /// Offer or accept a rematch of a finished table.
    Rematch {
        /// Table id.
        table: String,
    },
    /// Say something at a table (players and spectators).
    Chat {
        /// Table id.
        table: String,
        /// Plain text, 1 to 280 characters.
        text: String,
    },
    /// Wait for an opponent for a classic-2 game at a preset time control.
    QuickPair(TimeSpec),
    /// Stop waiting for an opponent.
    QuickPairCancel,
    /// Challenge a user by name to a classic-2 game (accounts only).
    Challenge(ChallengeRequest),
    /// Accept a challenge made to you: the game starts at once.
    ChallengeAccept {
        /// Challenge id.
        id: String,
    },
    /// Decline a challenge made to you.
    ChallengeDecline {
        /// Challenge id.
        id: String,
    },
    /// Take back a challenge you made.
    ChallengeCancel {
        /// Challenge id.
        id: String,
    },
}

/// The type names of [`ClientMsg`], to tell an unknown type from a malformed message.
pub const CLIENT_TYPES: &[&str] = &[
    "ping",
    "lobby_subscribe",
    "lobby_unsubscribe",
    "create_table",
    "join",
    "leave",
    "watch",
    "unwatch",
    "move",
    "resign",
    "chat",
    "abort",
    "claim_win",
    "rematch",
    "quick_pair",
    "quick_pair_cancel",
    "challenge",
    "challenge_accept",
    "challenge_decline",
    "challenge_cancel",
];

/// A player as others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerView {
    /// Nobody sits here yet.
    Open,
    /// A person.
    Human {
        /// User id.
        id: String,
        /// Display name.
        name: String,
        /// Whether a guest.
        guest: bool,
        /// Whether a bot account.
        #[serde(default)]
        bot: bool,
    },
    /// A computer player.
    Computer {
        /// Level 1–8.
        level: u8,
    },
}

/// One seat of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// Seat index in play order.
    pub seat: usize,
    /// The seat's colour.
    pub colour: String,
    /// Who sits there.
    pub player: PlayerView,
}

/// A table as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSummary {
    /// Table id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Time control, none if untimed.
    pub time: Option<TimeSpec>,
    /// Rated or casual.
    pub rated: bool,
    /// `open`, `live` or `finished`.
    pub status: String,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// A private table (never listed in the lobby).
    #[serde(default)]
    pub private: bool,
    /// Untimed tables: seconds each move may take.
    #[serde(default)]
    pub move_time: Option<i64>,
    /// Per seat, whether its player follows the table now (computer seats always do,
    /// open seats never).
    #[serde(default)]
    pub connected: Vec<bool>,
    /// Bots may sit at the open seats.
    #[serde(default)]
    pub bots: bool,
}

/// A seat's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceView {
    /// Seat index.
    pub seat: usize,
    /// Colour.
    pub colour: String,
    /// Place (1 = first).
    pub place: u8,
    /// Rating before the game (rated games).
    pub rating_before: Option<f64>,
    /// Rating after the game (rated games).
    pub rating_after: Option<f64>,
}

/// Everything a client needs to draw a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableSnapshot {
    /// The summary (id, variant, seats...).
    #[serde(flatten)]
    pub summary: TableSummary,
    /// The version of the last event included.
    pub v: u64,
    /// The position string (engine format).
    pub position: String,
    /// The colour to move, none once over or before the start.
    pub turn: Option<String>,
    /// Every move so far, in order.
    pub moves: Vec<String>,
    /// The clocks, for timed games that started.
    pub clock: Option<ClockView>,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// The table's chat as this viewer may see it, oldest first.
    #[serde(default)]
    pub chat: Vec<ChatLine>,
    /// The user ids who have asked for a rematch of this finished table.
    #[serde(default)]
    pub rematch: Vec<String>,
    /// The seated players of the live game who are away now.
    #[serde(default)]
    pub absent: Vec<Absence>,
    /// Untimed tables: when (Unix ms) the seat to move flags unless it moves.
    #[serde(default)]
    pub move_deadline: Option<i64>,
}

/// A seated player away from a live game (as in the `absent` event).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    /// Their seat.
    pub seat: usize,
    /// Since when (Unix ms).
    pub since: i64,
    /// At 2 players, when the opponent may claim the win (Unix ms); none at more.
    pub claim_at: Option<i64>,
}

/// One line of a table's chat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// Who wrote it.
    pub from: UserInfo,
    /// The text (plain text, never HTML).
    pub text: String,
    /// When, in Unix milliseconds.
    pub at: i64,
    /// Whether the writer was watching rather than playing.
    pub spectator: bool,
    /// Whether it was kept from the players (a spectator's line during a rated game);
    /// replays show it.
    pub hidden_from_players: bool,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultView {
    /// The engine's reason, e.g. `arrived`, `resigned-white`, `timeout-black`.
    pub reason: String,
    /// Every seat's place.
    pub places: Vec<PlaceView>,
}

/// A numbered table event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableEvent {
    /// Someone sat down.
    Seated {
        /// Seat index.
        seat: usize,
        /// Who.
        player: PlayerView,
    },
    /// A seat was left.
    Vacated {
        /// Seat index.
        seat: usize,
    },
    /// Every seat was taken: the game began.
    Started {
        /// The colour to move.
        turn: Option<String>,
        /// The clocks.
        clock: Option<ClockView>,
        /// Untimed tables: when the seat to move flags unless it moves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_deadline: Option<i64>,
    },
    /// A move was played.
    Moved {
        /// Ply number from 1.
        ply: u64,
        /// Who moved.
        colour: String,
        /// The canonical path.
        path: String,
        /// The position after it.
        position: String,
        /// The colour to move next, none if the game is over.
        turn: Option<String>,
        /// The clocks after it.
        clock: Option<ClockView>,
        /// Untimed tables: when the next seat flags unless it moves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_deadline: Option<i64>,
    },
    /// The game ended.
    Ended(ResultView),
    /// Everyone left before the start: the table is closed.
    Closed,
    /// A chat line.
    Chat(ChatLine),
    /// A player called the game off before every seat had moved: no result, no rating
    /// change.
    Aborted {
        /// The seat of the player who aborted.
        seat: usize,
    },
    /// A seated player of a live game closed their last connection to the table.
    Absent {
        /// Their seat.
        seat: usize,
        /// Since when (Unix ms).
        since: i64,
        /// At 2 players, when the opponent may claim the win (Unix ms); none at more.
        claim_at: Option<i64>,
    },
    /// An absent player is back.
    Present {
        /// Their seat.
        seat: usize,
    },
    /// Someone asked for (or accepted) a rematch; `accepted` lists every user id that
    /// has so far.
    RematchOffered {
        /// User ids that asked or accepted.
        accepted: Vec<String>,
    },
    /// Every person accepted: the rematch is being played at table `id`.
    RematchStarted {
        /// The new table's id (not `table`, which names the table of the event).
        id: String,
    },
    /// A player left the finished table: the rematch offer is off.
    RematchLapsed,
    /// An event this viewer may not see (a spectator's chat line during a rated game,
    /// sent to a player); it only keeps the numbering whole.
    Withheld,
}

/// A table event with its table and version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventEnvelope {
    /// Table id.
    pub table: String,
    /// Version: 1 for the first event of a table, then +1 each.
    pub v: u64,
    /// The event.
    #[serde(flatten)]
    pub event: TableEvent,
    /// Users who get [`TableEvent::Withheld`] in its place; never sent.
    #[serde(skip)]
    pub hidden_from: Vec<String>,
}

impl EventEnvelope {
    /// The event as `viewer` (a user id, none for an anonymous watcher) may see it.
    pub fn for_viewer(&self, viewer: Option<&str>) -> EventEnvelope {
        match viewer {
            Some(v) if self.hidden_from.iter().any(|h| h == v) => EventEnvelope {
                table: self.table.clone(),
                v: self.v,
                event: TableEvent::Withheld,
                hidden_from: Vec::new(),
            },
            _ => self.clone(),
        }
    }

    /// The event as `viewer` may see it, like [`Self::for_viewer`], reusing this one
    /// (no copy) when the viewer may see it.
    pub fn into_viewer(self, viewer: Option<&str>) -> EventEnvelope {
        match viewer {
            Some(v) if self.hidden_from.iter().any(|h| h == v) => self.for_viewer(Some(v)),
            _ => self,
        }
    }
}

/// Who the connection is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    /// User id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether a guest.
    pub guest: bool,
    /// Whether a bot account (a program playing with an API token).
    #[serde(default)]
    pub bot: bool,
}

/// Messages from the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "snake_case")]
pub enum ServerMsg {
    /// First message of a connection.
    Hello {
        /// The session's user, none for an anonymous spectator.
        user: Option<UserInfo>,
        /// Server time in Unix milliseconds.
        now: i64,
    },
    /// Answer to `ping`.
    Pong {
        /// Echo of the ping's `n`.
        n: u64,
    },
    /// The full lobby list.
    Lobby {
        /// Every open or live table.
        tables: Vec<TableSummary>,
    },
    /// A table appeared or changed.
    LobbyUpdate(TableSummary),
    /// A table left the lobby (finished or closed).
    LobbyRemove {
        /// Table id.
        table: String,
    },
    /// A table was created at the client's request.
    TableCreated {
        /// Table id.
        table: String,
        /// The invitation of a private table: the link is `/table/{table}?invite={invite}`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// Quick pairing found an opponent; the game has started at this table.
    Paired {
        /// Table id.
        table: String,
    },
    /// A new challenge, sent to both the challenger and the challenged user.
    Challenge(ChallengeView),
    /// Every open challenge made by or to the user (after `lobby_subscribe`).
    Challenges {
        /// Oldest first.
        challenges: Vec<ChallengeView>,
    },
    /// A challenge was accepted: the game has started at this table (both sides).
    ChallengeAccepted {
        /// Challenge id.
        id: String,
        /// Table id.
        table: String,
    },
    /// A challenge ended without a game (both sides).
    ChallengeEnded {
        /// Challenge id.
        id: String,
        /// Why.
        reason: ChallengeEnd,
    },
    /// Full state of a table.
    Table(Box<TableSnapshot>),
    /// One table event.
    Event(EventEnvelope),
    /// A move was accepted and stored.
    Ack {
        /// The move's `ack` id.
        ack: u64,
    },
    /// A request was refused; nothing changed.
    Error {
        /// Stable code.
        code: ErrorCode,
        /// What was wrong.
        message: String,
        /// The move's `ack` id, if the refused message was a move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<u64>,
    },
}

impl ServerMsg {
    /// An error message from a protocol error.
    pub fn error(e: super::ProtoError, ack: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            code: e.code,
            message: e.message,
            ack,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn into_viewer_withholds_exactly_like_for_viewer() {
        let event = EventEnvelope {
            table: "t".into(),
            v: 3,
            event: TableEvent::RematchLapsed,
            hidden_from: vec!["p0".into()],
        };
        for viewer in [None, Some("p0"), Some("p1")] {
            assert_eq!(
                event.clone().into_viewer(viewer),
                event.for_viewer(viewer),
                "{viewer:?}"
            );
        }
        assert_eq!(
            event.clone().into_viewer(Some("p0")).event,
            TableEvent::Withheld
        );
        assert_eq!(event.clone().into_viewer(None), event);
    }

    #[test]
    fn wire_shape() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"t":"move","d":{"table":"x","path":"m1-m3","ack":7}}"#)
                .unwrap();
        assert_eq!(
            m,
            ClientMsg::Move {
                table: "x".into(),
                path: "m1-m3".into(),
                ack: 7,
                confirm: false
            }
        );
        let p: ClientMsg = serde_json::from_str(r#"{"t":"lobby_subscribe"}"#).unwrap();
        assert_eq!(p, ClientMsg::LobbySubscribe);
        let c: ClientMsg = serde_json::from_str(
            r#"{"t":"create_table","d":{"variant":"classic-3","seats":["me",{"computer":3},"open"]}}"#,
        )
        .unwrap();
        let ClientMsg::CreateTable(c) = c else {
            panic!()
        };
        assert_eq!(
            c.seats,
            vec![SeatRequest::Me, SeatRequest::Computer(3), SeatRequest::Open]
        );
        let s = serde_json::to_string(&ServerMsg::Ack { ack: 3 }).unwrap();
        assert_eq!(s, r#"{"t":"ack","d":{"ack":3}}"#);
        let e = serde_json::to_value(ServerMsg::Event(EventEnvelope {
            table: "x".into(),
            v: 2,
            event: TableEvent::Vacated { seat: 1 },
            hidden_from: vec!["u".into()],
        }))
        .unwrap();
        assert_eq!(e["d"]["type"], "vacated");
        assert_eq!(e["d"]["v"], 2);
        assert!(e["d"].get("hidden_from").is_none(), "never sent");
        let chat = ServerMsg::Event(EventEnvelope {
            table: "x".into(),
            v: 3,
            event: TableEvent::Chat(ChatLine {
                from: UserInfo {
                    id: "u".into(),
                    name: "ann".into(),
                    guest: false,
                    bot: false,
                },
                text: "hi".into(),
                at: 5,
                spectator: false,
                hidden_from_players: false,
            }),
            hidden_from: Vec::new(),
        });
        let c = serde_json::to_value(chat).unwrap();
        assert_eq!(c["d"]["type"], "chat");
        assert_eq!(c["d"]["from"]["name"], "ann");
        assert_eq!(c["d"]["text"], "hi");
        assert_eq!(c["d"]["at"], 5);
        let m: ClientMsg =
            serde_json::from_str(r#"{"t":"chat","d":{"table":"x","text":"hello"}}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Chat {
                table: "x".into(),
                text: "hello".into()
            }
        );
    }
}
