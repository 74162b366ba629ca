//! The timer of one challenge: ends it when its time has come, waking early when an
//! injected clock jumps.

use std::sync::Arc;
use std::time::Duration;

use super::Challenges;
use crate::time::TimeSource;

/// Longest single wait, so that a wall clock set forward is noticed soon.
const MAX_WAIT: Duration = Duration::from_secs(5);

/// Starts the task that expires challenge `id`; it ends as soon as the challenge is
/// over, however it ended.
pub(super) fn spawn_expiry(challenges: Challenges, time: Arc<dyn TimeSource>, id: String) {
    let jumps = time.jumps();
    tokio::spawn(async move {
        loop {
            // Listen for a jump before reading the clock, so none is missed.
            let mut jumped = jumps.as_ref().map(|n| Box::pin(n.notified()));
            if let Some(n) = jumped.as_mut() {
                n.as_mut().enable();
            }
            let Some(at) = challenges.expires_at(&id) else {
                break;
            };
            let now = time.now_ms();
            if challenges.expire(&id, now) {
                break;
            }
            let wait = Duration::from_millis((at - now).max(1) as u64).min(MAX_WAIT);
            let jumped = async {
                match jumped {
                    Some(n) => n.await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = jumped => {}
            }
        }
    });
}
