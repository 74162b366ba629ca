//! The live WebSockets of each session, so that ending a session (logout, a login
//! that replaces it, expiry) ends every socket opened with it at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// Sessions with live sockets, by the stored form of their token.
#[derive(Debug, Default)]
pub struct LiveSessions {
    sockets: Arc<Mutex<HashMap<String, watch::Sender<bool>>>>,
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

    /// Ends every socket of the session whose token hashes to `token_hash`.
    pub fn end(&self, token_hash: &str) {
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
}
