//! Runs the perft data files in `tests/perft/` (repository root).
//! Depths whose count exceeds the node budget are left to `--ignored`.

use stella_engine::{perft, Position, Variant};

const BUDGET: u64 = 5_000_000;

fn run_file(name: &str, budget: u64) -> usize {
    let path = format!("{}/../../tests/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (position, counts) = line.split_once(';').expect("POSITION ; COUNTS");
        let position = position.trim();
        let pos = match position.strip_prefix("startpos ") {
            Some(v) => Position::start(v.parse::<Variant>().unwrap()),
            None => position
                .parse::<Position>()
                .unwrap_or_else(|e| panic!("{position}: {e}")),
        };
        if !position.starts_with("startpos ") {
            assert_eq!(
                pos.to_string(),
                position,
                "position strings print back as read"
            );
        }
        for (d, expected) in counts.split_whitespace().enumerate() {
            let expected: u64 = expected.parse().unwrap();
            if expected > budget {
                break;
            }
            assert_eq!(
                perft(&pos, d as u32 + 1),
                expected,
                "{position} depth {}",
                d + 1
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn start_positions_match_the_reference_counts() {
    assert!(run_file("start.perft", BUDGET) >= 25);
}

#[test]
fn midgame_positions() {
    assert!(run_file("midgame.perft", BUDGET) >= 60);
}

#[test]
#[ignore = "deep counts; run with --ignored in release"]
fn all_depths() {
    run_file("start.perft", u64::MAX);
    run_file("midgame.perft", u64::MAX);
}
