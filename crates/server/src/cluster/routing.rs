//! Commands to the node that runs a table, answers back, and table events to every node.
//!
//! Each node listens on its own bus channel (`stella:node:ID`) for requests and for the
//! answers to its own requests. Every event of a table a node runs is published on the
//! table's channel (`stella:table:ID`) with its version number; a node whose clients
//! watch a table run elsewhere subscribes to that channel first, then asks the owner for
//! what the client missed, so nothing falls between the two, and it fills any gap in the
//! numbering by asking the owner again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, oneshot};

use super::bus::{next_message, receive, Bus, Received};
use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, EventEnvelope, ProtoError, TableSnapshot, UserInfo};
use crate::table::{TableHandle, WatchReply};

/// How long a node waits for the owner of a table to answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// How often a remote watch that receives nothing checks whether anyone still reads
/// it (a quiet or finished table), to let its bus subscription go.
const WATCHER_CHECK: Duration = Duration::from_secs(10);

/// A table command as it travels to the owner of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum RemoteCommand {
    /// Sit down.
    Join {
        /// Who.
        user: UserInfo,
        /// Which seat.
        seat: Option<usize>,
        /// The invitation of a private table.
        invite: Option<String>,
    },
    /// Leave a seat.
    Leave {
        /// Who.
        user_id: String,
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
    },
    /// Resign.
    Resign {
        /// Who.
        user_id: String,
    },
    /// Claim the win over an absent opponent.
    ClaimWin {
        /// Who.
        user_id: String,
    },
    /// Call the game off.
    Abort {
        /// Who.
        user_id: String,
    },
    /// Ask for or accept a rematch.
    Rematch {
        /// Who.
        user_id: String,
    },
    /// Say something in the chat.
    Chat {
        /// Who.
        user: UserInfo,
        /// The text.
        text: String,
    },
    /// What a watcher missed since `since`, or a snapshot.
    Watch {
        /// The last version the client has.
        since: Option<u64>,
        /// Who watches.
        viewer: Option<String>,
        /// The invitation of a private table.
        invite: Option<String>,
    },
    /// A connection of `user_id` came to or left the table.
    Presence {
        /// Who.
        user_id: String,
        /// Came or left.
        here: bool,
    },
}

/// An event as it travels between nodes: with the users it is hidden from, which the
/// client format leaves out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct WireEvent {
    envelope: EventEnvelope,
    hidden_from: Vec<String>,
}

impl WireEvent {
    fn from_envelope(envelope: EventEnvelope) -> Self {
        let hidden_from = envelope.hidden_from.clone();
        WireEvent {
            envelope,
            hidden_from,
        }
    }

    fn into_envelope(self) -> EventEnvelope {
        let mut e = self.envelope;
        e.hidden_from = self.hidden_from;
        e
    }
}

/// The owner's answer to a [`RemoteCommand`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum RemoteAnswer {
    Done,
    Watched {
        snapshot: Option<Box<TableSnapshot>>,
        events: Vec<WireEvent>,
    },
}

/// A refusal as it travels back to the node that asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WireError {
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "w", rename_all = "snake_case")]
enum Wire {
    Request {
        id: u64,
        from: String,
        table: String,
        command: RemoteCommand,
    },
    Reply {
        id: u64,
        answer: Result<RemoteAnswer, WireError>,
    },
}

type Pending = oneshot::Sender<Result<RemoteAnswer, ProtoError>>;

/// The bus channel of a node.
pub fn node_channel(node: &str) -> String {
    format!("stella:node:{node}")
}

/// The bus channel of a table's events.
pub fn table_channel(table: &str) -> String {
    format!("stella:table:{table}")
}

fn unavailable(why: impl std::fmt::Display) -> ProtoError {
    ProtoError::new(
        ErrorCode::Unavailable,
        format!("the table cannot be reached now ({why}); try again"),
    )
}

/// One node's end of the routing: sends requests, answers those for its own tables,
/// relays its tables' events.
#[derive(Debug)]
pub struct Router {
    bus: Bus,
    node: String,
    lobby: Arc<Lobby>,
    pending: Mutex<HashMap<u64, Pending>>,
    next_id: AtomicU64,
}

impl Router {
    /// Starts listening on this node's channel; local tables are found in `lobby`.
    pub async fn start(
        bus: Bus,
        node: impl Into<String>,
        lobby: Arc<Lobby>,
    ) -> Result<Arc<Router>, ProtoError> {
        let node = node.into();
        let mut rx = bus
            .subscribe_ready(&node_channel(&node))
            .await
            .map_err(unavailable)?;
        let router = Arc::new(Router {
            bus,
            node,
            lobby,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        });
        let weak = Arc::downgrade(&router);
        tokio::spawn(async move {
            loop {
                let Some(wire) = next_message(&mut rx, "node channel messages").await else {
                    break;
                };
                let Some(router) = weak.upgrade() else { break };
                match wire {
                    Wire::Request {
                        id,
                        from,
                        table,
                        command,
                    } => {
                        tokio::spawn(async move {
                            router.answer(id, &from, &table, command).await;
                        });
                    }
                    Wire::Reply { id, answer } => {
                        let waiter = router.pending.lock().expect("router lock").remove(&id);
                        if let Some(waiter) = waiter {
                            let _ =
                                waiter.send(answer.map_err(|e| ProtoError::new(e.code, e.message)));
                        }
                    }
                }
            }
        });
        Ok(router)
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    async fn answer(&self, id: u64, from: &str, table: &str, command: RemoteCommand) {
        let answer = match self.lobby.get(table) {
            Some(handle) => dispatch(&handle, command).await,
            None => Err(unavailable("the table is not run here any more")),
        };
        let reply = Wire::Reply {
            id,
            answer: answer.map_err(|e| WireError {
                code: e.code,
                message: e.message,
            }),
        };
        let payload = serde_json::to_vec(&reply).expect("replies serialize");
        if let Err(e) = self.bus.publish(&node_channel(from), &payload).await {
            tracing::warn!(error = %e, "could not answer a remote request");
        }
    }

    async fn request(
        &self,
        owner: &str,
        table: &str,
        command: RemoteCommand,
    ) -> Result<RemoteAnswer, ProtoError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending.lock().expect("router lock").insert(id, tx);
        let wire = Wire::Request {
            id,
            from: self.node.clone(),
            table: table.to_owned(),
            command,
        };
        let payload = serde_json::to_vec(&wire).expect("requests serialize");
        let outcome = match self.bus.publish(&node_channel(owner), &payload).await {
            Ok(()) => match tokio::time::timeout(REQUEST_TIMEOUT, rx).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(_)) => Err(unavailable("the router stopped")),
                Err(_) => Err(unavailable("the node running it did not answer")),
            },
            Err(e) => Err(unavailable(e)),
        };
        self.pending.lock().expect("router lock").remove(&id);
        outcome
    }

    /// Sends `command` to `owner`, the node that runs `table`.
    pub async fn send(
        &self,
        owner: &str,
        table: &str,
        command: RemoteCommand,
    ) -> Result<(), ProtoError> {
        self.request(owner, table, command).await.map(|_| ())
    }

    /// Publishes every later event of a local table on its bus channel, in order, until
    /// the table's task ends.
    pub async fn relay_events(&self, handle: &TableHandle) -> Result<(), ProtoError> {
        let mut rx = handle.subscribe().await?;
        let bus = self.bus.clone();
        let channel = table_channel(&handle.id);
        tokio::spawn(async move {
            loop {
                match rx.recv().await {
                    Ok(e) => {
                        let payload = serde_json::to_vec(&WireEvent::from_envelope(e))
                            .expect("events serialize");
                        if let Err(e) = bus.publish(&channel, &payload).await {
                            // Watchers elsewhere see the gap in the numbering and
                            // ask the owner for what they missed.
                            tracing::warn!(error = %e, %channel, "could not publish a table event");
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, %channel, "event relay fell behind");
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        Ok(())
    }

    /// Follows `table`, run by `owner`, from version `since`: like
    /// [`TableHandle::watch`], with later events coming over the bus.
    pub async fn watch(
        self: &Arc<Self>,
        owner: &str,
        table: &str,
        since: Option<u64>,
        viewer: Option<String>,
        invite: Option<String>,
    ) -> Result<WatchReply, ProtoError> {
        let channel = table_channel(table);
        let mut bus_rx = self
            .bus
            .subscribe_ready(&channel)
            .await
            .map_err(unavailable)?;
        let command = RemoteCommand::Watch {
            since,
            viewer: viewer.clone(),
            invite: invite.clone(),
        };
        let RemoteAnswer::Watched { snapshot, events } =
            self.request(owner, table, command).await?
        else {
            return Err(unavailable("an unexpected answer"));
        };
        let events: Vec<EventEnvelope> = events.into_iter().map(WireEvent::into_envelope).collect();
        let mut last = match (&snapshot, events.last(), since) {
            (Some(s), _, _) => s.v,
            (None, Some(e), _) => e.v,
            (None, None, since) => since.unwrap_or(0),
        };
        let (tx, receiver) = broadcast::channel(256);
        let router = self.clone();
        let (owner, table) = (owner.to_owned(), table.to_owned());
        tokio::spawn(async move {
            let mut check = tokio::time::interval(WATCHER_CHECK);
            loop {
                let received = tokio::select! {
                    r = receive(&mut bus_rx) => r,
                    _ = check.tick() => {
                        if tx.receiver_count() == 0 {
                            break;
                        }
                        continue;
                    }
                };
                // Missed messages read as an unreadable one: a gap to fill.
                let payload = match received {
                    Some(Received::Message(p)) => p,
                    Some(Received::Missed(_)) => Vec::new(),
                    None => break,
                };
                if tx.receiver_count() == 0 {
                    break;
                }
                let event = serde_json::from_slice::<WireEvent>(&payload)
                    .ok()
                    .map(WireEvent::into_envelope);
                let in_order = event.as_ref().is_some_and(|e| e.v <= last + 1);
                if let (true, Some(e)) = (in_order, event) {
                    if e.v == last + 1 {
                        last = e.v;
                        let _ = tx.send(e);
                    }
                    continue;
                }
                // A gap (or an unreadable message): ask the owner what was missed.
                let command = RemoteCommand::Watch {
                    since: Some(last),
                    viewer: viewer.clone(),
                    invite: invite.clone(),
                };
                match router.request(&owner, &table, command).await {
                    Ok(RemoteAnswer::Watched {
                        snapshot: None,
                        events,
                    }) => {
                        for e in events.into_iter().map(WireEvent::into_envelope) {
                            if e.v == last + 1 {
                                last = e.v;
                                let _ = tx.send(e);
                            }
                        }
                    }
                    // Too far behind for the log: the watcher must start again.
                    _ => break,
                }
            }
            drop(bus_rx);
            router.bus.unsubscribe_if_unused(&channel);
        });
        Ok(WatchReply {
            snapshot: snapshot.map(|s| *s),
            events,
            receiver,
        })
    }
}

/// Carries out a request on a local table.
async fn dispatch(
    handle: &TableHandle,
    command: RemoteCommand,
) -> Result<RemoteAnswer, ProtoError> {
    match command {
        RemoteCommand::Join { user, seat, invite } => handle.join(user, seat, invite).await,
        RemoteCommand::Leave { user_id } => handle.leave(user_id).await,
        RemoteCommand::Move {
            user_id,
            path,
            confirm,
            lag_ms,
        } => handle.play(user_id, path, confirm, lag_ms).await,
        RemoteCommand::Resign { user_id } => handle.resign(user_id).await,
        RemoteCommand::ClaimWin { user_id } => handle.claim_win(user_id).await,
        RemoteCommand::Abort { user_id } => handle.abort(user_id).await,
        RemoteCommand::Rematch { user_id } => handle.rematch(user_id).await,
        RemoteCommand::Chat { user, text } => handle.chat(user, text).await,
        RemoteCommand::Presence { user_id, here } => handle
            .tx
            .send(crate::table::Command::Presence { user_id, here })
            .await
            .map_err(|_| unavailable("the table is closing")),
        RemoteCommand::Watch {
            since,
            viewer,
            invite,
        } => {
            let reply = handle.watch(since, viewer, invite).await?;
            return Ok(RemoteAnswer::Watched {
                snapshot: reply.snapshot.map(Box::new),
                events: reply
                    .events
                    .into_iter()
                    .map(WireEvent::from_envelope)
                    .collect(),
            });
        }
    }
    .map(|()| RemoteAnswer::Done)
}
