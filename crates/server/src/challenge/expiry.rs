//! The timer of one challenge: ends it when its time has come, waking early when an
//! injected clock jumps.

use std::sync::Arc;
use std::time::Duration;

use super::Challenges;
use crate::time::{next_jump, TimeSource};

/// Longest single wait, so that a wall clock set forward is noticed soon.
const MAX_WAIT: Duration = Duration::from_secs(5);

/// Starts the task that expires challenge `id`; it ends as soon as the challenge is
/// over, however it ended.
pub(super) fn spawn_expiry(challenges: Challenges, time: Arc<dyn TimeSource>, id: String) {
    let mut jumps = time.jumps();
    tokio::spawn(async move {
        // A jump after the clock is read below is kept by the listener, so none is
        // missed.
        while let Some(at) = challenges.expires_at(&id) {
            let now = time.now_ms();
            if challenges.expire(&id, now) {
                break;
            }
            let wait = Duration::from_millis((at - now).max(1) as u64).min(MAX_WAIT);
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = next_jump(&mut jumps) => {}
            }
        }
    });
}
