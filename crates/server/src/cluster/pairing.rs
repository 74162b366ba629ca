//! Quick pairing across the nodes of a cluster.
//!
//! The queue of each time control is a Redis list of waiting requests, each naming the
//! node and connection it came from. A newcomer runs one Lua script that atomically
//! pops the oldest request of another user, or, when there is none, appends its own:
//! Redis runs scripts one at a time, so a waiting request is taken by exactly one
//! newcomer. The newcomer's node then *claims* the popped request from the node that
//! holds its connection (over the bus); that node gives it up only if the connection
//! is still waiting with that very request, so a player who cancelled, asked again or
//! left is never seated. A refused or unanswered claim (a dead node) drops the request
//! and the newcomer tries the queue again. After a claim the newcomer's node creates
//! the table and tells the waiting player's node, which sends `paired` to the
//! connection.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use super::bus::{next_message, Bus, BusError};
use crate::ids::random_id;
use crate::protocol::{ErrorCode, ProtoError, ServerMsg, UserInfo};
use crate::table::{create_table, TableDeps, TimeControl};

/// How long a node waits for another to give up a waiting request.
const CLAIM_TIMEOUT: Duration = Duration::from_secs(2);
/// Requests one newcomer may pop before giving up (each failed claim drops a stale
/// request, so the queue is cleaned as it goes).
const MAX_CLAIMS: usize = 16;
/// How long a queue and a user's pointer to their request live in Redis without a new
/// request: a day, so that requests of nodes that all died do not stay for ever.
const QUEUE_TTL_MS: u64 = 86_400_000;
/// How often a node checks that the requests of its waiting connections are still in
/// Redis (a Redis restart loses them, a claimer may die between pop and claim).
const REASSERT_EVERY: Duration = Duration::from_secs(3);
/// How long a claimed request waits to hear how it ended (its claimer may die).
const CLAIMED_FOR: Duration = Duration::from_secs(30);

/// Pops the oldest waiting request of another user (returned), or appends this one.
/// KEYS: the queue, the newcomer's pointer. ARGV: the request, the user id, the TTL.
/// The pointer (`queue\nrequest`) names the user's latest request, wherever it
/// waits: an earlier one is taken out of its queue, so that a user waits at most
/// once, and is known to be over (see [`REASSERT`]).
const POP_OR_PUSH: &str = r#"
local prev = redis.call('GET', KEYS[2])
if prev then
  local sep = string.find(prev, '\n', 1, true)
  if sep then
    redis.call('LREM', string.sub(prev, 1, sep - 1), 0, string.sub(prev, sep + 1))
  end
end
redis.call('SET', KEYS[2], KEYS[1] .. '\n' .. ARGV[1], 'PX', ARGV[3])
while true do
  local head = redis.call('LPOP', KEYS[1])
  if not head then break end
  local ok, e = pcall(cjson.decode, head)
  if ok and type(e) == 'table' and type(e.user) == 'table' and e.user.id ~= ARGV[2] then
    return head
  end
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return false
"#;

/// Puts a waiting request back in its queue when it is missing there. KEYS: the
/// queue, the user's pointer. ARGV: the request, the TTL. Answers -1 when the user has
/// made another request since (this one is over), 1 when it was put back, 0 when it
/// was there. A request popped by a newcomer whose claim is on its way may be put back
/// too: whoever pops it again finds it given up and drops it.
const REASSERT: &str = r#"
local mine = KEYS[1] .. '\n' .. ARGV[1]
local ptr = redis.call('GET', KEYS[2])
if ptr and ptr ~= mine then return -1 end
if redis.call('LPOS', KEYS[1], ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], mine, 'PX', ARGV[2])
return 1
"#;

/// A waiting request as it is stored in the queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    node: String,
    conn: u64,
    user: UserInfo,
    /// Names this one request (a connection asking again makes a new one).
    ticket: String,
}

/// Messages between the pairing parts of two nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "p", rename_all = "snake_case")]
enum Wire {
    /// Give up request `ticket` of connection `conn` to node `from`.
    Claim {
        id: u64,
        from: String,
        conn: u64,
        ticket: String,
    },
    /// The answer to claim `id`.
    Answer { id: u64, ok: bool },
    /// Send `msg` to the connection whose request `ticket` was claimed.
    Deliver { ticket: String, msg: ServerMsg },
}

/// A request of a connection of this node, waiting in Redis.
#[derive(Debug)]
struct Local {
    ticket: String,
    queue: String,
    entry: String,
    user_id: String,
    out: mpsc::Sender<ServerMsg>,
}

/// This node's part in the shared quick pairing queue.
#[derive(Debug)]
pub struct ClusterPairing {
    bus: Bus,
    node: String,
    /// The connections of this node waiting in the queue.
    waiting: Mutex<HashMap<u64, Local>>,
    /// Requests claimed by some node, waiting for their table, by ticket.
    claimed: Mutex<HashMap<String, mpsc::Sender<ServerMsg>>>,
    /// Claims this node made, waiting for their answer.
    pending: Mutex<HashMap<u64, oneshot::Sender<bool>>>,
    next_id: AtomicU64,
}

/// The bus channel of a node's pairing messages.
fn channel(node: &str) -> String {
    format!("stella:pairing:node:{node}")
}

/// The Redis list of the requests waiting for time control `control`.
fn queue_key(control: TimeControl) -> String {
    format!(
        "stella:pairing:queue:{}+{}",
        control.reserve_ms, control.increment_ms
    )
}

/// The Redis key pointing at the request `user_id` has waiting.
fn user_key(user_id: &str) -> String {
    format!("stella:pairing:user:{user_id}")
}

fn unavailable(e: BusError) -> ProtoError {
    ProtoError::new(
        ErrorCode::Unavailable,
        format!("quick pairing is unavailable now ({e}); try again"),
    )
}

impl ClusterPairing {
    /// Starts listening for other nodes' claims and deliveries on the bus, and
    /// checking that the requests of this node's connections stay queued, until
    /// `shutdown`.
    pub async fn start(
        bus: Bus,
        node: impl Into<String>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, BusError> {
        let node = node.into();
        let mut rx = bus.subscribe_ready(&channel(&node)).await?;
        let pairing = Arc::new(ClusterPairing {
            bus,
            node,
            waiting: Mutex::new(HashMap::new()),
            claimed: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        });
        let weak = Arc::downgrade(&pairing);
        tokio::spawn(async move {
            loop {
                let Some(wire) = next_message(&mut rx, "pairing messages").await else {
                    break;
                };
                let Some(pairing) = weak.upgrade() else { break };
                pairing.on_wire(wire).await;
            }
        });
        let weak = Arc::downgrade(&pairing);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(REASSERT_EVERY);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    _ = shutdown.changed() => break,
                }
                let Some(pairing) = weak.upgrade() else { break };
                pairing.reassert().await;
            }
        });
        Ok(pairing)
    }

    /// Puts the requests of this node's waiting connections back in their queues where
    /// they went missing, and forgets those replaced by a newer request of their user.
    async fn reassert(&self) {
        let snapshot: Vec<(u64, String, String, String, String)> = self
            .waiting
            .lock()
            .expect("pairing lock")
            .iter()
            .map(|(conn, l)| {
                let ticket = l.ticket.clone();
                (
                    *conn,
                    ticket,
                    l.queue.clone(),
                    l.entry.clone(),
                    l.user_id.clone(),
                )
            })
            .collect();
        for (conn, ticket, queue, entry, user_id) in snapshot {
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(REASSERT)
                .arg(2)
                .arg(&queue)
                .arg(user_key(&user_id))
                .arg(&entry)
                .arg(QUEUE_TTL_MS);
            match self.bus.command::<i64>(&cmd).await {
                Ok(-1) => self.forget(conn, &ticket),
                Ok(1) => tracing::info!(conn, "put a quick pairing request back in its queue"),
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "could not check the quick pairing queue");
                    return;
                }
            }
        }
    }

    async fn on_wire(self: &Arc<Self>, wire: Wire) {
        match wire {
            Wire::Claim {
                id,
                from,
                conn,
                ticket,
            } => {
                let ok = self.give_up(conn, &ticket);
                self.send(&from, &Wire::Answer { id, ok }).await;
            }
            Wire::Answer { id, ok } => {
                let waiter = self.pending.lock().expect("pairing lock").remove(&id);
                if let Some(waiter) = waiter {
                    let _ = waiter.send(ok);
                }
            }
            Wire::Deliver { ticket, msg } => self.deliver_here(&ticket, msg).await,
        }
    }

    async fn send(&self, node: &str, wire: &Wire) {
        let payload = serde_json::to_vec(wire).expect("pairing messages serialize");
        if let Err(e) = self.bus.publish(&channel(node), &payload).await {
            tracing::warn!(error = %e, "could not send a pairing message");
        }
    }

    /// Gives up the request `ticket` of local connection `conn` to a claimer: true
    /// when the connection is still here, waiting with that request. Should the
    /// claimer never say how it ended (it died), the connection is told after
    /// [`CLAIMED_FOR`] to ask again.
    fn give_up(self: &Arc<Self>, conn: u64, ticket: &str) -> bool {
        let mut waiting = self.waiting.lock().expect("pairing lock");
        let current = waiting
            .get(&conn)
            .is_some_and(|l| l.ticket == ticket && !l.out.is_closed());
        if !current {
            return false;
        }
        let local = waiting.remove(&conn).expect("present");
        drop(waiting);
        self.claimed
            .lock()
            .expect("pairing lock")
            .insert(local.ticket.clone(), local.out);
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            tokio::time::sleep(CLAIMED_FOR).await;
            if let Some(pairing) = weak.upgrade() {
                let lost = ProtoError::new(
                    ErrorCode::Unavailable,
                    "the server pairing you stopped before the game started; ask again",
                );
                pairing
                    .deliver_here(&local.ticket, ServerMsg::error(lost, None))
                    .await;
            }
        });
        true
    }

    /// Sends `msg` to the local connection whose request `ticket` was claimed.
    async fn deliver_here(&self, ticket: &str, msg: ServerMsg) {
        let out = self.claimed.lock().expect("pairing lock").remove(ticket);
        if let Some(out) = out {
            let _ = out.send(msg).await;
        }
    }

    /// Sends `msg` to the connection of `entry`, on whichever node it is.
    async fn deliver(&self, entry: &Entry, msg: ServerMsg) {
        if entry.node == self.node {
            self.deliver_here(&entry.ticket, msg).await;
        } else {
            let wire = Wire::Deliver {
                ticket: entry.ticket.clone(),
                msg,
            };
            self.send(&entry.node, &wire).await;
        }
    }

    /// Claims the waiting request `entry` from its node: true when it was given up.
    async fn claim(self: &Arc<Self>, entry: &Entry) -> bool {
        if entry.node == self.node {
            return self.give_up(entry.conn, &entry.ticket);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending.lock().expect("pairing lock").insert(id, tx);
        let wire = Wire::Claim {
            id,
            from: self.node.clone(),
            conn: entry.conn,
            ticket: entry.ticket.clone(),
        };
        self.send(&entry.node, &wire).await;
        let ok = matches!(tokio::time::timeout(CLAIM_TIMEOUT, rx).await, Ok(Ok(true)));
        self.pending.lock().expect("pairing lock").remove(&id);
        ok
    }

    /// Queues `user` (connection `conn`) for `control`, or pairs them with the player
    /// who has waited longest, on any node. Returns the new table id when paired; both
    /// connections also get `paired`.
    pub async fn request(
        self: &Arc<Self>,
        deps: &TableDeps,
        conn: u64,
        user: UserInfo,
        control: TimeControl,
        out: mpsc::Sender<ServerMsg>,
    ) -> Result<Option<String>, ProtoError> {
        // A new request replaces the connection's earlier one.
        self.cancel(conn);
        let queue = queue_key(control);
        for _ in 0..MAX_CLAIMS {
            let entry = Entry {
                node: self.node.clone(),
                conn,
                user: user.clone(),
                ticket: random_id(16),
            };
            let json = serde_json::to_string(&entry).expect("requests serialize");
            // Known here before it is in Redis, so a claim right after the push finds it.
            self.waiting.lock().expect("pairing lock").insert(
                conn,
                Local {
                    ticket: entry.ticket.clone(),
                    queue: queue.clone(),
                    entry: json.clone(),
                    user_id: user.id.clone(),
                    out: out.clone(),
                },
            );
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(POP_OR_PUSH)
                .arg(2)
                .arg(&queue)
                .arg(user_key(&user.id))
                .arg(&json)
                .arg(&user.id)
                .arg(QUEUE_TTL_MS);
            let popped = self.bus.command::<Option<String>>(&cmd).await;
            let popped = match popped {
                Ok(Some(head)) => head,
                Ok(None) => return Ok(None),
                Err(e) => {
                    self.forget(conn, &entry.ticket);
                    return Err(unavailable(e));
                }
            };
            // Not queued: this request pairs with the one popped, if it can be claimed.
            self.forget(conn, &entry.ticket);
            let Ok(other) = serde_json::from_str::<Entry>(&popped) else {
                tracing::warn!("dropped an unreadable quick pairing request");
                continue;
            };
            if !self.claim(&other).await {
                continue;
            }
            let new = crate::pairing::pair_table(other.user.clone(), user.clone(), control);
            return match create_table(deps, new).await {
                Ok(handle) => {
                    let paired = ServerMsg::Paired {
                        table: handle.id.clone(),
                    };
                    self.deliver(&other, paired.clone()).await;
                    let _ = out.send(paired).await;
                    Ok(Some(handle.id))
                }
                Err(e) => {
                    self.deliver(&other, ServerMsg::error(e.clone(), None))
                        .await;
                    Err(e)
                }
            };
        }
        Err(ProtoError::new(
            ErrorCode::Unavailable,
            "quick pairing found only requests that had gone away; try again",
        ))
    }

    /// Forgets the local request `ticket` of `conn` (it is not in the queue).
    fn forget(&self, conn: u64, ticket: &str) {
        let mut waiting = self.waiting.lock().expect("pairing lock");
        if waiting.get(&conn).is_some_and(|l| l.ticket == ticket) {
            waiting.remove(&conn);
        }
    }

    /// Takes connection `conn` out of the queue, on every node.
    pub fn cancel(&self, conn: u64) {
        let local = self.waiting.lock().expect("pairing lock").remove(&conn);
        if let Some(local) = local {
            let bus = self.bus.clone();
            tokio::spawn(async move {
                let mut cmd = redis::cmd("LREM");
                cmd.arg(&local.queue).arg(0).arg(&local.entry);
                if let Err(e) = bus.command::<i64>(&cmd).await {
                    // Whoever pops it finds it gone here and drops it.
                    tracing::warn!(error = %e, "could not take a request out of the queue");
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_messages_keep_their_form_on_the_wire() {
        let entry = Entry {
            node: "n1".into(),
            conn: 7,
            user: UserInfo {
                id: "u".into(),
                name: "ana".into(),
                guest: false,
                bot: false,
            },
            ticket: "t".into(),
        };
        let json = serde_json::to_string(&entry).unwrap();
        // The Lua script reads the user id of a stored request.
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["user"]["id"], "u");
        assert_eq!(serde_json::from_str::<Entry>(&json).unwrap(), entry);
        let wire = Wire::Deliver {
            ticket: "t".into(),
            msg: ServerMsg::Paired { table: "x".into() },
        };
        let bytes = serde_json::to_vec(&wire).unwrap();
        assert_eq!(serde_json::from_slice::<Wire>(&bytes).unwrap(), wire);
    }

    #[test]
    fn each_time_control_has_its_own_queue() {
        let keys: std::collections::HashSet<String> = TimeControl::QUICK
            .iter()
            .map(|&(m, s)| queue_key(TimeControl::from_minutes_seconds(m, s).unwrap()))
            .collect();
        assert_eq!(keys.len(), TimeControl::QUICK.len());
    }
}
