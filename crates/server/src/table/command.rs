//! Messages to a table task, and the handle that sends them.

use tokio::sync::{broadcast, mpsc, oneshot};

use stella_engine::Move;

use crate::protocol::{ErrorCode, EventEnvelope, ProtoError, TableSnapshot, UserInfo};

/// The answer to a command: nothing, or why it was refused.
pub type Reply = oneshot::Sender<Result<(), ProtoError>>;

/// What a watcher gets: either the events it missed or a full snapshot, and a receiver
/// for what follows (subscribed at the same moment, so nothing is lost in between).
#[derive(Debug)]
pub struct WatchReply {
    /// A full snapshot, when the client's version could not be served from the log.
    pub snapshot: Option<TableSnapshot>,
    /// The events after the client's version, when it could.
    pub events: Vec<EventEnvelope>,
    /// Every later event.
    pub receiver: broadcast::Receiver<EventEnvelope>,
}

/// A request to a table task.
#[derive(Debug)]
pub enum Command {
    /// Sit down.
    Join {
        /// Who.
        user: UserInfo,
        /// Which seat; the first open one if none.
        seat: Option<usize>,
        /// The invitation of a private table.
        invite: Option<String>,
        /// The answer.
        reply: Reply,
    },
    /// Leave a seat before the start, or a finished table (a rematch offer lapses).
    Leave {
        /// Who.
        user_id: String,
        /// The answer.
        reply: Reply,
    },
    /// Follow the table.
    Watch {
        /// The last version the client has.
        since: Option<u64>,
        /// Who watches (a user id), none for an anonymous connection; decides which
        /// chat lines they see.
        viewer: Option<String>,
        /// The invitation of a private table.
        invite: Option<String>,
        /// The answer.
        reply: oneshot::Sender<Result<WatchReply, ProtoError>>,
    },
    /// Play a move.
    Move {
        /// Who.
        user_id: String,
        /// The path as written.
        path: String,
        /// Confirms an eliminating move.
        confirm: bool,
        /// The connection's estimated one-way lag.
        lag_ms: i64,
        /// The answer.
        reply: Reply,
    },
    /// Resign.
    Resign {
        /// Who.
        user_id: String,
        /// The answer.
        reply: Reply,
    },
    /// A connection of `user_id` started (`here`) or stopped following the table.
    Presence {
        /// Who.
        user_id: String,
        /// Whether the connection came or went.
        here: bool,
    },
    /// Claim the win over an opponent away for long enough.
    ClaimWin {
        /// Who.
        user_id: String,
        /// The answer.
        reply: Reply,
    },
    /// Call the game off before every seat has moved.
    Abort {
        /// Who.
        user_id: String,
        /// The answer.
        reply: Reply,
    },
    /// Ask for or accept a rematch of the finished table.
    Rematch {
        /// Who.
        user_id: String,
        /// The answer.
        reply: Reply,
    },
    /// Say something in the table's chat.
    Chat {
        /// Who.
        user: UserInfo,
        /// The text as sent.
        text: String,
        /// The answer.
        reply: Reply,
    },
    /// Receive every later event as it is broadcast, unfiltered (with the users each
    /// is hidden from): what relays the table's events to other nodes.
    Subscribe {
        /// The answer.
        reply: oneshot::Sender<broadcast::Receiver<EventEnvelope>>,
    },
    /// A computer seat's search failed every attempt for the position after `ply`
    /// moves; the seat plays its fallback move.
    ComputerFailed {
        /// The number of moves played when the choice was asked for.
        ply: usize,
    },
    /// A computer seat's choice, computed off the async threads.
    ComputerMove {
        /// The number of moves played when the choice was asked for.
        ply: usize,
        /// The chosen move.
        mv: Move,
    },
    /// This node's lease of the table lapsed or was taken (its renewal found it gone):
    /// a table still waiting for players closes at once rather than at its next
    /// command, so its people hear of it and its heartbeat stops listing it.
    LeaseLost,
}

impl Command {
    /// Whether answering it may write to the database for the table (seats, moves,
    /// results, chat): what a node that lost the table's lease must no longer do.
    pub(crate) fn writes(&self) -> bool {
        !matches!(
            self,
            Command::Watch { .. }
                | Command::Presence { .. }
                | Command::Subscribe { .. }
                | Command::LeaseLost
        )
    }

    /// Answers the command with `error` without doing it (commands without an answer
    /// are dropped).
    pub(crate) fn refuse(self, error: ProtoError) {
        let reply = match self {
            Command::Join { reply, .. }
            | Command::Leave { reply, .. }
            | Command::Move { reply, .. }
            | Command::Resign { reply, .. }
            | Command::ClaimWin { reply, .. }
            | Command::Abort { reply, .. }
            | Command::Rematch { reply, .. }
            | Command::Chat { reply, .. } => reply,
            Command::Watch { reply, .. } => {
                let _ = reply.send(Err(error));
                return;
            }
            Command::Presence { .. }
            | Command::Subscribe { .. }
            | Command::ComputerFailed { .. }
            | Command::ComputerMove { .. }
            | Command::LeaseLost => return,
        };
        let _ = reply.send(Err(error));
    }
}

/// A cheap handle to a table task.
#[derive(Debug, Clone)]
pub struct TableHandle {
    /// The table id.
    pub id: String,
    /// The task's inbox.
    pub tx: mpsc::Sender<Command>,
}

fn gone() -> ProtoError {
    ProtoError::new(ErrorCode::Unavailable, "the table is closing")
}

/// What a join hears from a table whose task has ended: it can never be joined again.
fn closed() -> ProtoError {
    ProtoError::new(
        ErrorCode::NoSuchTable,
        "this table was closed; create or join another table",
    )
}

impl TableHandle {
    async fn ask(&self, make: impl FnOnce(Reply) -> Command) -> Result<(), ProtoError> {
        self.ask_or(make, gone).await
    }

    /// Asks the task; `ended` is the error when the task has already ended.
    async fn ask_or(
        &self,
        make: impl FnOnce(Reply) -> Command,
        ended: fn() -> ProtoError,
    ) -> Result<(), ProtoError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.map_err(|_| ended())?;
        rx.await.map_err(|_| ended())?
    }

    /// Sits `user` down (`invite`: the invitation of a private table); a table whose
    /// task has ended answers `no_such_table`.
    pub async fn join(
        &self,
        user: UserInfo,
        seat: Option<usize>,
        invite: Option<String>,
    ) -> Result<(), ProtoError> {
        self.ask_or(
            |reply| Command::Join {
                user,
                seat,
                invite,
                reply,
            },
            closed,
        )
        .await
    }

    /// Takes `user_id` out of their seat.
    pub async fn leave(&self, user_id: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Leave { user_id, reply }).await
    }

    /// Plays a move for `user_id`.
    pub async fn play(
        &self,
        user_id: String,
        path: String,
        confirm: bool,
        lag_ms: i64,
    ) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Move {
            user_id,
            path,
            confirm,
            lag_ms,
            reply,
        })
        .await
    }

    /// Resigns for `user_id`.
    pub async fn resign(&self, user_id: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Resign { user_id, reply }).await
    }

    /// Claims the win for `user_id` over an absent opponent.
    pub async fn claim_win(&self, user_id: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::ClaimWin { user_id, reply }).await
    }

    /// Aborts the game for `user_id`.
    pub async fn abort(&self, user_id: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Abort { user_id, reply }).await
    }

    /// Asks for (or accepts) a rematch for `user_id`.
    pub async fn rematch(&self, user_id: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Rematch { user_id, reply }).await
    }

    /// Says `text` in the table's chat as `user`.
    pub async fn chat(&self, user: UserInfo, text: String) -> Result<(), ProtoError> {
        self.ask(|reply| Command::Chat { user, text, reply }).await
    }

    /// Every later event of the table, unfiltered (see [`Command::Subscribe`]).
    pub async fn subscribe(&self) -> Result<broadcast::Receiver<EventEnvelope>, ProtoError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Subscribe { reply })
            .await
            .map_err(|_| gone())?;
        rx.await.map_err(|_| gone())
    }

    /// Tells the task that this node lost the table's lease (see
    /// [`Command::LeaseLost`]); a task already gone needs no telling.
    pub async fn lease_lost(&self) {
        let _ = self.tx.send(Command::LeaseLost).await;
    }

    /// Follows the table as a player about to join it: as [`watch`](Self::watch), but
    /// a table whose task has ended answers `no_such_table`, as the join itself would,
    /// rather than the `unavailable` that tells a watcher to try again.
    pub async fn watch_to_join(
        &self,
        viewer: Option<String>,
        invite: Option<String>,
    ) -> Result<WatchReply, ProtoError> {
        self.watch_or(None, viewer, invite, closed).await
    }

    /// Follows the table from version `since`, as `viewer` (a user id) sees it
    /// (`invite`: the invitation of a private table).
    pub async fn watch(
        &self,
        since: Option<u64>,
        viewer: Option<String>,
        invite: Option<String>,
    ) -> Result<WatchReply, ProtoError> {
        self.watch_or(since, viewer, invite, gone).await
    }

    /// Asks the task for a watch; `ended` is the error when the task has already ended.
    async fn watch_or(
        &self,
        since: Option<u64>,
        viewer: Option<String>,
        invite: Option<String>,
        ended: fn() -> ProtoError,
    ) -> Result<WatchReply, ProtoError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Watch {
                since,
                viewer,
                invite,
                reply,
            })
            .await
            .map_err(|_| ended())?;
        rx.await.map_err(|_| ended())?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_join_to_an_ended_table_task_says_the_table_is_closed() {
        let (tx, rx) = mpsc::channel(1);
        drop(rx);
        let handle = TableHandle {
            id: "t1".into(),
            tx,
        };
        let user = UserInfo {
            id: "u1".into(),
            name: "ana".into(),
            guest: true,
            bot: false,
        };
        let joined = handle.join(user, None, None).await.unwrap_err();
        assert_eq!(joined.code, ErrorCode::NoSuchTable);
        // Other commands hear that the table is closing: a live table's task ends when
        // another node takes it over, and the client is to try again there.
        let played = handle.play("u1".into(), "a1-a2".into(), false, 0).await;
        assert_eq!(played.unwrap_err().code, ErrorCode::Unavailable);
        // A watch ahead of a join hears the same as the join; a plain watch is told to
        // try again.
        let before_join = handle.watch_to_join(None, None).await.unwrap_err();
        assert_eq!(before_join.code, ErrorCode::NoSuchTable);
        let watched = handle.watch(None, None, None).await.unwrap_err();
        assert_eq!(watched.code, ErrorCode::Unavailable);
    }
}
