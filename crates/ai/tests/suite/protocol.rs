//! The engine protocol on in-memory input and output.

use stella_ai::protocol::run;
use stella_ai::{FrozenClock, StepClock};
use stella_engine::{Game, MovePath, Variant};

fn talk(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out, &FrozenClock).unwrap();
    lines_of(out)
}

/// The lines of an engine's output.
fn lines_of(out: Vec<u8>) -> Vec<String> {
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn go_depth_prints_info_and_a_legal_bestmove() {
    let lines = talk("variant classic-2\nposition startpos moves m3-m5 e15-e13\ngo depth 3\n");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    assert!(infos[2].contains(" pv "));
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let mut game = Game::new(Variant::Classic2);
    for m in ["m3-m5", "e15-e13", best] {
        game.play_path(&m.parse::<MovePath>().unwrap()).unwrap();
    }
}

#[test]
fn bad_lines_get_one_error_each_and_the_engine_keeps_running() {
    let lines = talk(
        "hello\nvariant classic-9\nposition startpos moves m1-m9\ngo depth x\ngo level 9\nposition fen nonsense\nisready\n",
    );
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert!(
        lines[..6].iter().all(|l| l.starts_with("error ")),
        "{lines:?}"
    );
    assert_eq!(lines[6], "readyok");
}

#[test]
fn fen_positions_other_variants_and_quit() {
    let start = stella_engine::Position::start(Variant::Classic3).to_string();
    let lines = talk(&format!(
        "position fen {start} moves m3-m5\nshow\ngo nodes 2000\nquit\nisready\n"
    ));
    assert!(lines[0].starts_with("position classic-3 blue"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert!(!lines.iter().any(|l| l == "readyok"), "quit stops the loop");
}

#[test]
fn clock_fields_by_colour_and_levels() {
    let input = "variant classic-2\nposition startpos\ngo wtime 1000 winc 10 btime 5 binc 0\ngo level 2\nstop\nisready\n";
    let mut out = Vec::new();
    // Each clock reading advances 1 ms: the clock budget ends the first search.
    run(input.as_bytes(), &mut out, &StepClock::new(1.0)).unwrap();
    let lines = lines_of(out);
    let best: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn a_stop_raised_before_a_search_returns_a_legal_move_at_once() {
    use std::sync::atomic::AtomicBool;
    use stella_ai::stop_clock::StopClock;
    use stella_ai::{Limits, Searcher, Settings};
    let pos = stella_engine::Position::start(Variant::Classic2);
    let mut s = Searcher::new(Settings::default());
    let stop = AtomicBool::new(true);
    let clock = StopClock::new(&FrozenClock, &stop);
    let r = s.search(&pos, Limits::depth(60), &clock).unwrap();
    assert!(pos.legal_moves().contains(&r.best));
    assert_eq!(r.depth, 0, "no depth completed");
    let r = s.search(&pos, Limits::depth(2), &FrozenClock).unwrap();
    assert_eq!(r.depth, 2, "the next search is not stopped");
}

#[test]
fn go_level_beyond_two_units_plays_the_level_s_own_move() {
    let moves = ["m3-m5"];
    let lines = talk(&format!(
        "variant classic-3\nseed 7\nposition startpos moves {}\ngo level 3\n",
        moves.join(" ")
    ));
    let mut game = Game::new(Variant::Classic3);
    for m in moves {
        game.play_path(&m.parse::<MovePath>().unwrap()).unwrap();
    }
    let level_move = stella_ai::best_move_in_game(&game, 3, 7, &FrozenClock, None).unwrap();
    let expected = game.position().path_of(&level_move).to_string();
    assert_eq!(lines.last().unwrap(), &format!("bestmove {expected}"));
    assert_eq!(lines[lines.len() - 2], format!("info time 0 pv {expected}"));
}

#[test]
fn a_stop_ends_a_level_s_search_at_every_table_size_and_is_cleared() {
    use std::sync::atomic::Ordering;
    use stella_ai::protocol::Engine;
    // Alpha-beta at two units, the tree search at six.
    for variant in [Variant::Classic2, Variant::Classic6] {
        let mut engine = Engine::new();
        let mut out = Vec::new();
        // Every clock reading advances 1 ms; level 8 unstopped would read
        // it until its native cap of 1.25 s.
        let clock = StepClock::new(1.0);
        engine
            .handle(&format!("variant {variant}"), &mut out, &clock)
            .unwrap();
        let stop = engine.stop_signal();
        stop.store(true, Ordering::SeqCst);
        engine.handle("go level 8", &mut out, &clock).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{variant}: {lines:?}");
        let best = lines[1].strip_prefix("bestmove ").unwrap();
        let mut game = Game::new(variant);
        game.play_path(&best.parse::<MovePath>().unwrap()).unwrap();
        let ms: u64 = lines[0]
            .strip_prefix("info time ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{variant}: {lines:?}"));
        assert!(
            ms < 100,
            "{variant}: stopped at once, not after {ms} clock readings"
        );
        assert!(
            !stop.load(Ordering::SeqCst),
            "{variant}: cleared when the search ended"
        );
    }
}

/// The `info` and `bestmove` lines one `go level 8` of `engine` answers.
fn go_level_8(engine: &mut stella_ai::protocol::Engine) -> Vec<String> {
    let mut out = Vec::new();
    engine.handle("go level 8", &mut out, &FrozenClock).unwrap();
    lines_of(out)
}

/// The path of the move level 8 chooses in `game` with `seed`, searching its
/// whole budget.
fn level_8_path(game: &Game, seed: u64) -> String {
    let mv = stella_ai::best_move_in_game(game, 8, seed, &FrozenClock, None).unwrap();
    game.position().path_of(&mv).to_string()
}

#[test]
fn go_level_at_two_units_plays_the_level_s_own_move_with_depth_lines() {
    use stella_ai::protocol::Engine;
    // One engine through the opening of a game level 4 plays, as an
    // opponent program would use it: the searcher of `go` without `level`
    // keeps its table across moves, the level's own search does not.
    let mut engine = Engine::new();
    let mut sink = Vec::new();
    engine.handle("seed 11", &mut sink, &FrozenClock).unwrap();
    let mut game = Game::new(Variant::Classic2);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..8u64 {
        let command = format!("position startpos moves {}", moves.join(" "));
        engine.handle(&command, &mut sink, &FrozenClock).unwrap();
        let lines = go_level_8(&mut engine);
        let expected = level_8_path(&game, 11);
        assert_eq!(
            lines.last().unwrap(),
            &format!("bestmove {expected}"),
            "ply {ply}"
        );
        let depths = lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .count();
        assert_eq!(depths, lines.len() - 1, "ply {ply}: {lines:?}");
        assert!(depths > 0, "ply {ply}: {lines:?}");
        let mv = stella_ai::best_move_in_game(&game, 4, 5 + ply, &FrozenClock, None).unwrap();
        moves.push(game.position().path_of(&mv).to_string());
        game.play(&mv).unwrap();
    }
    assert!(sink.is_empty(), "{:?}", String::from_utf8(sink));
}

#[test]
fn go_level_in_a_race_plays_the_race_solver_s_move() {
    use stella_ai::protocol::Engine;
    // A two-player game played on by the greedy player until both armies
    // have passed each other.
    let mut game = Game::new(Variant::Classic2);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0.. {
        assert!(!game.is_over(), "no race before the end");
        if stella_ai::race::is_race(game.position()) {
            break;
        }
        let mv = stella_ai::greedy::greedy_move(game.position(), ply).unwrap();
        moves.push(game.position().path_of(&mv).to_string());
        game.play(&mv).unwrap();
    }
    let mut engine = Engine::new();
    let mut sink = Vec::new();
    let command = format!("position startpos moves {}", moves.join(" "));
    engine.handle(&command, &mut sink, &FrozenClock).unwrap();
    let lines = go_level_8(&mut engine);
    let expected = level_8_path(&game, 0);
    assert_eq!(
        lines,
        [
            format!("info time 0 pv {expected}"),
            format!("bestmove {expected}")
        ]
    );
}
