//! Reading game records (from `stella-lab match --records DIR`) for the examples.

use stella_engine::{Game, Record};

/// The record in `file` and its game replayed, or an error naming the file.
pub fn read(file: &str) -> Result<(Record, Game), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let record = Record::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    let game = record.replay().map_err(|e| format!("{file}: {e}"))?;
    Ok((record, game))
}
