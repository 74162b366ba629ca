//! `stella-lab match` and `stella-lab tally` end to end.

use crate::common::lab as stella;

fn line_after<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} line in {out}"))
}

#[test]
fn a_short_match_reports_score_elo_and_length_and_saves_records() {
    let dir = std::env::temp_dir().join(format!("stella-match-{}", std::process::id()));
    let dir_text = dir.to_string_lossy().into_owned();
    let (ok, out, err) = stella(&[
        "match",
        "--one",
        "level:2:brs",
        "--two",
        "greedy",
        "--games",
        "2",
        "--records",
        &dir_text,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("score level:2:brs "), "{out}");
    assert!(out.contains("\nelo "), "{out}");
    assert!(out.contains("moves a side"), "{out}");
    // Piped, the progress bar is hidden: one line a finished game instead.
    assert!(err.contains("game 2/2: score "), "{err}");
    for i in 1..=2 {
        let record = std::fs::read_to_string(dir.join(format!("game-000{i}.txt"))).unwrap();
        let parsed = stella_engine::Record::parse(&record).unwrap();
        assert!(parsed.replay().unwrap().is_over());
    }
    // Tallied from the saved records, the score is the match's own.
    let (ok, tally, err) = stella(&["tally", "--player", "level:2:brs", &dir_text]);
    assert!(ok, "{err}");
    assert_eq!(
        line_after(&tally, "score "),
        line_after(&out, "score "),
        "{tally}"
    );
    assert_eq!(line_after(&tally, "elo "), line_after(&out, "elo "));
    assert!(
        tally.starts_with("level:2:brs vs greedy, 2 games"),
        "{tally}"
    );
    // Two runs compared with themselves game by game, the `--against`
    // runs named after one `--against` as after two: no difference.
    for against in [
        &["--against", &dir_text, &dir_text][..],
        &["--against", &dir_text, "--against", &dir_text][..],
    ] {
        let mut args = vec!["tally", "--player", "level:2:brs", &dir_text, &dir_text];
        args.extend_from_slice(against);
        args.extend_from_slice(&["--against-player", "level:2:brs"]);
        let (ok, paired, err) = stella(&args);
        assert!(ok, "{against:?}: {err}");
        assert!(
            paired.contains("game by game over 4 games: +0.000 a game"),
            "{paired}"
        );
    }
    let (ok, _, err) = stella(&["tally", "--player", "level:3", &dir_text]);
    assert!(!ok);
    assert!(err.contains("no seat is played by \"level:3\""), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_refuses_unknown_players_and_strategies_by_name() {
    let (ok, _, err) = stella(&["match", "--one", "level:3:maxn", "--two", "greedy"]);
    assert!(!ok);
    assert!(err.contains("maxn"), "{err}");
    let (ok, _, err) = stella(&["match", "--one", "level:3:w=1,2", "--two", "greedy"]);
    assert!(!ok);
    assert!(err.contains("8 comma-separated"), "{err}");
}
