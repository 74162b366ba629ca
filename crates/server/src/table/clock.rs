//! Server-side Fischer clocks with bounded lag compensation.
//!
//! Each seat has a reserve; the seat to move spends it; a completed move adds the
//! increment. Network lag is forgiven in the manner of lichess's lag quota: every seat
//! holds a quota of forgivable milliseconds; a move is refunded
//! `min(estimated lag, quota, LagPolicy::max_per_move_ms)`, that refund is taken from the
//! quota, and each move earns `LagPolicy::gain_ms` back up to `LagPolicy::max_quota_ms`.
//! A seat has flagged when its reserve, after that refund, is zero or less; the server's
//! timer therefore fires at `turn start + reserve + refund`, so the grace a player gets
//! is exactly the refund their measured lag earns them (none for computer seats).

use serde::{Deserialize, Serialize};

use crate::time::Millis;

/// A time control: a reserve per player and a Fischer increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Reserve for the whole game, in milliseconds.
    pub reserve_ms: Millis,
    /// Added to the mover's reserve after each move, in milliseconds.
    pub increment_ms: Millis,
}

/// Why a requested time control was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// The reserve is outside 1 to 180 minutes.
    #[error("reserve must be between 1 and 180 minutes, got {0}")]
    Reserve(i64),
    /// The increment is outside 0 to 60 seconds.
    #[error("increment must be between 0 and 60 seconds, got {0}")]
    Increment(i64),
}

impl TimeControl {
    /// A time control from whole minutes of reserve and whole seconds of increment,
    /// checked: 1–180 minutes, 0–60 seconds.
    pub fn from_minutes_seconds(minutes: i64, seconds: i64) -> Result<Self, TimeControlError> {
        if !(1..=180).contains(&minutes) {
            return Err(TimeControlError::Reserve(minutes));
        }
        if !(0..=60).contains(&seconds) {
            return Err(TimeControlError::Increment(seconds));
        }
        Ok(TimeControl {
            reserve_ms: minutes * 60_000,
            increment_ms: seconds * 1_000,
        })
    }

    /// The presets offered by quick pairing: 1+0, 3+2, 5+3, 10+5, 15+10.
    pub const QUICK: [(i64, i64); 5] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10)];
}

/// The lag quota rules (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagPolicy {
    /// Quota each seat starts the game with.
    pub initial_quota_ms: Millis,
    /// Quota earned back by each move.
    pub gain_ms: Millis,
    /// Largest quota a seat can hold.
    pub max_quota_ms: Millis,
    /// Largest refund for one move.
    pub max_per_move_ms: Millis,
}

impl Default for LagPolicy {
    fn default() -> Self {
        LagPolicy {
            initial_quota_ms: 1_000,
            gain_ms: 100,
            max_quota_ms: 2_000,
            max_per_move_ms: 500,
        }
    }
}

/// The outcome of pressing the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    /// The move was in time; `spent` is what it cost after the lag refund.
    InTime {
        /// Milliseconds charged to the mover.
        spent: Millis,
    },
    /// The mover's reserve ran out before the move arrived.
    Flagged,
}

/// The clocks of one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    policy: LagPolicy,
    remaining: Vec<Millis>,
    quota: Vec<Millis>,
    running: Option<(usize, Millis)>,
}

/// What a client needs to draw the clocks: each seat's reserve at `at_ms` and the seat
/// whose clock is running.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// Reserve of each seat in seat order, in milliseconds, as of the message.
    pub remaining_ms: Vec<Millis>,
    /// The seat index whose clock runs, if any.
    pub running: Option<usize>,
}

/// The part of a clock that is stored after each move, so a restart can resume it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredClock {
    /// Reserve of each seat in seat order, in milliseconds.
    pub r: Vec<Millis>,
    /// Lag quota of each seat in seat order, in milliseconds.
    pub q: Vec<Millis>,
}

impl Clock {
    /// Fresh clocks for `seats` seats, none running.
    pub fn new(control: TimeControl, seats: usize, policy: LagPolicy) -> Self {
        Clock {
            control,
            policy,
            remaining: vec![control.reserve_ms; seats],
            quota: vec![policy.initial_quota_ms; seats],
            running: None,
        }
    }

    /// Clocks restored from storage, none running.
    pub fn restore(control: TimeControl, stored: &StoredClock, policy: LagPolicy) -> Self {
        Clock {
            control,
            policy,
            remaining: stored.r.clone(),
            quota: stored.q.clone(),
            running: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// What must be stored to resume these clocks later.
    pub fn stored(&self) -> StoredClock {
        StoredClock {
            r: self.remaining.clone(),
            q: self.quota.clone(),
        }
    }

    /// Starts `seat`'s clock at `now` (stopping any other).
    pub fn start(&mut self, seat: usize, now: Millis) {
        self.running = Some((seat, now));
    }

    /// Stops the running clock at `now`, charging the elapsed time without refund or
    /// increment (used when a game ends by resignation).
    pub fn stop(&mut self, now: Millis) {
        if let Some((seat, since)) = self.running.take() {
            self.remaining[seat] = (self.remaining[seat] - (now - since).max(0)).max(0);
        }
    }

    /// The seat whose clock runs, if any.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(s, _)| s)
    }

    /// The refund a move by `seat` would get for an estimated lag of `lag_ms`.
    pub fn refund(&self, seat: usize, lag_ms: Millis) -> Millis {
        lag_ms
            .max(0)
            .min(self.quota[seat])
            .min(self.policy.max_per_move_ms)
    }

    /// `seat`'s reserve at `now`, without any lag refund.
    pub fn remaining_at(&self, seat: usize, now: Millis) -> Millis {
        match self.running {
            Some((s, since)) if s == seat => self.remaining[seat] - (now - since).max(0),
            _ => self.remaining[seat],
        }
    }

    /// The clocks as a client draws them at `now`.
    pub fn view(&self, now: Millis) -> ClockView {
        ClockView {
            remaining_ms: (0..self.remaining.len())
                .map(|s| self.remaining_at(s, now).max(0))
                .collect(),
            running: self.running(),
        }
    }

    /// The moment the running seat flags, given its estimated lag.
    pub fn flag_deadline(&self, lag_ms: Millis) -> Option<(usize, Millis)> {
        self.running.map(|(seat, since)| {
            (
                seat,
                since + self.remaining[seat] + self.refund(seat, lag_ms),
            )
        })
    }

    /// Whether the running seat has flagged at `now`, given its estimated lag.
    pub fn flagged_at(&self, now: Millis, lag_ms: Millis) -> Option<usize> {
        self.flag_deadline(lag_ms)
            .filter(|&(_, deadline)| now >= deadline)
            .map(|(seat, _)| seat)
    }

    /// Charges a move by the running seat completed at `now` with estimated lag
    /// `lag_ms`: applies the refund, checks the flag, adds the increment. The clock is
    /// left stopped; call [`Clock::start`] for the next seat. On a flag nothing changes.
    pub fn press(&mut self, now: Millis, lag_ms: Millis) -> Press {
        let Some((seat, since)) = self.running else {
            return Press::InTime { spent: 0 };
        };
        let refund = self.refund(seat, lag_ms);
        let spent = ((now - since) - refund).max(0);
        if spent >= self.remaining[seat] {
            return Press::Flagged;
        }
        let policy = self.policy;
        self.remaining[seat] = self.remaining[seat] - spent + self.control.increment_ms;
        self.quota[seat] = (self.quota[seat] - refund + policy.gain_ms).min(policy.max_quota_ms);
        self.running = None;
        Press::InTime { spent }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Clock {
        Clock::new(
            TimeControl::from_minutes_seconds(1, 2).unwrap(),
            2,
            LagPolicy::default(),
        )
    }

    #[test]
    fn time_controls_are_checked() {
        assert_eq!(
            TimeControl::from_minutes_seconds(0, 5),
            Err(TimeControlError::Reserve(0))
        );
        assert_eq!(
            TimeControl::from_minutes_seconds(5, 61),
            Err(TimeControlError::Increment(61))
        );
        assert_eq!(
            TimeControl::from_minutes_seconds(3, 2).unwrap(),
            TimeControl {
                reserve_ms: 180_000,
                increment_ms: 2_000
            }
        );
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut c = clock();
        c.start(0, 1_000);
        assert_eq!(c.press(11_000, 0), Press::InTime { spent: 10_000 });
        assert_eq!(c.view(11_000).remaining_ms, vec![52_000, 60_000]);
        c.start(1, 11_000);
        assert_eq!(c.remaining_at(1, 12_500), 58_500);
        assert_eq!(c.press(12_500, 0), Press::InTime { spent: 1_500 });
        assert_eq!(c.view(12_500).remaining_ms, vec![52_000, 60_500]);
    }

    #[test]
    fn flag_exactly_at_zero() {
        let mut c = clock();
        c.start(0, 0);
        assert_eq!(c.flag_deadline(0), Some((0, 60_000)));
        assert_eq!(c.flagged_at(59_999, 0), None);
        assert_eq!(c.flagged_at(60_000, 0), Some(0));
        let before = c.clone();
        assert_eq!(c.press(60_000, 0), Press::Flagged);
        assert_eq!(c, before, "a flagged press changes nothing");
        assert_eq!(c.press(59_999, 0), Press::InTime { spent: 59_999 });
        assert_eq!(c.view(59_999).remaining_ms[0], 2_001);
    }

    #[test]
    fn lag_refund_is_bounded_per_move_and_by_quota() {
        let mut c = clock();
        // Per-move cap: 800 ms of lag earns 500 ms.
        assert_eq!(c.refund(0, 800), 500);
        c.start(0, 0);
        assert_eq!(c.press(10_000, 800), Press::InTime { spent: 9_500 });
        // Quota: 1000 - 500 + 100 = 600.
        assert_eq!(c.stored().q, vec![600, 1_000]);
        // Spend the quota down: each move refunds 500 and earns 100 back.
        for _ in 0..2 {
            c.start(0, 0);
            c.press(1_000, 800);
        }
        // 600 -> 200 -> 100 (refund limited to 200 on the second move)
        assert_eq!(c.stored().q[0], 100);
        assert_eq!(c.refund(0, 800), 100);
        // Negative lag is no lag.
        assert_eq!(c.refund(1, -50), 0);
    }

    #[test]
    fn lag_refund_is_the_flag_grace() {
        let mut c = clock();
        c.start(0, 0);
        assert_eq!(c.flag_deadline(300), Some((0, 60_300)));
        assert_eq!(c.flagged_at(60_200, 300), None);
        assert_eq!(c.press(60_200, 300), Press::InTime { spent: 59_900 });
    }

    #[test]
    fn restore_does_not_charge_downtime() {
        let mut c = clock();
        c.start(0, 0);
        c.press(5_000, 0);
        let stored = c.stored();
        let mut back = Clock::restore(c.control(), &stored, LagPolicy::default());
        // The server was down for an hour; the clock restarts when it comes back.
        back.start(1, 3_600_000);
        assert_eq!(back.remaining_at(1, 3_601_000), 59_000);
        assert_eq!(back.remaining_at(0, 3_601_000), 57_000);
    }

    #[test]
    fn stop_charges_elapsed_time() {
        let mut c = clock();
        c.start(1, 0);
        c.stop(70_000);
        assert_eq!(c.view(70_000).remaining_ms, vec![60_000, 0]);
        assert_eq!(c.running(), None);
    }
}
