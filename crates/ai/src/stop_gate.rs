//! Which search a `stop` command belongs to. The input is read on its own
//! thread while the engine works through the commands in order, so a `stop`
//! can be read before the `go` it follows has even started. The gate numbers
//! the `go` commands as they are read and remembers the number of the last
//! `go` read before each `stop`: a search is stopped when a `stop` was read
//! after its own `go`, whether it came before the search began or during
//! it; a `stop` sent while idle does not stop the next search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Shared between the input reader and the engine loop.
#[derive(Debug)]
pub struct StopGate {
    /// `go` commands read so far (reader side).
    gos_read: AtomicU64,
    /// The number of the last `go` read before the latest `stop`.
    stopped_go: AtomicU64,
    /// `go` commands started so far (engine side).
    gos_started: AtomicU64,
    /// The searcher's stop flag.
    flag: Arc<AtomicBool>,
}

impl StopGate {
    /// A gate driving the searcher stop flag `flag`.
    pub fn new(flag: Arc<AtomicBool>) -> StopGate {
        StopGate {
            gos_read: AtomicU64::new(0),
            stopped_go: AtomicU64::new(0),
            gos_started: AtomicU64::new(0),
            flag,
        }
    }

    /// The reader saw `line`: counts a `go`, and on `stop` or `quit` marks
    /// the last `go` read as stopped and raises the flag if that search is
    /// the one running or still to come.
    pub fn on_read(&self, line: &str) {
        match line.split_whitespace().next() {
            Some("go") => {
                self.gos_read.fetch_add(1, Ordering::SeqCst);
            }
            Some("stop") | Some("quit") => {
                let last = self.gos_read.load(Ordering::SeqCst);
                self.stopped_go.store(last, Ordering::SeqCst);
                if last > self.gos_started.load(Ordering::SeqCst).saturating_sub(1) {
                    self.flag.store(true, Ordering::SeqCst);
                }
            }
            _ => {}
        }
    }

    /// The engine is about to run its next `go`: the flag is raised if a
    /// `stop` was read after this `go`, lowered otherwise.
    pub fn before_go(&self) {
        let this = self.gos_started.fetch_add(1, Ordering::SeqCst) + 1;
        let stopped = self.stopped_go.load(Ordering::SeqCst) >= this;
        self.flag.store(stopped, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> StopGate {
        StopGate::new(Arc::new(AtomicBool::new(false)))
    }

    impl StopGate {
        /// Whether the search about to run (or running) has been stopped.
        fn is_raised(&self) -> bool {
            self.flag.load(Ordering::SeqCst)
        }
    }

    #[test]
    fn a_stop_read_before_its_go_starts_still_stops_it() {
        let g = gate();
        g.on_read("go depth 30");
        g.on_read("stop");
        g.before_go();
        assert!(g.is_raised());
    }

    #[test]
    fn a_stop_while_idle_does_not_stop_the_next_search() {
        let g = gate();
        g.on_read("go depth 2");
        g.before_go();
        assert!(!g.is_raised());
        g.on_read("stop"); // the search already ended
        g.on_read("position startpos");
        g.on_read("go depth 2");
        g.before_go();
        assert!(!g.is_raised());
    }

    #[test]
    fn a_stop_during_a_search_stops_it_but_not_the_following_one() {
        let g = gate();
        g.on_read("go infinite");
        g.before_go();
        assert!(!g.is_raised());
        g.on_read("stop");
        assert!(g.is_raised());
        g.on_read("go depth 1");
        g.before_go();
        assert!(!g.is_raised());
    }

    #[test]
    fn a_stop_with_no_go_ever_read_stops_nothing() {
        let g = gate();
        g.on_read("stop");
        g.on_read("go depth 1");
        g.before_go();
        assert!(!g.is_raised());
    }
}
