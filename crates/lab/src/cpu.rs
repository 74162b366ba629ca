//! CPU time spent by this thread or by another process: a match reports
//! each player's think time in CPU time as well as in wall time, because on
//! a busy machine only the CPU time says how much work a move cost. This
//! thread's time comes from its CPU clock; another process's from Linux's
//! `/proc`, and other systems (or a missing `/proc`) give `None` for it.

use crate::thread_clock::ThreadCpuClock;
use stella_ai::Clock;

/// Clock ticks per second of `/proc/*/stat` times: Linux reports them in
/// `USER_HZ`, which is 100 on every architecture it runs on.
const TICKS_PER_SECOND: f64 = 100.0;

/// The user + system CPU time in milliseconds of a `/proc/.../stat` line
/// (fields 14 and 15, counted after the parenthesised command name, which
/// may itself hold spaces and parentheses).
pub fn stat_cpu_ms(stat: &str) -> Option<f64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // After the name: field 3 (state) is index 0, so field 14 is index 11.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 * 1000.0 / TICKS_PER_SECOND)
}

fn read_cpu_ms(path: &str) -> Option<f64> {
    stat_cpu_ms(&std::fs::read_to_string(path).ok()?)
}

/// CPU time used so far by the calling thread, in milliseconds, read from
/// the same clock as the `--cpu-clock` caps ([`ThreadCpuClock`], to the
/// nanosecond) so that a capped level's reported time is the time its cap
/// counted.
pub fn thread_cpu_ms() -> Option<f64> {
    Some(ThreadCpuClock.now_ms())
}

/// CPU time used so far by process `pid` (all its threads), in milliseconds.
pub fn process_cpu_ms(pid: u32) -> Option<f64> {
    read_cpu_ms(&format!("/proc/{pid}/stat"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_user_plus_system_time() {
        // A command name with a space and a parenthesis; utime 250, stime 31.
        let line = "4242 (my (engine) x) R 1 2 3 4 5 6 7 8 9 10 250 31 0 0 20 0 1 0 9 9 9";
        assert_eq!(stat_cpu_ms(line), Some(2810.0));
        assert_eq!(stat_cpu_ms("4242 (cut) R 1 2"), None);
        assert_eq!(stat_cpu_ms("no name here"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_busy_thread_sees_its_cpu_time_grow() {
        let pid = std::process::id();
        let own_before = process_cpu_ms(pid).expect("/proc/PID/stat");
        let before = thread_cpu_ms().expect("the thread's CPU clock");
        let mut x = 1u64;
        let mut spent = 0.0;
        while spent < 100.0 {
            for i in 0..1_000_000u64 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
            }
            spent = thread_cpu_ms().unwrap() - before;
        }
        let own = process_cpu_ms(pid).expect("/proc/PID/stat") - own_before;
        // `/proc` gives whole ticks, and a running thread's current tick
        // may not be in it yet: the process's growth, which holds the
        // thread's work, falls short of the thread's exact time by less
        // than two ticks.
        let tick = 1000.0 / TICKS_PER_SECOND;
        assert!(
            own + 2.0 * tick > spent,
            "process grew {own} ms, thread {spent} ms"
        );
    }
}
