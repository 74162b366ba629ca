//! The puzzle set a server serves, checked entry by entry when it is loaded.

use std::collections::HashMap;

use axum::body::Bytes;
use serde::Serialize;
use stella_engine::Position;

use super::check::MAX_ATTEMPT_MOVES;
use super::file::{Puzzle, PuzzleFile, FORMAT};

/// Most puzzles a set may hold.
pub const MAX_PUZZLES: usize = 100_000;

/// Largest puzzle file read, in bytes.
pub const MAX_PUZZLE_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Longest puzzle id.
const MAX_ID_CHARS: usize = 64;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// Why a puzzle set cannot be served.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PuzzleSetError {
    /// The file cannot be read.
    #[error("{0}")]
    Read(String),
    /// The file is not a puzzle file.
    #[error("not a {FORMAT} file: {0}")]
    Format(String),
    /// One entry is wrong.
    #[error("puzzle {index} ({id:?}): {reason}")]
    Entry {
        /// Its place in the file, from 0.
        index: usize,
        /// Its id as written.
        id: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A checked puzzle set.
#[derive(Debug, Clone)]
pub struct PuzzleSet {
    file: PuzzleFile,
    by_id: HashMap<String, usize>,
    /// The file as served (compact JSON), shared by every answer without copying.
    json: Bytes,
}

/// The daily puzzle of a UTC day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Daily {
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    /// The puzzle's id.
    pub id: String,
}

impl PuzzleSet {
    /// An empty set (a server built without the web client and given no file).
    pub fn empty() -> PuzzleSet {
        Self::from_file(PuzzleFile {
            format: FORMAT.to_owned(),
            puzzles: Vec::new(),
        })
        .expect("an empty set is valid")
    }

    /// Reads and checks the puzzle file at `path`.
    pub fn load(path: &std::path::Path) -> Result<PuzzleSet, PuzzleSetError> {
        let read = |e: std::io::Error| PuzzleSetError::Read(format!("{}: {e}", path.display()));
        let size = std::fs::metadata(path).map_err(read)?.len();
        if size > MAX_PUZZLE_FILE_BYTES {
            return Err(PuzzleSetError::Read(format!(
                "{}: {size} bytes, more than the {MAX_PUZZLE_FILE_BYTES} a puzzle file may have",
                path.display()
            )));
        }
        Self::parse(&std::fs::read_to_string(path).map_err(read)?)
    }

    /// Parses and checks a puzzle file's text.
    pub fn parse(text: &str) -> Result<PuzzleSet, PuzzleSetError> {
        let file: PuzzleFile =
            serde_json::from_str(text).map_err(|e| PuzzleSetError::Format(e.to_string()))?;
        Self::from_file(file)
    }

    /// Checks a parsed puzzle file: its format, the number of puzzles, and each entry
    /// (a unique id of letters, digits, `-` and `_`; a position that parses with its
    /// player still to finish; 1 to [`MAX_ATTEMPT_MOVES`] moves; a finite rating).
    pub fn from_file(file: PuzzleFile) -> Result<PuzzleSet, PuzzleSetError> {
        if file.format != FORMAT {
            return Err(PuzzleSetError::Format(format!(
                "the format is {:?}",
                file.format
            )));
        }
        if file.puzzles.len() > MAX_PUZZLES {
            return Err(PuzzleSetError::Format(format!(
                "{} puzzles, more than {MAX_PUZZLES}",
                file.puzzles.len()
            )));
        }
        let mut by_id = HashMap::with_capacity(file.puzzles.len());
        for (index, p) in file.puzzles.iter().enumerate() {
            let bad = |reason: String| PuzzleSetError::Entry {
                index,
                id: p.id.clone(),
                reason,
            };
            check_entry(p).map_err(bad)?;
            if by_id.insert(p.id.clone(), index).is_some() {
                return Err(bad("the id is used twice".into()));
            }
        }
        let json = Bytes::from(serde_json::to_vec(&file).expect("a puzzle file serialises"));
        Ok(PuzzleSet { file, by_id, json })
    }

    /// The puzzles, in file order.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.file.puzzles
    }

    /// The puzzle called `id`.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.file.puzzles[i])
    }

    /// The file as served (compact JSON): a JSON object.
    pub fn json(&self) -> &Bytes {
        &self.json
    }

    /// The daily puzzle of the UTC day of `now_ms`: the next one in the file each day,
    /// as the web client picks it offline. None for an empty set.
    pub fn daily(&self, now_ms: i64) -> Option<Daily> {
        let count = self.file.puzzles.len() as i64;
        if count == 0 {
            return None;
        }
        let day = now_ms.div_euclid(DAY_MS);
        let p = &self.file.puzzles[day.rem_euclid(count) as usize];
        Some(Daily {
            day,
            id: p.id.clone(),
        })
    }
}

fn check_entry(p: &Puzzle) -> Result<(), String> {
    if p.id.is_empty()
        || p.id.chars().count() > MAX_ID_CHARS
        || !p
            .id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "the id must be 1 to {MAX_ID_CHARS} letters, digits, '-' or '_'"
        ));
    }
    if !(1..=MAX_ATTEMPT_MOVES).contains(&p.moves) {
        return Err(format!(
            "moves is {}, not 1 to {MAX_ATTEMPT_MOVES}",
            p.moves
        ));
    }
    if !p.rating.is_finite() || !(0.0..=5000.0).contains(&p.rating) {
        return Err(format!("rating {} is not 0 to 5000", p.rating));
    }
    let pos: Position = p
        .position
        .parse()
        .map_err(|e| format!("position {:?}: {e}", p.position))?;
    if pos.is_over() || pos.has_arrived(pos.turn()) {
        return Err("the position has nobody left to finish".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITION: &str = "classic-2 black 63 white:e14,e16,e17,g13,g14,h10,h12,h13,h14,k10 black:i5,j4,k4,k6,l2,l3,l5,l6,m1,m5 made:63,62";

    fn file(entries: &str) -> String {
        format!(r#"{{"format":"stella-puzzles/1","puzzles":[{entries}]}}"#)
    }

    fn entry(id: &str, position: &str, moves: usize) -> String {
        format!(
            r#"{{"id":"{id}","position":"{position}","moves":{moves},"rating":1900,"game":"g","ply":1}}"#
        )
    }

    #[test]
    fn a_good_set_is_indexed_and_has_a_daily_puzzle_per_utc_day() {
        let set = PuzzleSet::parse(&file(&format!(
            "{},{}",
            entry("a-1", POSITION, 5),
            entry("b-2", POSITION, 5)
        )))
        .unwrap();
        assert_eq!(set.puzzles().len(), 2);
        assert_eq!(set.get("b-2").unwrap().moves, 5);
        assert!(set.get("c").is_none());
        // Day 20426 (2025-12-04) is even: the first puzzle, all day long.
        let day = 20_426 * DAY_MS;
        assert_eq!(set.daily(day).unwrap().id, "a-1");
        assert_eq!(set.daily(day + DAY_MS - 1).unwrap().id, "a-1");
        assert_eq!(set.daily(day + DAY_MS).unwrap().id, "b-2");
        assert!(PuzzleSet::empty().daily(day).is_none());
        assert!(PuzzleSet::parse(std::str::from_utf8(set.json()).unwrap()).is_ok());
    }

    #[test]
    fn bad_entries_are_named() {
        let err = |text: String| PuzzleSet::parse(&text).unwrap_err().to_string();
        assert!(
            err(r#"{"format":"other","puzzles":[]}"#.into()).contains("the format is \"other\"")
        );
        assert!(err("[]".into()).starts_with("not a stella-puzzles/1 file"));
        let twice = err(file(&format!(
            "{},{}",
            entry("a", POSITION, 5),
            entry("a", POSITION, 5)
        )));
        assert_eq!(twice, "puzzle 1 (\"a\"): the id is used twice");
        let position = err(file(&entry("p", "classic-2 white 1 nonsense", 3)));
        assert!(
            position.starts_with("puzzle 0 (\"p\"): position"),
            "{position}"
        );
        let moves = err(file(&entry("m", POSITION, 40)));
        assert_eq!(moves, "puzzle 0 (\"m\"): moves is 40, not 1 to 12");
        let id = err(file(&entry("a b", POSITION, 3)));
        assert!(id.starts_with("puzzle 0 (\"a b\"): the id must be"), "{id}");
    }
}
