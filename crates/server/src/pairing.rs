//! Quick pairing for classic-2 at the preset time controls: the first waiting player
//! with the same time control is paired with the newcomer at a new table, which starts
//! at once (white = the one who waited longer).
//!
//! A single node keeps the queue in memory; the nodes of a cluster share one queue in
//! Redis ([`crate::cluster::pairing`]).

use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::mpsc;

use stella_engine::Variant;

use crate::cluster::pairing::ClusterPairing;
use crate::protocol::{ErrorCode, ProtoError, ServerMsg, TimeSpec, UserInfo};
use crate::table::{create_table, NewTable, Occupant, TableDeps, TimeControl};

#[derive(Debug)]
struct Waiting {
    conn: u64,
    user: UserInfo,
    control: TimeControl,
    out: mpsc::Sender<ServerMsg>,
}

/// The quick pairing queue.
#[derive(Debug, Default)]
pub struct Pairing {
    waiting: Mutex<Vec<Waiting>>,
    cluster: OnceLock<Arc<ClusterPairing>>,
}

/// The table of a pair: classic-2 at `control`, `waited` (who waited longer) white,
/// rated when both are registered people.
pub fn pair_table(waited: UserInfo, newcomer: UserInfo, control: TimeControl) -> NewTable {
    NewTable {
        variant: Variant::Classic2,
        control: Some(control),
        rated: [&waited, &newcomer].iter().all(|u| !u.guest && !u.bot),
        seats: vec![Occupant::Human(waited), Occupant::Human(newcomer)],
        created_by: None,
        invite: None,
        move_time: None,
        bots: false,
    }
}

impl Pairing {
    /// Pairs through the queue the nodes of a cluster share (once, at start).
    pub fn join_cluster(&self, cluster: Arc<ClusterPairing>) {
        let _ = self.cluster.set(cluster);
    }

    /// Queues `user` (connection `conn`) or pairs them with someone already waiting.
    /// Returns the new table id when paired; both connections also get `paired`.
    pub async fn request(
        &self,
        deps: &TableDeps,
        conn: u64,
        user: UserInfo,
        spec: TimeSpec,
        out: mpsc::Sender<ServerMsg>,
    ) -> Result<Option<String>, ProtoError> {
        if !TimeControl::QUICK.contains(&(spec.minutes, spec.increment)) {
            let offered: Vec<String> = TimeControl::QUICK
                .iter()
                .map(|(m, s)| format!("{m}+{s}"))
                .collect();
            return Err(ProtoError::new(
                ErrorCode::BadTimeControl,
                format!(
                    "quick pairing offers {}; got {}+{}",
                    offered.join(", "),
                    spec.minutes,
                    spec.increment
                ),
            ));
        }
        let control = TimeControl::from_minutes_seconds(spec.minutes, spec.increment)
            .map_err(|e| ProtoError::new(ErrorCode::BadTimeControl, e.to_string()))?;
        if let Some(cluster) = self.cluster.get() {
            return cluster.request(deps, conn, user, control, out).await;
        }
        let opponent = {
            let mut waiting = self.waiting.lock().expect("pairing lock");
            waiting.retain(|w| !w.out.is_closed() && w.conn != conn && w.user.id != user.id);
            match waiting.iter().position(|w| w.control == control) {
                Some(i) => Some(waiting.remove(i)),
                None => {
                    waiting.push(Waiting {
                        conn,
                        user: user.clone(),
                        control,
                        out: out.clone(),
                    });
                    None
                }
            }
        };
        let Some(opponent) = opponent else {
            return Ok(None);
        };
        let handle = create_table(deps, pair_table(opponent.user.clone(), user, control)).await?;
        let paired = ServerMsg::Paired {
            table: handle.id.clone(),
        };
        let _ = opponent.out.send(paired.clone()).await;
        let _ = out.send(paired).await;
        Ok(Some(handle.id))
    }

    /// Takes connection `conn` out of the queue (on every node of a cluster).
    pub fn cancel(&self, conn: u64) {
        if let Some(cluster) = self.cluster.get() {
            cluster.cancel(conn);
            return;
        }
        self.waiting
            .lock()
            .expect("pairing lock")
            .retain(|w| w.conn != conn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(id: &str, guest: bool) -> UserInfo {
        UserInfo {
            id: id.into(),
            name: id.into(),
            guest,
            bot: false,
        }
    }

    #[test]
    fn the_player_who_waited_is_white_and_guests_play_casual() {
        let control = TimeControl::from_minutes_seconds(5, 3).unwrap();
        let t = pair_table(person("a", false), person("b", false), control);
        assert!(t.rated);
        assert_eq!(t.seats[0].user_id(), Some("a"));
        assert_eq!(t.seats[1].user_id(), Some("b"));
        assert_eq!(t.control, Some(control));
        let t = pair_table(person("a", false), person("g", true), control);
        assert!(!t.rated);
    }
}
