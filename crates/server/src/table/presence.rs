//! A connection's presence at a table: the table counts, per seated user, the
//! connections following it, so it knows when a player has gone away.

use tokio::sync::mpsc;

use super::command::Command;

/// Held while a connection of a logged-in user follows a table: announces the
/// connection when made and its end when dropped.
#[derive(Debug)]
pub struct Presence {
    tx: mpsc::Sender<Command>,
    user_id: String,
}

impl Presence {
    /// Announces a connection of `user_id` to the table behind `tx`.
    pub fn new(tx: mpsc::Sender<Command>, user_id: String) -> Self {
        let p = Presence { tx, user_id };
        p.tell(true);
        p
    }

    fn tell(&self, here: bool) {
        let cmd = Command::Presence {
            user_id: self.user_id.clone(),
            here,
        };
        // In order when the inbox has room; otherwise queued by a task, so the
        // count stays balanced.
        if let Err(mpsc::error::TrySendError::Full(cmd)) = self.tx.try_send(cmd) {
            let tx = self.tx.clone();
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    let _ = tx.send(cmd).await;
                });
            }
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        self.tell(false);
    }
}
