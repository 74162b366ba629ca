//! Arrival, places, the deadline, the two-player last move, limits, repetition,
//! resignation and time forfeits (docs/rules.md §4–§8).

use crate::common::*;
use stella_engine::{Colour::*, EndReason, Game, IllegalMove, Position, Variant};

const NEAR_END: &str = "classic-2 white 40 white:e13,e15,e16,e17,f14,f15,f16,g14,g15,h14 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m5 made:39,39";

#[test]
fn black_gets_the_last_move_and_can_draw() {
    let mut g = Game::from_position(pos(NEAR_END));
    play_all(&mut g, &["e13-e14"]);
    assert!(!g.is_over(), "black still moves in this round");
    assert!(g.position().has_arrived(White));
    play_all(&mut g, &["m5-m4"]);
    let o = g.outcome().unwrap();
    assert!(o.is_draw(), "{o}");
    assert_eq!(o.reason, EndReason::Arrived);
}

#[test]
fn white_wins_when_black_does_not_arrive_too() {
    let mut g = Game::from_position(pos(NEAR_END));
    play_all(&mut g, &["e13-e14", "m5-l5"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.place_of(White), Some(1));
    assert_eq!(o.place_of(Black), Some(2));
}

#[test]
fn black_arriving_first_wins_at_once() {
    let s = "classic-2 black 40 white:e13,e15,e16,e17,f14,f15,f16,g14,g15,h13 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m5 made:40,39";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["m5-m4"]);
    assert_eq!(g.outcome().unwrap().winners(), vec![Black]);
}

#[test]
fn anti_block_counts_only_after_the_deadline() {
    // Black left a marble on e17 (white's goal). White fills every other hole.
    let after = "classic-2 white 40 white:e13,e15,e16,f14,f15,f16,g14,g15,h14,i9 black:e17,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";
    let mut g = Game::from_position(pos(after));
    play_all(&mut g, &["e13-e14"]);
    assert!(
        g.position().has_arrived(White),
        "goal full with white marbles in it"
    );
    let before = "classic-2 white 20 white:e13,e15,e16,f14,f15,f16,g14,g15,h14,i9 black:e17,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:19,19";
    let mut g = Game::from_position(pos(before));
    play_all(&mut g, &["e13-e14"]);
    assert!(
        !g.position().has_arrived(White),
        "before the deadline all ten must be in"
    );
}

#[test]
fn breaking_the_deadline_loses_with_two_players() {
    // White's 30th move leaves m1 at home although it could step out.
    let s = "classic-2 white 30 white:m1,e15,e16,f14,f15,f16,g14,g15,h14,i9 black:i5,j5,k5,l5,e5,f5,g5,h5,i8,j8 made:29,29";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["i9-i10"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Eliminated);
    assert_eq!(o.winners(), vec![Black]);
}

#[test]
fn a_blocked_marble_at_home_is_excused() {
    // m1 is walled in by black marbles on l2, m2, k3, m3: no move out, no elimination.
    let s = "classic-2 white 30 white:m1,e15,e16,f14,f15,f16,g14,g15,h14,i9 black:l2,m2,k3,m3,l4,i5,j5,k5,e5,i8 made:29,29";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["i9-i10"]);
    assert!(!g.is_over());
    assert!(!g.position().is_eliminated(White));
}

#[test]
fn going_home_after_the_deadline_is_flagged_and_eliminates() {
    let s = "classic-3 white 32 white:j5,e15,e16,f14,f15,f16,g14,g15,h14,i9 blue:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 yellow:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 made:31,31,31";
    let mut g = Game::from_position(pos(s));
    let home_move = g.position().resolve_path(&path("j5-j4")).unwrap();
    assert!(g.would_eliminate(&home_move));
    g.play_path(&path("j5-j4")).unwrap();
    let p = g.position();
    assert!(p.is_eliminated(White));
    assert_eq!(p.place(White), 3, "worst free place");
    assert!(
        p.marbles(White).is_empty(),
        "marbles removed with 3 or more players"
    );
    assert!(!g.is_over());
}

#[test]
fn an_excused_marble_moves_inside_its_home_without_penalty() {
    // After the deadline m1 is still at home, so it was excused there: it may
    // step to m2 on its way out.
    let s = "classic-2 white 31 white:m1,i9 black:l2,k3,m3,e17 made:30,30";
    let mut g = Game::from_position(pos(s));
    let inside = g.position().resolve_path(&path("m1-m2")).unwrap();
    assert!(!g.would_eliminate(&inside), "no confirmation to ask");
    play_all(&mut g, &["m1-m2"]);
    assert!(!g.is_over());
    assert!(!g.position().is_eliminated(White));
    assert_eq!(g.turn(), Black);
}

#[test]
fn a_walled_in_marble_works_its_way_out_after_the_deadline() {
    // m1 is walled in by black at the deadline move and excused; black then
    // opens m2 and white's marble walks through its home and out.
    let s = "classic-2 white 30 white:m1,e15,e16,f14,f15,f16,g14,g15,h14,i9 black:l2,m2,k3,m3,l4,i5,j5,k5,e5,i8 made:29,29";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["i9-i10", "m2-l3", "m1-m2", "i8-h8", "m2-m4"]);
    assert!(!g.is_over(), "{:?}", g.outcome());
    assert!(!g.position().is_eliminated(White));
    play_all(&mut g, &["h8-h7", "m4-m5"]);
    assert!(!g.is_over());
    assert!(g.position().marbles(White).contains(hole("m5")));
    // Once out, coming back in is going home after the deadline.
    play_all(&mut g, &["h7-h6"]);
    let back = g.position().resolve_path(&path("m5-m4")).unwrap();
    assert!(g.would_eliminate(&back));
    play_all(&mut g, &["m5-m4"]);
    assert!(g.position().is_eliminated(White));
    assert_eq!(g.outcome().unwrap().winners(), vec![Black]);
}

#[test]
fn a_marble_that_left_and_comes_back_eliminates_with_two_players() {
    let s = "classic-2 white 31 white:j5,i9 black:l2,k3,m3,e17 made:30,30";
    let mut g = Game::from_position(pos(s));
    let back = g.position().resolve_path(&path("j5-j4")).unwrap();
    assert!(g.would_eliminate(&back));
    play_all(&mut g, &["j5-j4"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Eliminated);
    assert_eq!(o.winners(), vec![Black]);
}

#[test]
fn a_move_inside_the_home_before_the_deadline_is_never_flagged() {
    let s = "classic-2 white 10 white:m1,i9 black:l2,k3,m3,e17 made:9,9";
    let g = Game::from_position(pos(s));
    let inside = g.position().resolve_path(&path("m1-m2")).unwrap();
    assert!(!g.would_eliminate(&inside));
}

#[test]
fn an_excused_marble_in_a_fifteen_marble_home_moves_inside_it() {
    // With 15 marbles the home includes the hexagon edge i5-m5.
    let s = "fifteen-2 white 41 white:m1,i9 black:l2,k3,m3,e17 made:40,40";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["m1-m2"]);
    assert!(!g.position().is_eliminated(White));
    assert!(!g.is_over());
}

#[test]
fn only_a_player_still_in_the_game_can_resign_or_flag() {
    let s = "classic-3 white 32 white:j5,e15,e16,f14,f15,f16,g14,g15,h14,i9 blue:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 yellow:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 made:31,31,31";
    let mut g = Game::from_position(pos(s));
    g.play_path(&path("j5-j4")).unwrap();
    assert!(g.position().is_eliminated(White));
    let before = g.position().to_string();
    assert_eq!(g.resign(White), Err(IllegalMove::NotInGame(White)));
    assert_eq!(g.time_out(White), Err(IllegalMove::NotInGame(White)));
    assert!(!g.is_over(), "a refused resignation changes nothing");
    assert_eq!(g.position().to_string(), before);
    g.resign(Blue).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::Resigned(Blue));

    let arrived = "classic-3 blue 30 white:m1,e15,e16,f14,f15,f16,g14,g15,h14,i9 blue:e9,f9,g9,h9,e10,f10,g10,e11,f11,e12 yellow:e5,f5,g5,h5,e6,f6,g6,e7,f7,e8 arrived:yellow places:yellow=1 made:30,29,29";
    let mut g = Game::from_position(pos(arrived));
    let e = g.resign(Yellow).unwrap_err();
    assert_eq!(e, IllegalMove::NotInGame(Yellow));
    assert!(e.to_string().contains("yellow"), "{e}");
    assert!(!g.is_over());
}

#[test]
fn resignation_at_a_table_of_three_ends_it_for_everyone() {
    let mut g = Game::new(Variant::Classic3);
    play_all(&mut g, &["m3-m5"]);
    g.resign(Blue).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Resigned(Blue));
    assert_eq!(o.place_of(Blue), Some(3));
    assert_eq!(o.place_of(White), Some(1), "white is closer to its goal");
    assert_eq!(o.place_of(Yellow), Some(2));
    assert!(
        g.play_path(&path("m10-l9")).is_err(),
        "no move after the end"
    );
}

#[test]
fn timeout_with_two_players_is_a_loss() {
    let mut g = Game::new(Variant::Classic2);
    g.time_out(White).unwrap();
    assert_eq!(g.outcome().unwrap().winners(), vec![Black]);
    assert_eq!(g.outcome().unwrap().reason, EndReason::TimeForfeit(White));
}

#[test]
fn threefold_repetition_ends_the_game_as_a_tie_at_the_start() {
    let mut g = Game::new(Variant::Classic2);
    play_all(
        &mut g,
        &[
            "j4-i5", "e14-e13", "i5-j4", "e13-e14", "j4-i5", "e14-e13", "i5-j4",
        ],
    );
    assert!(!g.is_over());
    play_all(&mut g, &["e13-e14"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Repetition);
    assert!(o.is_draw(), "same progress on both sides: {o}");
}

#[test]
fn round_limit_places_by_marbles_in_goal() {
    let s = "classic-2 black 150 white:e14,e15,j5,k5,l5,m5,i6,j6,k6,l6 black:m1,i9,i10,i11,i12,e9,f9,g9,h9,j9 made:150,149";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["i9-h10"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::RoundLimit);
    assert_eq!(o.winners(), vec![White], "two in goal beat one: {o}");
}

#[test]
fn a_player_who_cannot_move_is_skipped() {
    // Blue's only marble sits on its tip a13, walled in by white marbles on
    // b12 and b13 with the landings c11 and c13 taken too: blue is skipped.
    let s = "classic-3 white 5 white:i5,b12,b13,c11,c13 blue:a13 yellow:m10";
    let mut g = Game::from_position(pos(s));
    assert!(!g.position().has_move(Blue));
    play_all(&mut g, &["i5-i6"]);
    assert_eq!(g.turn(), Yellow);
    assert_eq!(g.position().round(), 5);
    play_all(&mut g, &["m10-l10"]);
    assert_eq!(g.turn(), White);
    assert_eq!(g.position().round(), 6);
}

#[test]
fn a_marble_in_a_foreign_point_cannot_step_within_it() {
    // e5 is red's tip: its neighbours f5 and e6 are red's point too.
    let p = pos("classic-2 white 1 white:e5 black:e17");
    assert!(dests(&p, "e5").is_empty());
}

#[test]
fn teams_are_placed_together() {
    // pairs-2x2: white and black against red and yellow. White has arrived already;
    // black's last marble steps in: the team takes first place.
    let s = "pairs-2x2 black 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 red:i9 black:j4,k3,k4,l2,l3,l4,m1,m2,m3,m5 yellow:h8 arrived:white made:40,39,39,39";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["m5-m4"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.place_of(White), Some(1));
    assert_eq!(o.place_of(Black), Some(1));
    assert_eq!(o.place_of(Red), Some(2));
    assert_eq!(o.place_of(Yellow), Some(2));
}

#[test]
fn finished_position_strings_round_trip() {
    let mut g = Game::from_position(pos(NEAR_END));
    play_all(&mut g, &["e13-e14", "m5-m4"]);
    let s = g.position().to_string();
    assert!(s.contains("over:arrived"), "{s}");
    assert_eq!(s.parse::<Position>().unwrap(), *g.position());
}

#[test]
fn the_solitaire_goes_on_until_white_arrives() {
    let mut g = Game::new(Variant::Solo);
    play_all(&mut g, &["m3-m5", "m5-m6"]);
    assert!(!g.is_over());
    assert_eq!(g.position().round(), 3);
    let near = "solo white 20 white:e13,e15,e16,e17,f14,f15,f16,g14,g15,h14 made:19";
    let mut g = Game::from_position(pos(near));
    play_all(&mut g, &["e13-e14"]);
    assert_eq!(g.outcome().unwrap().places, vec![(White, 1)]);
}

#[test]
fn an_elimination_that_leaves_one_player_ends_the_game() {
    // classic-3: yellow already arrived (place 1); white breaks the deadline
    // and takes place 3; blue is the only one left and takes place 2.
    let s = "classic-3 white 30 white:m1,e15,e16,f14,f15,f16,g14,g15,h14,i9 blue:e9,f9,g9,h9,e10,f10,g10,e11,f11,e12 yellow:e5,f5,g5,h5,e6,f6,g6,e7,f7,e8 arrived:yellow places:yellow=1 made:29,29,29";
    let mut g = Game::from_position(pos(s));
    play_all(&mut g, &["i9-i10"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Eliminated);
    assert_eq!(
        (o.place_of(Yellow), o.place_of(Blue), o.place_of(White)),
        (Some(1), Some(2), Some(3))
    );
}
