//! The open challenges and the connections of the accounts that may take part, with
//! the limits on how many one user makes and receives. No I/O beyond queueing
//! messages to connections and, in a cluster, to the other nodes (see
//! [`crate::cluster::challenges`]): every message about a challenge goes to every
//! node, which keeps a copy of the challenges opened elsewhere, so that the limits and
//! the lists count them and an answer finds the node that holds the challenge.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::mpsc;

use crate::cluster::challenges::ClusterChallenges;
use crate::protocol::{ChallengeEnd, ChallengeView, ErrorCode, ProtoError, ServerMsg};
use crate::time::Millis;

/// How long a challenge waits for an answer: three minutes. The game starts the moment
/// it is accepted, with the challenger's clock running, so the challenger must still be
/// there; a few minutes is enough to notice and answer, and after that the challenger
/// has most likely turned to something else.
pub const EXPIRES_AFTER_MS: Millis = 180_000;

/// Open challenges one user may have made at once.
pub const MAX_OUTGOING: usize = 3;

/// Open challenges one user may have waiting for an answer, so that nobody's lobby
/// can be flooded (each challenger is also held to [`MAX_OUTGOING`]).
pub const MAX_INCOMING: usize = 10;

/// An open challenge and the connection that made it.
#[derive(Debug, Clone)]
struct Open {
    view: ChallengeView,
    from_conn: u64,
}

#[derive(Debug, Default)]
struct Inner {
    /// Open challenges by id.
    open: HashMap<String, Open>,
    /// The connections of each connected account, by user id.
    online: HashMap<String, Vec<(u64, mpsc::Sender<ServerMsg>)>>,
    /// Open challenges held by other nodes of a cluster, with the node holding each.
    elsewhere: HashMap<String, (ChallengeView, String)>,
}

/// What the registry passes on to the other nodes of a cluster.
#[derive(Debug, Clone, PartialEq)]
pub enum Relayed {
    /// A message about a challenge, for every connection of `users`.
    Tell {
        /// Who gets it.
        users: Vec<String>,
        /// The message.
        msg: Box<ServerMsg>,
    },
    /// The first connection of an account came.
    Online(String),
    /// The last connection of an account left.
    Offline(String),
}

/// The open challenges and who is connected (cheap to clone).
#[derive(Debug, Clone, Default)]
pub struct Challenges {
    inner: Arc<Mutex<Inner>>,
    relay: Arc<OnceLock<mpsc::Sender<Relayed>>>,
    cluster: Arc<OnceLock<Arc<ClusterChallenges>>>,
}

/// A connection's entry among the connected accounts: dropping it forgets the
/// connection and ends the challenges it made.
#[derive(Debug)]
pub struct Online {
    challenges: Challenges,
    conn: u64,
    user_id: String,
}

impl Drop for Online {
    fn drop(&mut self) {
        self.challenges.disconnect(self.conn, &self.user_id);
    }
}

fn no_such(id: &str) -> ProtoError {
    ProtoError::new(
        ErrorCode::NoSuchChallenge,
        format!("no open challenge {id:?} for you: it was answered, taken back or has expired"),
    )
}

impl Challenges {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("challenges lock")
    }

    /// Passes every message and change of presence on to `relay` from now on (once,
    /// at start, in a cluster).
    pub fn relay_to(&self, relay: mpsc::Sender<Relayed>) {
        let _ = self.relay.set(relay);
    }

    /// Reaches the challenges and accounts of the other nodes through `cluster` (once,
    /// at start).
    pub fn join_cluster(&self, cluster: Arc<ClusterChallenges>) {
        let _ = self.cluster.set(cluster);
    }

    /// The other nodes' challenges and accounts, in a cluster.
    pub fn cluster(&self) -> Option<&Arc<ClusterChallenges>> {
        self.cluster.get()
    }

    fn pass_on(&self, relayed: Relayed) {
        if let Some(relay) = self.relay.get() {
            if relay.try_send(relayed).is_err() {
                tracing::warn!("too many challenge messages to pass on to the other nodes");
            }
        }
    }

    /// Records connection `conn` of account `user_id`, whose messages go to `out`.
    pub fn connect(&self, conn: u64, user_id: &str, out: mpsc::Sender<ServerMsg>) -> Online {
        let first = {
            let mut inner = self.lock();
            let conns = inner.online.entry(user_id.to_owned()).or_default();
            conns.push((conn, out));
            conns.len() == 1
        };
        if first {
            self.pass_on(Relayed::Online(user_id.to_owned()));
        }
        Online {
            challenges: self.clone(),
            conn,
            user_id: user_id.to_owned(),
        }
    }

    fn disconnect(&self, conn: u64, user_id: &str) {
        let mut last = false;
        let ended: Vec<ChallengeView> = {
            let mut inner = self.lock();
            if let Some(conns) = inner.online.get_mut(user_id) {
                conns.retain(|(c, _)| *c != conn);
                if conns.is_empty() {
                    inner.online.remove(user_id);
                    last = true;
                }
            }
            let gone: Vec<String> = inner
                .open
                .values()
                .filter(|o| o.from_conn == conn && o.view.from.id == user_id)
                .map(|o| o.view.id.clone())
                .collect();
            gone.iter()
                .filter_map(|id| inner.open.remove(id))
                .map(|o| o.view)
                .collect()
        };
        for view in ended {
            self.tell_ended(&view, ChallengeEnd::Left);
        }
        if last {
            self.pass_on(Relayed::Offline(user_id.to_owned()));
        }
    }

    /// Whether `user_id` has a connection here now.
    pub fn is_online(&self, user_id: &str) -> bool {
        self.lock().online.contains_key(user_id)
    }

    /// The accounts with a connection here now.
    pub fn online_users(&self) -> Vec<String> {
        self.lock().online.keys().cloned().collect()
    }

    /// The node holding challenge `id`, when another node does.
    pub fn held_elsewhere(&self, id: &str) -> Option<String> {
        let inner = self.lock();
        if inner.open.contains_key(id) {
            return None;
        }
        inner.elsewhere.get(id).map(|(_, node)| node.clone())
    }

    /// Every open challenge made by or to `user_id`, oldest first.
    pub fn involving(&self, user_id: &str) -> Vec<ChallengeView> {
        let inner = self.lock();
        let mut list: Vec<ChallengeView> = inner
            .open
            .values()
            .map(|o| &o.view)
            .chain(inner.elsewhere.values().map(|(v, _)| v))
            .filter(|v| v.from.id == user_id || v.to.id == user_id)
            .cloned()
            .collect();
        list.sort_by(|a, b| a.expires_at.cmp(&b.expires_at).then(a.id.cmp(&b.id)));
        list
    }

    /// Opens `view`, made on connection `conn`, within the limits, and tells both sides.
    /// The challenged user must be connected here.
    pub fn open(&self, view: ChallengeView, conn: u64) -> Result<(), ProtoError> {
        self.open_to(view, conn, false)
    }

    /// Like [`Challenges::open`]; the challenged user may instead be connected to
    /// another node, when `online_elsewhere`. The limits count the challenges other
    /// nodes hold too.
    pub fn open_to(
        &self,
        view: ChallengeView,
        conn: u64,
        online_elsewhere: bool,
    ) -> Result<(), ProtoError> {
        {
            let mut inner = self.lock();
            if !online_elsewhere && !inner.online.contains_key(&view.to.id) {
                return Err(ProtoError::new(
                    ErrorCode::CannotChallenge,
                    format!(
                        "{} is not connected; challenges go to people online",
                        view.to.name
                    ),
                ));
            }
            let all = inner
                .open
                .values()
                .map(|o| &o.view)
                .chain(inner.elsewhere.values().map(|(v, _)| v));
            let mine = all.clone().filter(|v| v.from.id == view.from.id);
            if mine.clone().any(|v| v.to.id == view.to.id) {
                return Err(ProtoError::new(
                    ErrorCode::CannotChallenge,
                    format!(
                        "you have already challenged {}; wait for the answer or take it back",
                        view.to.name
                    ),
                ));
            }
            if mine.count() >= MAX_OUTGOING {
                return Err(ProtoError::new(
                    ErrorCode::TooManyChallenges,
                    format!(
                        "you have {MAX_OUTGOING} open challenges, the most allowed; \
                         take one back or wait for the answers"
                    ),
                ));
            }
            let waiting = all.filter(|v| v.to.id == view.to.id).count();
            if waiting >= MAX_INCOMING {
                return Err(ProtoError::new(
                    ErrorCode::TooManyChallenges,
                    format!(
                        "{} has {MAX_INCOMING} challenges waiting already; try later",
                        view.to.name
                    ),
                ));
            }
            inner.open.insert(
                view.id.clone(),
                Open {
                    view: view.clone(),
                    from_conn: conn,
                },
            );
        }
        let (from, to) = (view.from.id.clone(), view.to.id.clone());
        self.tell(&[&from, &to], ServerMsg::Challenge(view));
        Ok(())
    }

    /// Takes challenge `id` out for `user_id` to accept (it must be addressed to them),
    /// with the connection that made it.
    pub fn take_for_accept(
        &self,
        id: &str,
        user_id: &str,
    ) -> Result<(ChallengeView, u64), ProtoError> {
        let mut inner = self.lock();
        match inner.open.get(id) {
            Some(o) if o.view.to.id == user_id => {
                let o = inner.open.remove(id).expect("present");
                Ok((o.view, o.from_conn))
            }
            _ => Err(no_such(id)),
        }
    }

    /// Puts back a challenge taken for acceptance whose game could not start; false
    /// (and nothing changed) when its challenger has left meanwhile.
    pub fn restore(&self, view: ChallengeView, conn: u64) -> bool {
        let mut inner = self.lock();
        let here = inner
            .online
            .get(&view.from.id)
            .is_some_and(|c| c.iter().any(|(c, _)| *c == conn));
        if here {
            inner.open.insert(
                view.id.clone(),
                Open {
                    view,
                    from_conn: conn,
                },
            );
        }
        here
    }

    /// The challenged user declines challenge `id`.
    pub fn decline(&self, id: &str, user_id: &str) -> Result<(), ProtoError> {
        self.end_where(id, ChallengeEnd::Declined, |v| v.to.id == user_id)
    }

    /// The challenger takes challenge `id` back.
    pub fn cancel(&self, id: &str, user_id: &str) -> Result<(), ProtoError> {
        self.end_where(id, ChallengeEnd::Cancelled, |v| v.from.id == user_id)
    }

    /// Ends challenge `id` if it is still open and its time has come at `now`.
    pub fn expire(&self, id: &str, now: Millis) -> bool {
        self.end_where(id, ChallengeEnd::Expired, |v| now >= v.expires_at)
            .is_ok()
    }

    /// When the open challenge `id` expires; none once it is over.
    pub fn expires_at(&self, id: &str) -> Option<Millis> {
        self.lock().open.get(id).map(|o| o.view.expires_at)
    }

    fn end_where(
        &self,
        id: &str,
        reason: ChallengeEnd,
        allowed: impl Fn(&ChallengeView) -> bool,
    ) -> Result<(), ProtoError> {
        let view = {
            let mut inner = self.lock();
            match inner.open.get(id) {
                Some(o) if allowed(&o.view) => inner.open.remove(id).expect("present").view,
                _ => return Err(no_such(id)),
            }
        };
        self.tell_ended(&view, reason);
        Ok(())
    }

    fn tell_ended(&self, view: &ChallengeView, reason: ChallengeEnd) {
        self.tell(
            &[&view.from.id, &view.to.id],
            ServerMsg::ChallengeEnded {
                id: view.id.clone(),
                reason,
            },
        );
    }

    /// Queues `msg` to every connection of each of `users`, on every node. A
    /// connection whose queue is full misses it (it is being closed as slow anyway).
    pub fn tell(&self, users: &[&str], msg: ServerMsg) {
        self.tell_here(users, &msg);
        self.pass_on(Relayed::Tell {
            users: users.iter().map(|u| (*u).to_owned()).collect(),
            msg: Box::new(msg),
        });
    }

    /// A message about a challenge held by node `node`, told there: keeps the copy of
    /// that node's open challenges and queues `msg` to the connections here.
    pub fn heard(&self, node: &str, users: &[&str], msg: ServerMsg, now: Millis) {
        {
            let mut inner = self.lock();
            match &msg {
                ServerMsg::Challenge(view) => {
                    // A copy whose end was lost on the bus goes when it expires.
                    inner.elsewhere.retain(|_, (v, _)| v.expires_at > now);
                    inner
                        .elsewhere
                        .insert(view.id.clone(), (view.clone(), node.to_owned()));
                }
                ServerMsg::ChallengeEnded { id, .. } | ServerMsg::ChallengeAccepted { id, .. } => {
                    inner.elsewhere.remove(id);
                }
                _ => {}
            }
        }
        self.tell_here(users, &msg);
    }

    fn tell_here(&self, users: &[&str], msg: &ServerMsg) {
        let inner = self.lock();
        for user in users {
            for (_, out) in inner.online.get(*user).into_iter().flatten() {
                let _ = out.try_send(msg.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::UserInfo;

    fn user(id: &str) -> UserInfo {
        UserInfo {
            id: id.into(),
            name: format!("name-{id}"),
            guest: false,
            bot: false,
        }
    }

    fn view(id: &str, from: &str, to: &str) -> ChallengeView {
        ChallengeView {
            id: id.into(),
            from: user(from),
            to: user(to),
            time: None,
            rated: false,
            move_time: None,
            expires_at: 1_000,
        }
    }

    fn drain(rx: &mut mpsc::Receiver<ServerMsg>) -> Vec<ServerMsg> {
        let mut got = Vec::new();
        while let Ok(m) = rx.try_recv() {
            got.push(m);
        }
        got
    }

    #[test]
    fn both_sides_hear_of_a_challenge_and_of_its_end() {
        let c = Challenges::default();
        let (atx, mut arx) = mpsc::channel(16);
        let (btx, mut brx) = mpsc::channel(16);
        let _a = c.connect(1, "a", atx);
        let _b = c.connect(2, "b", btx);
        c.open(view("x", "a", "b"), 1).unwrap();
        assert!(matches!(drain(&mut arx)[..], [ServerMsg::Challenge(_)]));
        assert!(matches!(drain(&mut brx)[..], [ServerMsg::Challenge(_)]));
        assert_eq!(c.involving("b").len(), 1);
        // Only the challenged user declines, only the challenger cancels.
        assert_eq!(
            c.decline("x", "a").unwrap_err().code,
            ErrorCode::NoSuchChallenge
        );
        assert_eq!(
            c.cancel("x", "b").unwrap_err().code,
            ErrorCode::NoSuchChallenge
        );
        c.decline("x", "b").unwrap();
        let ended = ServerMsg::ChallengeEnded {
            id: "x".into(),
            reason: ChallengeEnd::Declined,
        };
        assert_eq!(drain(&mut arx), vec![ended.clone()]);
        assert_eq!(drain(&mut brx), vec![ended]);
        assert!(c.involving("a").is_empty());
    }

    #[test]
    fn limits_on_challenges_made_and_received() {
        let c = Challenges::default();
        let mut keep = Vec::new();
        for i in 0..12 {
            let (tx, rx) = mpsc::channel(64);
            keep.push((c.connect(i, &format!("u{i}"), tx), rx));
        }
        let (tx, _rx) = mpsc::channel(64);
        let _off = c.connect(99, "offline-soon", tx);
        drop(_off);
        let e = c.open(view("o", "u0", "offline-soon"), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::CannotChallenge);
        for (n, to) in ["u1", "u2", "u3"].iter().enumerate() {
            c.open(view(&format!("c{n}"), "u0", to), 0).unwrap();
        }
        let e = c.open(view("dup", "u0", "u1"), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::CannotChallenge);
        let e = c.open(view("c4", "u0", "u4"), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::TooManyChallenges);
        // Ten challengers fill u11's list; the eleventh is refused.
        for i in 1..=10 {
            c.open(view(&format!("in{i}"), &format!("u{i}"), "u11"), i)
                .unwrap();
        }
        let e = c.open(view("in0", "u0", "u11"), 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::TooManyChallenges);
    }

    #[test]
    fn the_challengers_connection_closing_ends_its_challenges() {
        let c = Challenges::default();
        let (atx, _arx) = mpsc::channel(16);
        let (a2tx, _a2rx) = mpsc::channel(16);
        let (btx, mut brx) = mpsc::channel(16);
        let a = c.connect(1, "a", atx);
        let _a2 = c.connect(3, "a", a2tx);
        let _b = c.connect(2, "b", btx);
        c.open(view("x", "a", "b"), 1).unwrap();
        drain(&mut brx);
        drop(a);
        assert_eq!(
            drain(&mut brx),
            vec![ServerMsg::ChallengeEnded {
                id: "x".into(),
                reason: ChallengeEnd::Left
            }]
        );
        assert!(c.is_online("a"), "a's other connection stays");
        assert!(c.involving("b").is_empty());
    }

    #[test]
    fn a_challenge_expires_only_when_its_time_has_come() {
        let c = Challenges::default();
        let (atx, _arx) = mpsc::channel(16);
        let (btx, _brx) = mpsc::channel(16);
        let _a = c.connect(1, "a", atx);
        let _b = c.connect(2, "b", btx);
        c.open(view("x", "a", "b"), 1).unwrap();
        assert!(!c.expire("x", 999));
        assert_eq!(c.expires_at("x"), Some(1_000));
        assert!(c.expire("x", 1_000));
        assert_eq!(c.expires_at("x"), None);
        assert_eq!(
            c.take_for_accept("x", "b").unwrap_err().code,
            ErrorCode::NoSuchChallenge
        );
    }

    #[test]
    fn only_the_challenged_user_takes_a_challenge_to_accept() {
        let c = Challenges::default();
        let (atx, _arx) = mpsc::channel(16);
        let (btx, _brx) = mpsc::channel(16);
        let a = c.connect(1, "a", atx);
        let _b = c.connect(2, "b", btx);
        c.open(view("x", "a", "b"), 1).unwrap();
        assert!(c.take_for_accept("x", "a").is_err());
        let (v, conn) = c.take_for_accept("x", "b").unwrap();
        assert_eq!(conn, 1);
        assert!(c.restore(v.clone(), 1), "put back while a is here");
        let (v, _) = c.take_for_accept("x", "b").unwrap();
        drop(a);
        assert!(!c.restore(v, 1), "not once a has left");
    }

    #[test]
    fn challenges_held_elsewhere_are_listed_counted_and_forgotten_at_their_end() {
        let c = Challenges::default();
        let (relay, mut relayed) = mpsc::channel(16);
        c.relay_to(relay);
        let (btx, mut brx) = mpsc::channel(16);
        let _b = c.connect(2, "b", btx);
        assert_eq!(relayed.try_recv().unwrap(), Relayed::Online("b".into()));
        // Node n2 holds a challenge from a (connected there) to b.
        let v = view("x", "a", "b");
        c.heard("n2", &["a", "b"], ServerMsg::Challenge(v.clone()), 0);
        assert_eq!(drain(&mut brx), vec![ServerMsg::Challenge(v.clone())]);
        assert!(
            relayed.try_recv().is_err(),
            "what was heard is not sent back"
        );
        assert_eq!(c.involving("b"), vec![v]);
        assert_eq!(c.held_elsewhere("x").as_deref(), Some("n2"));
        // a, challenging b again from this node, is refused: one challenge per pair.
        let e = c.open_to(view("y", "a", "b"), 1, true).unwrap_err();
        assert_eq!(e.code, ErrorCode::CannotChallenge);
        // b challenges a, who is connected elsewhere only: told here and passed on.
        c.open_to(view("z", "b", "a"), 2, true).unwrap();
        assert!(matches!(
            relayed.try_recv().unwrap(),
            Relayed::Tell { msg, .. } if matches!(*msg, ServerMsg::Challenge(_))
        ));
        let ended = ServerMsg::ChallengeEnded {
            id: "x".into(),
            reason: ChallengeEnd::Declined,
        };
        c.heard("n2", &["a", "b"], ended, 0);
        assert_eq!(c.held_elsewhere("x"), None);
        assert_eq!(c.involving("b").len(), 1);
        drop(_b);
        assert!(matches!(
            relayed.try_recv().unwrap(),
            Relayed::Tell { msg, .. } if matches!(*msg, ServerMsg::ChallengeEnded { .. })
        ));
        assert_eq!(relayed.try_recv().unwrap(), Relayed::Offline("b".into()));
    }
}
