//! Challenges between accounts connected to different nodes.
//!
//! - Who is online: each node keeps, per account connected to it, its node id in the
//!   Redis sorted set `stella:online:USER` with an expiry time as score, refreshed
//!   every [`REFRESH_EVERY`] and removed when the account's last connection here
//!   leaves; a node that dies stops refreshing and its entries lapse after
//!   [`ONLINE_TTL_MS`].
//! - Every message about a challenge goes to every node (channel `stella:challenges`),
//!   which delivers it to its connections of the accounts named and keeps a copy of
//!   the challenges other nodes hold.
//! - A challenge is held by the node of the connection that made it; accepting,
//!   declining or taking it back on another node is carried out there (on the node's
//!   channel `stella:challenges:node:ID`), and the answer comes back.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::bus::{next_message, Bus, BusError};
use super::routing::WireError;
use crate::challenge::Relayed;
use crate::protocol::{ErrorCode, ProtoError, ServerMsg, UserInfo};
use crate::state::AppState;

/// The bus channel of messages about challenges, heard by every node.
const CHANNEL: &str = "stella:challenges";
/// How long a node's mark that an account is connected to it lasts unrefreshed.
pub const ONLINE_TTL_MS: i64 = 15_000;
/// How often a node refreshes the marks of the accounts connected to it.
pub const REFRESH_EVERY: Duration = Duration::from_secs(5);
/// How long a node waits for the node holding a challenge to answer.
const ACT_TIMEOUT: Duration = Duration::from_secs(5);
/// Messages and presence changes waiting to go out.
const QUEUE: usize = 4096;

/// An answer to a challenge, carried out by the node holding it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Act {
    /// The challenged user accepts.
    Accept {
        /// Who.
        user: UserInfo,
    },
    /// The challenged user declines.
    Decline {
        /// Who.
        user_id: String,
    },
    /// The challenger takes it back.
    Cancel {
        /// Who.
        user_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "w", rename_all = "snake_case")]
enum Wire {
    /// A message about a challenge held by node `from`, for every connection of `users`.
    Tell {
        from: String,
        users: Vec<String>,
        msg: Box<ServerMsg>,
    },
    /// Carry out `act` on challenge `challenge`, held by the node addressed.
    Act {
        id: u64,
        from: String,
        challenge: String,
        act: Act,
    },
    /// The answer to request `id`: the table of an accepted challenge.
    Done {
        id: u64,
        result: Result<Option<String>, WireError>,
    },
}

type Pending = oneshot::Sender<Result<Option<String>, ProtoError>>;

/// This node's part in the challenges of a cluster.
#[derive(Debug)]
pub struct ClusterChallenges {
    bus: Bus,
    node: String,
    pending: Mutex<HashMap<u64, Pending>>,
    next_id: AtomicU64,
}

fn node_channel(node: &str) -> String {
    format!("stella:challenges:node:{node}")
}

fn online_key(user_id: &str) -> String {
    format!("stella:online:{user_id}")
}

fn unavailable(why: impl std::fmt::Display) -> ProtoError {
    ProtoError::new(
        ErrorCode::Unavailable,
        format!("challenges cannot reach the other servers now ({why}); try again"),
    )
}

impl ClusterChallenges {
    /// Starts relaying the challenges of `state`, on node `node` of the cluster on
    /// `bus`, and the presence of its accounts.
    pub async fn start(bus: Bus, node: String, state: AppState) -> Result<Arc<Self>, BusError> {
        let mut heard = bus.subscribe_ready(CHANNEL).await?;
        let mut mine = bus.subscribe_ready(&node_channel(&node)).await?;
        let (tx, mut relayed) = mpsc::channel::<Relayed>(QUEUE);
        let this = Arc::new(ClusterChallenges {
            bus: bus.clone(),
            node: node.clone(),
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        });
        let me = this.clone();
        let mut shutdown = state.deps.shutdown.clone();
        state.challenges.relay_to(tx);
        tokio::spawn(async move {
            let mut refresh = tokio::time::interval(REFRESH_EVERY);
            loop {
                tokio::select! {
                    r = relayed.recv() => match r {
                        Some(r) => me.pass_on(&state, r).await,
                        None => break,
                    },
                    w = next_message(&mut heard, "challenge messages") => match w {
                        Some(w) => me.on_heard(&state, w),
                        None => break,
                    },
                    w = next_message(&mut mine, "challenge requests") => match w {
                        Some(w) => me.on_mine(&state, w),
                        None => break,
                    },
                    _ = refresh.tick() => me.refresh(&state).await,
                    _ = shutdown.changed() => break,
                }
            }
            // Marks of this node's accounts lapse on their own; take them off now.
            me.forget_all(&state).await;
        });
        Ok(this)
    }

    async fn publish(&self, channel: &str, wire: &Wire) -> Result<(), BusError> {
        let payload = serde_json::to_vec(wire).expect("challenge messages serialize");
        self.bus.publish(channel, &payload).await
    }

    async fn pass_on(&self, state: &AppState, relayed: Relayed) {
        let done = match relayed {
            Relayed::Tell { users, msg } => {
                let wire = Wire::Tell {
                    from: self.node.clone(),
                    users,
                    msg,
                };
                self.publish(CHANNEL, &wire).await
            }
            Relayed::Online(user) => {
                let until = state.time.now_ms() + ONLINE_TTL_MS;
                let mut pipe = redis::pipe();
                pipe.cmd("ZADD")
                    .arg(online_key(&user))
                    .arg(until)
                    .arg(&self.node)
                    .cmd("PEXPIRE")
                    .arg(online_key(&user))
                    .arg(ONLINE_TTL_MS);
                self.bus.pipeline(&pipe).await
            }
            Relayed::Offline(user) => {
                let mut cmd = redis::cmd("ZREM");
                cmd.arg(online_key(&user)).arg(&self.node);
                self.bus.command::<i64>(&cmd).await.map(|_| ())
            }
        };
        if let Err(e) = done {
            tracing::warn!(error = %e, "could not pass a challenge message on");
        }
    }

    /// Renews the marks of every account connected here.
    async fn refresh(&self, state: &AppState) {
        let users = state.challenges.online_users();
        if users.is_empty() {
            return;
        }
        let until = state.time.now_ms() + ONLINE_TTL_MS;
        let mut pipe = redis::pipe();
        for user in &users {
            pipe.cmd("ZADD")
                .arg(online_key(user))
                .arg(until)
                .arg(&self.node)
                .ignore()
                .cmd("PEXPIRE")
                .arg(online_key(user))
                .arg(ONLINE_TTL_MS)
                .ignore();
        }
        if let Err(e) = self.bus.pipeline(&pipe).await {
            tracing::warn!(error = %e, "could not renew who is online");
        }
    }

    async fn forget_all(&self, state: &AppState) {
        let mut pipe = redis::pipe();
        for user in state.challenges.online_users() {
            pipe.cmd("ZREM")
                .arg(online_key(&user))
                .arg(&self.node)
                .ignore();
        }
        let _ = self.bus.pipeline(&pipe).await;
    }

    fn on_heard(&self, state: &AppState, wire: Wire) {
        match wire {
            Wire::Tell { from, users, msg } if from != self.node => {
                let users: Vec<&str> = users.iter().map(String::as_str).collect();
                state
                    .challenges
                    .heard(&from, &users, *msg, state.time.now_ms());
            }
            _ => {}
        }
    }

    fn on_mine(self: &Arc<Self>, state: &AppState, wire: Wire) {
        match wire {
            Wire::Act {
                id,
                from,
                challenge,
                act,
            } => {
                let (me, state) = (self.clone(), state.clone());
                tokio::spawn(async move {
                    let result = carry_out(&state, &challenge, act)
                        .await
                        .map_err(|e| WireError {
                            code: e.code,
                            message: e.message,
                        });
                    let wire = Wire::Done { id, result };
                    if let Err(e) = me.publish(&node_channel(&from), &wire).await {
                        tracing::warn!(error = %e, "could not answer a challenge request");
                    }
                });
            }
            Wire::Done { id, result } => {
                let waiter = self.pending.lock().expect("challenges lock").remove(&id);
                if let Some(waiter) = waiter {
                    let _ = waiter.send(result.map_err(|e| ProtoError::new(e.code, e.message)));
                }
            }
            Wire::Tell { .. } => {}
        }
    }

    /// Whether `user_id` is connected to any node (this one included).
    pub async fn is_online(&self, now: i64, user_id: &str) -> Result<bool, ProtoError> {
        let mut cmd = redis::cmd("ZCOUNT");
        cmd.arg(online_key(user_id)).arg(now).arg("+inf");
        let n = self.bus.command::<i64>(&cmd).await.map_err(unavailable)?;
        Ok(n > 0)
    }

    /// Has `node`, which holds challenge `challenge`, carry out `act`: the table of an
    /// accepted challenge.
    pub async fn act(
        &self,
        node: &str,
        challenge: &str,
        act: Act,
    ) -> Result<Option<String>, ProtoError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending.lock().expect("challenges lock").insert(id, tx);
        let wire = Wire::Act {
            id,
            from: self.node.clone(),
            challenge: challenge.to_owned(),
            act,
        };
        let outcome = match self.publish(&node_channel(node), &wire).await {
            Ok(()) => match tokio::time::timeout(ACT_TIMEOUT, rx).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(_)) => Err(unavailable("the relay stopped")),
                Err(_) => Err(unavailable("the server holding it did not answer")),
            },
            Err(e) => Err(unavailable(e)),
        };
        self.pending.lock().expect("challenges lock").remove(&id);
        outcome
    }
}

/// Carries out `act` on a challenge held here.
async fn carry_out(
    state: &AppState,
    challenge: &str,
    act: Act,
) -> Result<Option<String>, ProtoError> {
    match act {
        Act::Accept { user } => crate::challenge::accept_here(state, &user, challenge)
            .await
            .map(Some),
        Act::Decline { user_id } => state.challenges.decline(challenge, &user_id).map(|_| None),
        Act::Cancel { user_id } => state.challenges.cancel(challenge, &user_id).map(|_| None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_keep_their_form_on_the_wire() {
        let wire = Wire::Act {
            id: 3,
            from: "n1".into(),
            challenge: "c".into(),
            act: Act::Decline {
                user_id: "u".into(),
            },
        };
        let bytes = serde_json::to_vec(&wire).unwrap();
        assert_eq!(serde_json::from_slice::<Wire>(&bytes).unwrap(), wire);
        let done = Wire::Done {
            id: 3,
            result: Err(WireError {
                code: ErrorCode::NoSuchChallenge,
                message: "gone".into(),
            }),
        };
        let bytes = serde_json::to_vec(&done).unwrap();
        assert_eq!(serde_json::from_slice::<Wire>(&bytes).unwrap(), done);
    }
}
