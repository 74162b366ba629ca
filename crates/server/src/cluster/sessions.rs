//! Ended sessions between nodes: logging out (or a login replacing a session, or a bot
//! token revoked) on one node closes the sockets of that session on every node.

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::bus::{next_message, Bus, BusError};
use crate::state::AppState;

/// The bus channel of ended sessions.
const CHANNEL: &str = "stella:sessions";
/// Ended sessions waiting to go out on the bus.
const QUEUE: usize = 1024;

/// An ended session as it travels between nodes: the stored form of its token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Ended {
    from: String,
    session: String,
}

/// Sends the sessions ended on this node to the other nodes and ends theirs here,
/// until the server stops.
pub async fn spawn_session_relay(bus: Bus, node: String, state: AppState) -> Result<(), BusError> {
    let mut remote = bus.subscribe_ready(CHANNEL).await?;
    let (tx, mut local) = mpsc::channel::<String>(QUEUE);
    state.sessions.tell_others(tx);
    let mut shutdown = state.deps.shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                ended = local.recv() => {
                    let Some(session) = ended else { break };
                    let msg = Ended { from: node.clone(), session };
                    let payload = serde_json::to_vec(&msg).expect("ended sessions serialize");
                    if let Err(e) = bus.publish(CHANNEL, &payload).await {
                        // The sockets elsewhere still end at their next session check.
                        tracing::warn!(error = %e, "could not tell the other nodes of an ended session");
                    }
                }
                ended = next_message::<Ended>(&mut remote, "ended sessions") => {
                    let Some(e) = ended else { break };
                    if e.from != node {
                        state.sessions.end_here(&e.session);
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::bus::is_probe;

    #[test]
    fn ended_sessions_keep_their_form_on_the_wire() {
        let ended = Ended {
            from: "n1".into(),
            session: "hash".into(),
        };
        let bytes = serde_json::to_vec(&ended).unwrap();
        assert_eq!(serde_json::from_slice::<Ended>(&bytes).unwrap(), ended);
        assert!(!is_probe(&bytes), "never taken for a subscription probe");
    }
}
