//! Levels: determinism, never an eliminating move, deadlines, games finish.

use stella_ai::race::Problem;
use stella_ai::{Clock, FrozenClock, Limits, Request, Searcher, Settings, StepClock};
use stella_engine::{Colour, Game, Position, Variant};

fn midgame() -> Position {
    let mut game = Game::new(Variant::Classic2);
    for m in ["m3-m5", "e15-e13", "k3-k5", "g15-g13", "j4-j5", "f15-h13"] {
        game.play_path(&m.parse().unwrap()).unwrap();
    }
    *game.position()
}

#[test]
fn every_level_is_deterministic_given_a_seed() {
    let pos = midgame();
    for level in 1..=4 {
        let a = Request::new(&pos, level, 7).choose(&FrozenClock).unwrap();
        let b = Request::new(&pos, level, 7).choose(&FrozenClock).unwrap();
        assert_eq!(a, b, "level {level}");
        assert!(pos.legal_moves().contains(&a));
    }
}

#[test]
fn never_an_eliminating_move_while_another_exists() {
    // White has made 35 moves (past the deadline of 30): stepping back into
    // its home would eliminate it, and a search that counts rows might like
    // the marble on j5 going home otherwise.
    let pos: Position = "classic-2 white 36 white:e14,e15,e16,f14,f15,g14,j5,k6,h13,i12 black:m1,l2,m2,k3,l3,m3,k4,l4,j7,i7 made:35,35"
        .parse()
        .unwrap();
    for level in 1..=4 {
        for seed in 0..2 {
            let mv = Request::new(&pos, level, seed)
                .choose(&FrozenClock)
                .unwrap();
            assert!(!pos.would_eliminate(&mv), "level {level} seed {seed}");
        }
    }
}

#[test]
fn a_movetime_search_stops_on_time() {
    let pos = midgame();
    let clock = StepClock::new(1.0);
    let mut s = Searcher::new(Settings::default());
    let start = clock.now_ms();
    let r = s.search(&pos, Limits::movetime(30), &clock).unwrap();
    let spent = clock.now_ms() - start;
    assert!(spent <= 40.0, "spent {spent} ms");
    assert!(pos.legal_moves().contains(&r.best));
}

#[test]
fn low_levels_finish_a_two_player_game() {
    let mut game = Game::new(Variant::Classic2);
    let mut hashes = vec![game.position().hash()];
    while !game.is_over() {
        let level = if game.turn() == Colour::White { 1 } else { 2 };
        let mv = Request::new(game.position(), level, game.moves().len() as u64)
            .history(&hashes)
            .choose(&FrozenClock)
            .expect("a move");
        assert!(
            !game.would_eliminate(&mv)
                || game.legal_moves().iter().all(|m| game.would_eliminate(m))
        );
        game.play(&mv).unwrap();
        hashes.push(game.position().hash());
    }
    let outcome = game.outcome().unwrap();
    assert!(
        game.moves().len() < 300,
        "{} moves, {}",
        game.moves().len(),
        outcome.reason
    );
}

#[test]
fn a_three_player_game_finishes() {
    let mut game = Game::new(Variant::Classic3);
    while !game.is_over() {
        let mv = Request::new(game.position(), 1, game.moves().len() as u64)
            .choose(&FrozenClock)
            .unwrap();
        game.play(&mv).unwrap();
    }
    assert!(game.outcome().is_some());
}

#[test]
fn the_solitaire_is_crossed() {
    let start = Position::start(Variant::Solo);
    let problem = Problem::of(&start);
    let plan = problem
        .solve(&FrozenClock, f64::INFINITY, 64)
        .expect("a crossing");
    let mut mine = start.marbles(Colour::White);
    for mv in &plan {
        let mut legal = false;
        problem.for_each_move(mine, |m| legal |= m == *mv);
        assert!(legal);
        mine = mine.without(mv.from).with(mv.to);
    }
    assert!(problem.solved(mine));
    assert!(plan.len() <= 35, "{} moves", plan.len());
}

#[test]
fn level_eight_keeps_to_its_caps_at_every_table_size() {
    // Each reading of this clock is a millisecond later than the one before,
    // so the cap, not the work budget, ends these searches: the native cap
    // without a limit of the caller's, the browser's when it passes that.
    let eight = stella_ai::Level::get(8);
    for (max_ms, cap) in [(None, eight.cap_ms), (Some(eight.browser_cap_ms), 1_000)] {
        for variant in [Variant::Classic2, Variant::Classic3, Variant::Classic6] {
            let game = Game::new(variant);
            let clock = StepClock::new(1.0);
            let mv = stella_ai::best_move_in_game(&game, 8, 1, &clock, max_ms).expect("a move");
            assert!(game.position().legal_moves().contains(&mv));
            let spent = clock.now_ms();
            assert!(
                spent <= cap as f64 * 1.05,
                "{variant} under {max_ms:?}: {spent} readings"
            );
            if variant != Variant::Classic2 {
                assert!(
                    spent >= cap as f64,
                    "{variant} under {max_ms:?}: {spent} readings"
                );
            }
        }
    }
}
