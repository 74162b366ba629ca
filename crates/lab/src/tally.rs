//! `stella-lab tally`: the score of one player over saved game records (the
//! directories `stella-lab match --records` writes), so that runs with different
//! seeds can be pooled into one score and one Elo interval. With
//! `--against`, each game is also compared with the game of the same name in
//! a second run at the same seed (the same opening, the counted player in
//! the same seat), such as a null run whose `--one` player is the `--two`
//! player under another name: the mean per-game difference and its 95%
//! interval. Records of games that `match` aborted (an `Aborted` tag: an
//! external engine failed) are named and left out, as `match` leaves them out.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use stella_engine::{Colour, Record, Variant};

use crate::score::{ends_line, pairwise_score, Summary};

/// Arguments of `stella-lab tally`.
#[derive(clap::Args)]
pub struct TallyArgs {
    /// The player whose score is counted, as the records' seat tags name it
    /// (what was given to `stella-lab match --one` or `--two`, e.g. `level:5`).
    #[arg(long)]
    player: String,
    /// Record files, or directories whose `.txt` files are records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Directories of a second run to compare with game by game, one for
    /// each of PATHS in the same order (`--against A B` or `--against A
    /// --against B`): game files of the same name pair.
    #[arg(long, num_args = 1.., requires = "against_player")]
    against: Vec<PathBuf>,
    /// The player counted in the `--against` records.
    #[arg(long)]
    against_player: Option<String>,
}

/// One counted game.
#[derive(Debug)]
struct Counted {
    score: f64,
    moves_a_side: f64,
    reason: String,
    opponents: Vec<String>,
}

/// Runs `stella-lab tally`.
pub fn run(args: TallyArgs) -> anyhow::Result<()> {
    let mut runs: Vec<Vec<(PathBuf, Counted)>> = Vec::new();
    let mut aborted = 0;
    for path in &args.paths {
        let mut run = Vec::new();
        for file in record_files(path)? {
            if let Some(why) = aborted_file(&file)? {
                println!("aborted, not counted: {}: {why}", file.display());
                aborted += 1;
                continue;
            }
            let counted = count_file(&file, &args.player)?;
            run.push((file, counted));
        }
        runs.push(run);
    }
    let games: Vec<&Counted> = runs.iter().flatten().map(|(_, c)| c).collect();
    if games.is_empty() {
        if aborted > 0 {
            bail!("all {aborted} records are of aborted games");
        }
        bail!("no record files (*.txt) in the given paths");
    }
    let scores: Vec<f64> = games.iter().map(|g| g.score).collect();
    let summary = Summary::of(&scores).expect("at least one game");
    let mut opponents: Vec<&str> = Vec::new();
    for name in games.iter().flat_map(|g| &g.opponents) {
        if !opponents.contains(&name.as_str()) {
            opponents.push(name);
        }
    }
    let length = games.iter().map(|g| g.moves_a_side).sum::<f64>() / games.len() as f64;
    println!(
        "{} vs {}, {} games",
        args.player,
        opponents.join(", "),
        games.len()
    );
    println!("{}", summary.lines(&args.player));
    println!("average length {length:.1} moves a side");
    println!(
        "ends: {}",
        ends_line(games.iter().map(|g| g.reason.as_str()))
    );
    if let Some(base) = &args.against_player {
        let diffs = paired_differences(&runs, &args.against, base)?;
        println!("{}", Paired::of(&diffs).line(base));
    }
    Ok(())
}

/// The per-game score differences between the counted games of `runs[i]`
/// and `base`'s games of the same file name in `against[i]`.
fn paired_differences(
    runs: &[Vec<(PathBuf, Counted)>],
    against: &[PathBuf],
    base: &str,
) -> anyhow::Result<Vec<f64>> {
    if runs.len() != against.len() {
        bail!(
            "--against names {} runs for {} paths: give one for each, in the same order",
            against.len(),
            runs.len()
        );
    }
    let mut diffs = Vec::new();
    for (run, base_run) in runs.iter().zip(against) {
        for (file, counted) in run {
            let Some(name) = file.file_name() else {
                continue;
            };
            let twin = base_run.join(name);
            if twin.exists() && aborted_file(&twin)?.is_none() {
                diffs.push(counted.score - count_file(&twin, base)?.score);
            }
        }
    }
    if diffs.is_empty() {
        bail!("no game file of the paths has a twin of the same name in --against");
    }
    Ok(diffs)
}

/// The mean of paired per-game score differences with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Paired {
    games: usize,
    mean: f64,
    low: f64,
    high: f64,
}

impl Paired {
    /// The summary of `diffs` (at least one).
    fn of(diffs: &[f64]) -> Paired {
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = if diffs.len() > 1 {
            diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let half = 1.96 * (var / n).sqrt();
        Paired {
            games: diffs.len(),
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// One line of output.
    fn line(&self, base: &str) -> String {
        format!(
            "against {base}, game by game over {} games: {:+.3} a game (95% {:+.3} .. {:+.3})",
            self.games, self.mean, self.low, self.high
        )
    }
}

/// The record files at `path`: the file itself, or a directory's `.txt`
/// files in name order.
fn record_files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        if !path.exists() {
            bail!("{}: no such file or directory", path.display());
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("reading {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    Ok(files)
}

/// The score of `player` in the record file `file`.
/// The `Aborted` tag of the record in `file`, if it has one.
fn aborted_file(file: &Path) -> anyhow::Result<Option<String>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let record = Record::parse(&text)
        .context("not a game record")
        .with_context(|| format!("{}", file.display()))?;
    Ok(record.tag("Aborted").map(String::from))
}

fn count_file(file: &Path, player: &str) -> anyhow::Result<Counted> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    count(&text, player).with_context(|| format!("{}", file.display()))
}

/// The score of `player` in the record `text`.
fn count(text: &str, player: &str) -> anyhow::Result<Counted> {
    let record = Record::parse(text).context("not a game record")?;
    let variant: Variant = record
        .tag("Variant")
        .context("no Variant tag")?
        .parse()
        .context("Variant tag")?;
    let teams = variant.teams();
    let name_of = |c: Colour| record.tag(Record::seat_tag(c)).unwrap_or("").to_string();
    let mine: Vec<usize> = (0..teams.len())
        .filter(|&i| name_of(teams[i][0]) == player)
        .collect();
    let unit = match mine.as_slice() {
        [one] => *one,
        [] => {
            let seats: Vec<String> = variant
                .seats()
                .iter()
                .map(|&c| format!("{c} {:?}", name_of(c)))
                .collect();
            bail!(
                "no seat is played by {player:?} (seats: {})",
                seats.join(", ")
            )
        }
        _ => bail!("{player:?} plays more than one side: its score against itself means nothing"),
    };
    if record.tag("Result").is_none() {
        bail!("no Result tag");
    }
    let places = record
        .places()?
        .context("the game is not finished (Result *)")?;
    let opponents = (0..teams.len())
        .filter(|&i| i != unit)
        .map(|i| name_of(teams[i][0]))
        .collect();
    Ok(Counted {
        score: pairwise_score(&places, &teams, unit),
        moves_a_side: record.moves.len() as f64 / variant.players() as f64,
        reason: record.tag("Reason").unwrap_or("unknown").to_string(),
        opponents,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A classic-3 record: level 5 in the first seat, second of three.
    fn three(result: &str) -> String {
        let seats = Variant::Classic3.seats();
        format!(
            "[Variant \"classic-3\"]\n[{} \"level:5\"]\n[{} \"level:4\"]\n[{} \"level:4\"]\n\
             [Result \"{result}\"]\n[Reason \"arrived\"]\n\n",
            Record::seat_tag(seats[0]),
            Record::seat_tag(seats[1]),
            Record::seat_tag(seats[2]),
        )
    }

    fn placed() -> String {
        let seats = Variant::Classic3.seats();
        format!(
            "{}=2 {}=1 {}=3",
            seats[0].name(),
            seats[1].name(),
            seats[2].name()
        )
    }

    #[test]
    fn a_record_scores_the_players_pairwise_placings() {
        let c = count(&three(&placed()), "level:5").unwrap();
        assert_eq!(c.score, 0.5);
        assert_eq!(c.reason, "arrived");
        assert_eq!(c.opponents, vec!["level:4", "level:4"]);
        assert_eq!(c.moves_a_side, 0.0);
    }

    #[test]
    fn paired_runs_compare_games_of_the_same_name() {
        let dir = std::env::temp_dir().join(format!("stella-tally-{}", std::process::id()));
        let (run, null) = (dir.join("run"), dir.join("null"));
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(&null).unwrap();
        let seats = Variant::Classic3.seats();
        let result = |first: u8| {
            let (a, b) = if first == 1 { (2, 3) } else { (1, 3) };
            format!(
                "{}={first} {}={a} {}={b}",
                seats[0].name(),
                seats[1].name(),
                seats[2].name()
            )
        };
        // The run's player wins both games; the null run's first and second.
        std::fs::write(run.join("game-0001.txt"), three(&result(1))).unwrap();
        std::fs::write(run.join("game-0002.txt"), three(&result(1))).unwrap();
        std::fs::write(run.join("game-0003.txt"), three(&result(1))).unwrap();
        std::fs::write(null.join("game-0001.txt"), three(&result(1))).unwrap();
        std::fs::write(null.join("game-0002.txt"), three(&result(2))).unwrap();
        let counted: Vec<(PathBuf, Counted)> = record_files(&run)
            .unwrap()
            .into_iter()
            .map(|f| {
                let c = count_file(&f, "level:5").unwrap();
                (f, c)
            })
            .collect();
        let runs = vec![counted];
        let diffs = paired_differences(&runs, std::slice::from_ref(&null), "level:5").unwrap();
        assert_eq!(diffs, vec![0.0, 0.5], "game 3 has no twin");
        let p = Paired::of(&diffs);
        assert_eq!((p.games, p.mean), (2, 0.25));
        assert!(p.low < 0.25 && p.high > 0.25);
        let err = paired_differences(&runs, &[null.clone(), null], "level:5").unwrap_err();
        assert!(format!("{err}").contains("2 runs for 1 paths"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_records_are_refused_with_what_is_wrong() {
        let err = |text: &str, player: &str| format!("{:#}", count(text, player).unwrap_err());
        let good = three(&placed());
        assert!(err(&good, "level:6").contains("no seat is played by \"level:6\""));
        assert!(err(&good, "level:4").contains("more than one side"));
        assert!(err(&three("*"), "level:5").contains("not finished"));
        let first = Variant::Classic3.seats()[0].name();
        assert!(err(&three(&format!("{first}=1")), "level:5").contains("no place for"));
        assert!(err(&three("white=x"), "level:5").contains("white=x"));
        assert!(err(&three("purple=1"), "level:5").contains("names no colour"));
        assert!(err("[Variant \"nonsense\"]\n", "level:5").contains("Variant"));
    }
}
