//! A [`TableHandle`] for a table another node runs: the commands sent to it travel over
//! the bus, so the WebSocket code treats local and remote tables alike.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::routing::{RemoteCommand, Router};
use crate::table::{Command, TableHandle};

/// Commands that may wait for the proxy at once.
const INBOX: usize = 64;

/// A handle whose commands `router` sends to `owner`, the node running `table`. Its
/// task ends when the last clone of the handle is dropped.
pub fn remote_handle(router: Arc<Router>, owner: String, table: String) -> TableHandle {
    let (tx, mut rx) = mpsc::channel(INBOX);
    let id = table.clone();
    tokio::spawn(async move {
        while let Some(cmd) = rx.recv().await {
            forward(&router, &owner, &table, cmd).await;
        }
    });
    TableHandle { id, tx }
}

async fn forward(router: &Arc<Router>, owner: &str, table: &str, cmd: Command) {
    let (remote, reply) = match cmd {
        Command::Join {
            user,
            seat,
            invite,
            reply,
        } => (RemoteCommand::Join { user, seat, invite }, reply),
        Command::Leave { user_id, reply } => (RemoteCommand::Leave { user_id }, reply),
        Command::Move {
            user_id,
            path,
            confirm,
            lag_ms,
            reply,
        } => (
            RemoteCommand::Move {
                user_id,
                path,
                confirm,
                lag_ms,
            },
            reply,
        ),
        Command::Resign { user_id, reply } => (RemoteCommand::Resign { user_id }, reply),
        Command::ClaimWin { user_id, reply } => (RemoteCommand::ClaimWin { user_id }, reply),
        Command::Abort { user_id, reply } => (RemoteCommand::Abort { user_id }, reply),
        Command::Rematch { user_id, reply } => (RemoteCommand::Rematch { user_id }, reply),
        Command::Chat { user, text, reply } => (RemoteCommand::Chat { user, text }, reply),
        Command::Watch {
            since,
            viewer,
            invite,
            reply,
        } => {
            let answer = router.watch(owner, table, since, viewer, invite).await;
            let _ = reply.send(answer);
            return;
        }
        Command::Presence { user_id, here } => {
            let presence = RemoteCommand::Presence { user_id, here };
            if let Err(e) = router.send(owner, table, presence).await {
                tracing::debug!(error = %e, table, "presence not delivered");
            }
            return;
        }
        // Only the node running the table relays or computes for it.
        Command::Subscribe { .. }
        | Command::ComputerMove { .. }
        | Command::ComputerFailed { .. }
        | Command::LeaseLost => return,
    };
    let _ = reply.send(router.send(owner, table, remote).await);
}
