//! Steps, jumps, chains, points that may be crossed but not ended in, the goal lock,
//! canonical paths and the errors that name what was wrong.

use crate::common::*;
use stella_engine::{IllegalMove, Move, Position, Variant};

#[test]
fn start_of_classic_2_has_fourteen_moves() {
    let p = Position::start(Variant::Classic2);
    assert_eq!(dests(&p, "k3"), ["i5", "k5"]);
    assert_eq!(dests(&p, "j4"), ["i5", "j5"]);
    assert_eq!(dests(&p, "m1"), Vec::<String>::new());
}

#[test]
fn chain_may_cross_a_foreign_point_but_not_end_there() {
    // classic-3: red's point (e5 f5 g5 h5 e6 f6 g6 e7 f7 e8) is foreign to white.
    let p = pos("classic-3 white 1 white:j5,i5,h6 blue: yellow:");
    let err = p.resolve_path(&path("j5-h5")).unwrap_err();
    assert_eq!(err, IllegalMove::EndsInForeignPoint(hole("h5")));
    assert!(err.to_string().contains("h5"));
    let mv = p.resolve_path(&path("j5-h5-h7")).unwrap();
    assert_eq!(mv, Move::new(hole("j5"), hole("h7")));
    assert!(!dests(&p, "j5").contains(&"h5".to_string()));
    assert!(dests(&p, "j5").contains(&"h7".to_string()));
}

#[test]
fn a_step_is_the_whole_move() {
    let p = Position::start(Variant::Classic2);
    assert_eq!(
        p.resolve_path(&path("j4-j5-j6")).unwrap_err(),
        IllegalMove::StepThenMore(hole("j5"))
    );
}

#[test]
fn errors_name_the_problem() {
    let p = Position::start(Variant::Classic2);
    assert_eq!(
        p.resolve_path(&path("e14-e13")).unwrap_err(),
        IllegalMove::NoMarbleOfPlayer {
            hole: hole("e14"),
            player: stella_engine::Colour::White
        }
    );
    assert_eq!(
        p.resolve_path(&path("l3-l4")).unwrap_err(),
        IllegalMove::Occupied(hole("l4"))
    );
    assert_eq!(
        p.resolve_path(&path("j4-j6")).unwrap_err(),
        IllegalMove::NotAJump {
            from: hole("j4"),
            to: hole("j6")
        }
    );
    assert!("m1-m3-".parse::<stella_engine::MovePath>().is_err());
    let e = "m1-z3".parse::<stella_engine::MovePath>().unwrap_err();
    assert!(e.to_string().contains("z3"), "{e}");
}

#[test]
fn chains_never_land_twice() {
    // White marble on i5 with marbles on i6 and h6/j6 around: a loop back is refused.
    let p = pos("classic-2 white 1 white:i5,i6 black:");
    assert_eq!(
        p.resolve_path(&path("i5-i7-i5")).unwrap_err(),
        IllegalMove::LandsTwice(hole("i5"))
    );
}

#[test]
fn a_marble_in_its_goal_stays_there() {
    // White's goal is black's point; f14 is in it, f13 is not.
    let p = pos("classic-2 white 40 white:f14,i9 black:m5 made:39,39");
    assert_eq!(
        p.resolve_path(&path("f14-f13")).unwrap_err(),
        IllegalMove::LeavesGoal(hole("f13"))
    );
    assert!(
        dests(&p, "f14")
            .iter()
            .all(|h| ["e14", "e15", "f15", "g14"].contains(&h.as_str())),
        "{:?}",
        dests(&p, "f14")
    );
}

#[test]
fn canonical_path_is_shortest_and_any_valid_path_is_accepted() {
    // White on i5; marbles on i6, h7... build a position where two chains reach the same hole.
    let p = pos("classic-2 white 1 white:i5,i6,j7,h8,i8 black:");
    let long = p.resolve_path(&path("i5-i7-k7-i9"));
    let short_moves: Vec<_> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == hole("i5") && m.to == hole("i9"))
        .collect();
    assert_eq!(short_moves.len(), 1, "one move per destination");
    if let Ok(mv) = long {
        assert_eq!(mv, short_moves[0]);
    }
    let canon = p.path_of(&short_moves[0]);
    assert_eq!(canon.to_string(), "i5-i7-i9");
}

#[test]
fn long_jumps_pass_rows_of_marbles() {
    let p = pos("long-2 white 1 white:i5,i6,i7 black:");
    assert!(dests(&p, "i5").contains(&"i8".to_string()));
    // A row that runs to the edge of the star (i13 is the last hole of line i) gives no jump.
    let q = pos("long-2 white 1 white:i5,i6,i7,i8,i9,i10,i11,i12,i13 black:");
    assert!(
        dests(&q, "i5").iter().all(|h| !h.starts_with('i')),
        "{:?}",
        dests(&q, "i5")
    );
    assert!(q.resolve_path(&path("i5-i8")).is_err());
}

#[test]
fn symmetric_jumps_land_as_far_beyond() {
    let p = pos("symmetric-2 white 1 white:i5,i7 black:");
    assert!(dests(&p, "i5").contains(&"i9".to_string()));
    let blocked = pos("symmetric-2 white 1 white:i5,i7,i8 black:");
    assert!(!dests(&blocked, "i5").contains(&"i9".to_string()));
}

#[test]
fn fifteen_marbles_start_on_the_wider_home() {
    let p = Position::start(Variant::Fifteen2);
    assert_eq!(p.marbles(stella_engine::Colour::White).count(), 15);
    assert!(p.marbles(stella_engine::Colour::White).contains(hole("i5")));
    assert_eq!(p.legal_moves().len(), 18);
}

#[test]
fn masters_swap_sends_the_other_marble_back() {
    let mut p = pos("masters-2 white 40 white:f13 black:f14 made:39,39");
    let swap = p
        .legal_moves()
        .into_iter()
        .find(|m| m.to == hole("f14"))
        .expect("swap offered");
    assert_eq!(swap.swap, Some(hole("f13")));
    p.play(&swap).unwrap();
    assert!(p
        .marbles(stella_engine::Colour::Black)
        .contains(hole("f13")));
    assert!(p
        .marbles(stella_engine::Colour::White)
        .contains(hole("f14")));
}
