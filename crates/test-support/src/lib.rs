//! # stella-test-support
//!
//! What the test suites of Stella's crates share: [`free_port`] and [`free_ports`], loopback
//! ports for servers that a test starts in child processes, or stops and
//! starts again.
#![forbid(unsafe_code)]

use std::net::TcpListener;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

/// The ports [`free_port`] hands out: below Linux's default ephemeral range
/// (32768–60999), from which the kernel picks the source port of every
/// outgoing connection and the port of every `bind` to port 0.
const LISTEN_PORTS: Range<u16> = 20_000..32_700;

/// A loopback port free at the time of asking, outside the ephemeral range.
///
/// Tests stop servers (`stella serve`, `redis-server`) and start them again
/// on the same port. A port got from a `bind` to port 0 lies in the
/// ephemeral range, so while its server is down a client reconnecting to
/// it, or any other `bind` to port 0, could be given that very port and
/// keep the server from coming back; so could it, in the moment between a
/// test picking a port and a child process binding it. With the default
/// range the kernel never hands out the ports here on its own.
///
/// The same as [`free_ports`]`(1)`.
///
/// # Panics
///
/// When no port of the range can be bound.
pub fn free_port() -> u16 {
    free_ports(1)
}

/// The first of `count` loopback ports in a row, all free at the time of
/// asking, for servers that take consecutive ports (the nodes of a
/// cluster).
///
/// Each call takes the next `count` ports of a walk through
/// `LISTEN_PORTS` that starts at a place set by the process id, so that
/// test processes running side by side take different ports, and so that
/// a later call in the same process never hands out a port of an earlier
/// run, even one its server has not bound yet. Runs whose ports cannot all
/// be bound are skipped.
///
/// # Panics
///
/// When `count` is 0 or larger than the range, or no run of the range can
/// be bound.
pub fn free_ports(count: u16) -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let span = u32::from(LISTEN_PORTS.end - LISTEN_PORTS.start);
    assert!(
        (1..=span).contains(&u32::from(count)),
        "free_ports({count}): the range holds 1 to {span} ports"
    );
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id().wrapping_mul(2_654_435_761) % span,
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
    for _ in 0..span {
        let k = NEXT.fetch_add(u32::from(count), Ordering::Relaxed) % span;
        // A run must not wrap round the end of the range.
        if k + u32::from(count) > span {
            continue;
        }
        let first = LISTEN_PORTS.start + k as u16;
        let held: Option<Vec<TcpListener>> = (first..first + count)
            .map(|port| TcpListener::bind(("127.0.0.1", port)).ok())
            .collect();
        if held.is_some() {
            return first;
        }
    }
    panic!("no {count} free loopback ports in a row in {LISTEN_PORTS:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_calls_give_two_bindable_ports_below_the_ephemeral_range() {
        let a = free_port();
        let b = free_port();
        assert_ne!(a, b);
        for port in [a, b] {
            assert!(LISTEN_PORTS.contains(&port), "{port}");
            assert!(port < 32_768, "{port}");
        }
        let held_a = TcpListener::bind(("127.0.0.1", a)).expect("first port binds");
        let held_b = TcpListener::bind(("127.0.0.1", b)).expect("second port binds");
        assert_eq!(held_a.local_addr().unwrap().port(), a);
        assert_eq!(held_b.local_addr().unwrap().port(), b);
    }

    #[test]
    fn a_run_of_ports_is_free_and_never_handed_out_again() {
        let first = free_ports(3);
        let run = first..first + 3;
        assert!(LISTEN_PORTS.start <= run.start && run.end <= LISTEN_PORTS.end);
        let held: Vec<TcpListener> = run
            .clone()
            .map(|port| TcpListener::bind(("127.0.0.1", port)).expect("free"))
            .collect();
        drop(held);
        // The ports are free again, but the walk has moved past them.
        for _ in 0..20 {
            let port = free_port();
            assert!(!run.contains(&port), "{port} handed out twice");
        }
    }
}
