//! Quick pairing for classic-2 at the preset time controls: the first waiting player
//! with the same time control is paired with the newcomer at a new table, which starts
//! at once (white = the one who waited longer).

use std::sync::Mutex;

use tokio::sync::mpsc;

use stella_engine::Variant;

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
}

impl Pairing {
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
        let new = NewTable {
            variant: Variant::Classic2,
            control: Some(control),
            rated: [&opponent.user, &user].iter().all(|u| !u.guest && !u.bot),
            seats: vec![
                Occupant::Human(opponent.user.clone()),
                Occupant::Human(user),
            ],
            created_by: None,
            invite: None,
            move_time: None,
            bots: false,
        };
        let handle = create_table(deps, new).await?;
        let paired = ServerMsg::Paired {
            table: handle.id.clone(),
        };
        let _ = opponent.out.send(paired.clone()).await;
        let _ = out.send(paired).await;
        Ok(Some(handle.id))
    }

    /// Takes connection `conn` out of the queue.
    pub fn cancel(&self, conn: u64) {
        self.waiting
            .lock()
            .expect("pairing lock")
            .retain(|w| w.conn != conn);
    }
}
