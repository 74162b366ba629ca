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

#[test]
fn a_match_on_the_cpu_clock_plays_capped_levels_to_the_end() {
    let (ok, out, err) = stella(&[
        "match",
        "--variant",
        "classic-3",
        "--one",
        "level:8",
        "--two",
        "greedy",
        "--games",
        "1",
        "--concurrency",
        "1",
        "--movetime",
        "20",
        "--cpu-clock",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("score level:8 "), "{out}");
    assert!(out.contains("think level:8: "), "{out}");
    // A cap read on the CPU clock and no cap at all cannot go together.
    let (ok, _, err) = stella(&[
        "match",
        "--one",
        "level:1",
        "--two",
        "greedy",
        "--cpu-clock",
        "--budget-only",
    ]);
    assert!(!ok);
    assert!(err.contains("--budget-only"), "{err}");
}

/// An engine that answers every position holding moves the way an engine
/// with other rules does: it rejects one of the game's moves.
const REJECTING_ENGINE: &str = r#"while read -r cmd rest; do
  case "$cmd" in
    go) echo 'error illegal move "f7-f5"' ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn a_game_an_engine_rejects_is_aborted_and_the_match_goes_on() {
    let dir = std::env::temp_dir().join(format!("stella-abort-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("rejecting.sh");
    std::fs::write(&script, REJECTING_ENGINE).unwrap();
    let engine = format!("cmd:sh {}", script.display());
    let aborted_dir = dir.join("aborted");
    let finished_dir = dir.join("finished");
    let (ok, out, err) = stella(&[
        "match",
        "--one",
        "greedy",
        "--two",
        &engine,
        "--games",
        "2",
        "--records",
        &aborted_dir.to_string_lossy(),
    ]);
    assert!(ok, "{err}");
    // Both games were played and aborted: the first did not end the match.
    for game in [1, 2] {
        assert!(
            out.contains(&format!("aborted game {game} after ")),
            "{out}"
        );
        assert!(
            err.contains(&format!("game {game} aborted: {engine}")),
            "{err}"
        );
        let record =
            std::fs::read_to_string(aborted_dir.join(format!("game-000{game}.txt"))).unwrap();
        let parsed = stella_engine::Record::parse(&record).unwrap();
        let why = parsed.tag("Aborted").expect("an Aborted tag");
        assert!(why.contains("engine error: illegal move"), "{why}");
        assert!(!parsed.replay().unwrap().is_over());
    }
    assert!(out.contains("no games finished (2 aborted)"), "{out}");
    // Tallied, aborted records are named and not counted; finished ones are.
    let (ok, _, err) = stella(&[
        "match",
        "--one",
        "greedy",
        "--two",
        "level:1",
        "--games",
        "1",
        "--records",
        &finished_dir.to_string_lossy(),
    ]);
    assert!(ok, "{err}");
    let (ok, tally, err) = stella(&[
        "tally",
        "--player",
        "greedy",
        &aborted_dir.to_string_lossy(),
        &finished_dir.to_string_lossy(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        tally.matches("aborted, not counted: ").count(),
        2,
        "{tally}"
    );
    assert!(tally.contains("greedy vs level:1, 1 games"), "{tally}");
    let (ok, _, err) = stella(&[
        "tally",
        "--player",
        "greedy",
        &aborted_dir.to_string_lossy(),
    ]);
    assert!(!ok);
    assert!(err.contains("all 2 records are of aborted games"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
