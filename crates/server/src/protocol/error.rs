//! Protocol errors: a stable code for programs and a message for people.

use serde::{Deserialize, Serialize};

/// Every error code the server sends in an `error` message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not `{"t": ..., "d": ...}`, or a field of the wrong type.
    BadMessage,
    /// A `t` the server does not know.
    UnknownType,
    /// A text frame longer than the limit.
    TooLarge,
    /// Too many messages too fast; the message was dropped.
    RateLimited,
    /// The action needs a session (log in or play as a guest).
    NotLoggedIn,
    /// No table has this id.
    NoSuchTable,
    /// The variant id is unknown.
    BadVariant,
    /// The time control is out of range.
    BadTimeControl,
    /// The seat list does not fit the variant.
    BadSeats,
    /// Guests and computers may not play rated games.
    RatedNeedsAccounts,
    /// The player already holds the most open tables allowed (created or seated at).
    TooManyTables,
    /// The player already created the most tables with computer seats allowed.
    TooManyComputerTables,
    /// The seat is already taken.
    SeatTaken,
    /// The player already sits at this table.
    AlreadySeated,
    /// The player does not sit at this table.
    NotSeated,
    /// The game has started; seats can no longer change.
    AlreadyStarted,
    /// The game has not started yet.
    NotStarted,
    /// It is another seat's turn.
    NotYourTurn,
    /// The move starts on a hole without a marble of the player to move.
    NotYourMarble,
    /// The move breaks a rule (the message says which).
    IllegalMove,
    /// The move is not written as holes joined by hyphens.
    BadMove,
    /// The move would eliminate its player; send it again with `"confirm": true`.
    ConfirmRequired,
    /// The game is over.
    GameOver,
    /// The player has already finished (arrived or been eliminated) and can no longer
    /// act in the game, e.g. resign.
    NotInGame,
    /// The table is private and the request carried no valid invitation.
    InvitationRequired,
    /// Every seat has made its first move: the game can no longer be aborted.
    TooLateToAbort,
    /// The win cannot be claimed: the opponent is present, or not away long enough,
    /// or the table has more than 2 players.
    CannotClaim,
    /// The game is not over yet (a rematch needs a finished game).
    NotFinished,
    /// The rematch of this table has started already, or lapsed.
    RematchOver,
    /// A chat line that is empty or longer than 280 characters.
    BadChat,
    /// The table's chat holds as many lines as it may.
    ChatFull,
    /// A bot tried to sit at a table that does not invite bots.
    BotsNotInvited,
    /// No account has this name.
    NoSuchUser,
    /// This user cannot be challenged now: yourself, a guest, someone not connected,
    /// or someone you already challenged.
    CannotChallenge,
    /// The challenger already has the most open challenges allowed, or the challenged
    /// user has as many waiting as they may.
    TooManyChallenges,
    /// No open challenge with this id is addressed to (or made by) you: it was
    /// answered, taken back or has expired.
    NoSuchChallenge,
    /// The server could not store the action; nothing changed.
    Storage,
    /// The server is shutting the table down.
    Unavailable,
    /// The session of the connection ended (logout, a new login, expiry); the server
    /// closes the connection after this.
    SessionEnded,
}

/// An error answer to one client message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ProtoError {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong, for people.
    pub message: String,
}

impl ProtoError {
    /// An error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtoError {
            code,
            message: message.into(),
        }
    }
}
