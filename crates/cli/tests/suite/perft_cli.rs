//! `stella perft` end to end: output format, moves, positions, errors.

use crate::common::stella;

#[test]
fn prints_one_line_per_depth() {
    let (ok, out, _) = stella(&["perft", "--variant", "classic-2", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out, "perft 1 14\nperft 2 196\nperft 3 4648\n");
}

#[test]
fn plays_moves_first_and_divides() {
    let (ok, out, _) = stella(&[
        "perft",
        "--variant",
        "classic-2",
        "--depth",
        "1",
        "--moves",
        "m3-m5 e15-e13",
        "--divide",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        *lines.last().unwrap(),
        format!("perft 1 {}", lines.len() - 1)
    );
    assert!(lines.iter().any(|l| l.starts_with("m5-m6 ")), "{out}");
}

#[test]
fn starts_from_a_position_string() {
    let pos = "classic-2 black 1 white:j4,k3,k4,l2,l3,l4,m1,m2,m4,m5 black:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 made:1,0";
    let (ok, out, _) = stella(&["perft", "--position", pos, "--depth", "1"]);
    assert!(ok);
    assert!(out.starts_with("perft 1 "));
}

#[test]
fn bad_input_is_named() {
    let (ok, _, err) = stella(&["perft", "--variant", "classic-9", "--depth", "1"]);
    assert!(!ok);
    assert!(err.contains("classic-9"), "{err}");
    let (ok, _, err) = stella(&["perft", "--depth", "1", "--moves", "m3-m6"]);
    assert!(!ok);
    assert!(
        err.contains("m3-m6") && err.contains("neither a step nor a jump"),
        "{err}"
    );
    let (ok, _, err) = stella(&[
        "perft",
        "--depth",
        "1",
        "--position",
        "classic-2 white 1 white:z1 black:",
    ]);
    assert!(!ok);
    assert!(err.contains("z1"), "{err}");
}
