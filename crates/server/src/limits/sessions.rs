//! The live WebSockets of each session, so that ending a session (logout, a login
//! that replaces it, expiry) ends every socket opened with it at once: on this server,
//! and in a cluster on every node (the ended sessions go out over the bus).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{mpsc, watch};

/// Sessions with live sockets, by the stored form of their token.
#[derive(Debug, Default)]
pub struct LiveSessions {
    sockets: Arc<Mutex<HashMap<String, watch::Sender<bool>>>>,
    /// Where ended sessions go to reach the other nodes of a cluster.
    others: OnceLock<mpsc::Sender<String>>,
}

/// A socket's tie to its session: `ended` becomes true when the session ends. Dropping
/// it forgets the socket.
#[derive(Debug)]
pub struct SessionTie {
    sockets: Arc<Mutex<HashMap<String, watch::Sender<bool>>>>,
    token_hash: String,
    /// Becomes true when the session ends.
    pub ended: watch::Receiver<bool>,
}

impl Drop for SessionTie {
    fn drop(&mut self) {
        let mut sockets = self.sockets.lock().expect("sessions lock");
        // This tie's receiver still counts until the end of `drop`.
        if sockets
            .get(&self.token_hash)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            sockets.remove(&self.token_hash);
        }
    }
}

impl LiveSessions {
    /// Ties a new socket to the session whose token hashes to `token_hash`.
    pub fn tie(&self, token_hash: &str) -> SessionTie {
        let mut sockets = self.sockets.lock().expect("sessions lock");
        let ended = sockets
            .entry(token_hash.to_owned())
            .or_insert_with(|| watch::channel(false).0)
            .subscribe();
        SessionTie {
            sockets: self.sockets.clone(),
            token_hash: token_hash.to_owned(),
            ended,
        }
    }

    /// Ends every socket of the session whose token hashes to `token_hash`, on every
    /// node.
    pub fn end(&self, token_hash: &str) {
        self.end_here(token_hash);
        if let Some(others) = self.others.get() {
            if others.try_send(token_hash.to_owned()).is_err() {
                // The sockets elsewhere still end at their next session check.
                tracing::warn!("too many ended sessions to tell the other nodes at once");
            }
        }
    }

    /// From now on, sends every session ended here to `others` (once, at start).
    pub fn tell_others(&self, others: mpsc::Sender<String>) {
        let _ = self.others.set(others);
    }

    /// Ends every socket of the session whose token hashes to `token_hash` on this
    /// server only (another node ended it).
    pub fn end_here(&self, token_hash: &str) {
        if let Some(tx) = self
            .sockets
            .lock()
            .expect("sessions lock")
            .remove(token_hash)
        {
            let _ = tx.send(true);
        }
    }

    /// Sessions with at least one live socket.
    pub fn len(&self) -> usize {
        self.sockets.lock().expect("sessions lock").len()
    }

    /// Whether no session has a live socket.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ending_a_session_reaches_every_socket_and_ties_are_forgotten() {
        let live = LiveSessions::default();
        let a = live.tie("s1");
        let b = live.tie("s1");
        let other = live.tie("s2");
        assert_eq!(live.len(), 2);
        live.end("s1");
        assert!(*a.ended.borrow() && *b.ended.borrow());
        assert!(!*other.ended.borrow());
        drop(other);
        assert!(live.is_empty());
        drop((a, b));
        let c = live.tie("s1");
        assert!(!*c.ended.borrow(), "a new tie starts live");
    }

    #[test]
    fn a_session_ended_here_is_passed_on_and_one_ended_elsewhere_is_not() {
        let live = LiveSessions::default();
        let (tx, mut rx) = mpsc::channel(4);
        live.tell_others(tx);
        let a = live.tie("s1");
        let b = live.tie("s2");
        live.end("s1");
        assert!(*a.ended.borrow());
        assert_eq!(rx.try_recv().unwrap(), "s1");
        live.end_here("s2");
        assert!(*b.ended.borrow());
        assert!(rx.try_recv().is_err(), "not sent back out");
    }
}
