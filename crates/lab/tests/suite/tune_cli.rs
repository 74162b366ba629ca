//! `stella-lab tune` end to end: a short run writes weights that parse, and bad
//! arguments are refused with the argument named.

use crate::common::lab as stella;
use stella_ai::Weights;

#[test]
fn two_iterations_at_level_one_write_weights_that_parse() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tuned.txt");
    let (ok, stdout, stderr) = stella(&[
        "tune",
        "--variant",
        "classic-2",
        "--level",
        "1",
        "--iterations",
        "2",
        "--seed",
        "3",
        "--report-every",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("tuned weights after 2 iterations"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let weights = eight_integers(text.trim());
    assert!(weights[0] > 0, "rows: {text}");
    assert!(stdout.contains(text.trim()), "{stdout}");
}

#[test]
fn a_six_seat_run_holds_what_it_is_told() {
    let (ok, stdout, stderr) = stella(&[
        "tune",
        "--variant",
        "classic-6",
        "--level",
        "3",
        "--hold",
        "drive",
        "--iterations",
        "1",
        "--seed",
        "2",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("at classic-6 level 3"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    let tuned = eight_integers(
        last.strip_prefix("tuned weights after 1 iterations: ")
            .unwrap_or_else(|| panic!("{stdout}")),
    );
    assert_eq!(tuned[7], Weights::DEFAULT.drive, "drive was held");
}

#[test]
fn bad_arguments_are_refused_by_name() {
    for (args, name) in [
        (&["tune", "--level", "9"][..], "--level"),
        (&["tune", "--iterations", "0"][..], "--iterations"),
        (&["tune", "--start", "1,2,3"][..], "--start"),
        (&["tune", "--variant", "solo"][..], "--variant"),
        (&["tune", "--hold", "speed"][..], "--hold"),
    ] {
        let (ok, _, stderr) = stella(args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains(name), "{args:?}: {stderr}");
    }
}

/// The eight comma-separated integers of a weights line (rows … drive).
fn eight_integers(text: &str) -> Vec<i32> {
    let values: Vec<i32> = text
        .split(',')
        .map(|v| v.trim().parse().unwrap_or_else(|_| panic!("{text}")))
        .collect();
    assert_eq!(values.len(), 8, "{text}");
    values
}
