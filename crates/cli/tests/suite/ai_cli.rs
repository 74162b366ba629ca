//! `stella analyse` and `stella solo` end to end.

use crate::common::stella;
use stella_engine::{MovePath, Position, Variant};

fn line_after<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} line in {out}"))
}

#[test]
fn analyse_a_three_player_start_uses_best_reply_and_names_a_legal_move() {
    let start = Position::start(Variant::Classic3);
    let text = start.to_string();
    let (ok, out, err) = stella(&["analyse", "--position", &text, "--time", "0.3"]);
    assert!(ok, "{err}");
    assert_eq!(line_after(&out, "strategy "), "brs");
    let best: MovePath = line_after(&out, "best ").parse().unwrap();
    let mut pos = start;
    pos.play_path(&best).expect("a legal best move");
}

#[test]
fn analyse_refuses_a_bad_position_by_name() {
    let (ok, _, err) = stella(&["analyse", "--position", "classic-2 nonsense"]);
    assert!(!ok);
    assert!(err.contains("--position"), "{err}");
}

#[test]
fn solo_finds_the_same_27_move_crossing_every_time() {
    let (ok, first, err) = stella(&["solo"]);
    assert!(ok, "{err}");
    assert_eq!(first.lines().last(), Some("solo 27 moves"), "{first}");
    assert_eq!(first.lines().count(), 27 + 2);
    let (ok, again, err) = stella(&["solo"]);
    assert!(ok, "{err}");
    assert_eq!(again, first);
}

#[test]
fn solo_refuses_a_beam_of_width_zero_by_name() {
    let (ok, _, err) = stella(&["solo", "--width", "0"]);
    assert!(!ok);
    assert!(err.contains("--width"), "{err}");
}
