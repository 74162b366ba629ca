//! Game records: a PGN-like text with tag lines and the numbered move list
//! (docs/record-format.md). Import replays and validates every move.
//!
//! ```
//! use stella_engine::{Game, Record, Variant};
//! let mut game = Game::new(Variant::Classic2);
//! game.play_path(&"m3-m5".parse().unwrap()).unwrap();
//! game.play_path(&"e15-e13".parse().unwrap()).unwrap();
//! let text = Record::from_game(&game, &[("White", "ana"), ("Black", "bo")]).to_string();
//! let back = Record::parse(&text).unwrap().replay().unwrap();
//! assert_eq!(back.position(), game.position());
//! ```

use crate::colour::Colour;
use crate::error::{IllegalMove, ParseError};
use crate::game::Game;
use crate::moves::MovePath;
use crate::outcome::EndReason;
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;

/// A game record: tags and moves as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in order, like `("Variant", "classic-2")`.
    pub tags: Vec<(String, String)>,
    /// The moves as paths, in order.
    pub moves: Vec<MovePath>,
}

/// Why a record could not be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text does not parse.
    Parse(ParseError),
    /// Move number `index` (from 1) is illegal where it stands.
    Illegal {
        /// Position of the move in the list, from 1.
        index: usize,
        /// The move as written.
        path: String,
        /// Why it is illegal.
        reason: IllegalMove,
    },
    /// The tags disagree with the replayed game.
    Mismatch(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Parse(e) => write!(f, "{e}"),
            RecordError::Illegal {
                index,
                path,
                reason,
            } => write!(f, "move {index} ({path}) is illegal: {reason}"),
            RecordError::Mismatch(s) => write!(f, "record does not match its game: {s}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<ParseError> for RecordError {
    fn from(e: ParseError) -> Self {
        RecordError::Parse(e)
    }
}

impl Record {
    /// The record of `game`, with extra tags (players, date, time control…).
    /// `Variant`, `Start` (when not the standard start), `Result` and `Reason`
    /// come from the game itself.
    pub fn from_game(game: &Game, extra: &[(&str, &str)]) -> Record {
        let mut tags = vec![("Variant".to_string(), game.variant().id().to_string())];
        for (k, v) in extra {
            tags.push((k.to_string(), v.to_string()));
        }
        if *game.start() != Position::start(game.variant()) {
            tags.push(("Start".into(), game.start().to_string()));
        }
        match game.outcome() {
            Some(o) => {
                tags.push(("Result".into(), result_text(&o.places)));
                tags.push(("Reason".into(), o.reason.to_string()));
            }
            None => tags.push(("Result".into(), "*".into())),
        }
        Record {
            tags,
            moves: game.moves().iter().map(|(_, p)| p.clone()).collect(),
        }
    }

    /// The tag naming who played `colour`: its name capitalised (`White`,
    /// `Red`, …).
    pub fn seat_tag(colour: Colour) -> &'static str {
        match colour {
            Colour::White => "White",
            Colour::Red => "Red",
            Colour::Blue => "Blue",
            Colour::Black => "Black",
            Colour::Yellow => "Yellow",
            Colour::Green => "Green",
        }
    }

    /// The value of tag `key`.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The places of the `Result` tag (`white=1 black=2`, written by
    /// [`Record::from_game`]), in the order written; `None` when the tag is
    /// missing or `*` (the game is not finished). Every seat of the record's
    /// variant must have a place, and no seat two.
    pub fn places(&self) -> Result<Option<Vec<(Colour, u8)>>, ParseError> {
        let result = match self.tag("Result") {
            None | Some("*") => return Ok(None),
            Some(r) => r,
        };
        let bad = |why: String| ParseError::Record(format!("Result {result:?}: {why}"));
        let mut places: Vec<(Colour, u8)> = Vec::new();
        for item in result.split_whitespace() {
            let (colour, place) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("{item:?} is not colour=place")))?;
            let colour: Colour = colour
                .parse()
                .map_err(|_| bad(format!("{item:?} names no colour")))?;
            let place: u8 = place
                .parse()
                .map_err(|_| bad(format!("{item:?}: the place is not a number")))?;
            if places.iter().any(|(c, _)| *c == colour) {
                return Err(bad(format!("{colour} is placed twice")));
            }
            places.push((colour, place));
        }
        if let Some(variant) = self.tag("Variant").and_then(|v| v.parse::<Variant>().ok()) {
            if let Some(c) = variant
                .seats()
                .iter()
                .find(|c| !places.iter().any(|(p, _)| p == *c))
            {
                return Err(bad(format!("no place for {c}")));
            }
        }
        Ok(Some(places))
    }

    /// Parses a record's text (no legality check; see [`Record::replay`]).
    pub fn parse(text: &str) -> Result<Record, ParseError> {
        let mut tags = Vec::new();
        let mut moves = Vec::new();
        let mut depth = 0usize;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[') {
                let inner = inner.strip_suffix(']').ok_or_else(|| {
                    ParseError::Record(format!("line {}: tag without closing ']'", n + 1))
                })?;
                let (key, value) = inner.split_once(' ').ok_or_else(|| {
                    ParseError::Record(format!("line {}: tag without a value", n + 1))
                })?;
                let value = value
                    .trim()
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| {
                        ParseError::Record(format!("line {}: tag value must be in quotes", n + 1))
                    })?;
                tags.push((key.to_string(), value.replace("\\\"", "\"")));
                continue;
            }
            for raw in line.split_whitespace() {
                // Variations (in parentheses, docs/record-format.md) are the
                // analysis board's: the game is the main line, so they are skipped.
                let opens = raw.bytes().take_while(|&b| b == b'(').count();
                let token = raw[opens..].trim_end_matches(')');
                let closes = raw.len() - opens - token.len();
                depth += opens;
                let skip = depth > 0;
                depth = depth.checked_sub(closes).ok_or_else(|| {
                    ParseError::Record(format!("line {}: ')' without '('", n + 1))
                })?;
                if skip || token.is_empty() {
                    continue;
                }
                if token.ends_with('.')
                    && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
                {
                    continue;
                }
                if token == "*" || token.contains('=') {
                    continue;
                }
                moves.push(token.parse::<MovePath>()?);
            }
        }
        if depth > 0 {
            return Err(ParseError::Record(
                "a variation is not closed with ')'".into(),
            ));
        }
        if !tags.iter().any(|(k, _)| k == "Variant") {
            return Err(ParseError::Record("missing [Variant \"...\"] tag".into()));
        }
        Ok(Record { tags, moves })
    }

    /// Replays the record from its start, checking every move, then applies a
    /// recorded resignation or time forfeit and checks the recorded result.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let variant: Variant = self.tag("Variant").unwrap_or_default().parse()?;
        let start = match self.tag("Start") {
            Some(s) => s.parse::<Position>()?,
            None => Position::start(variant),
        };
        if start.variant() != variant {
            return Err(RecordError::Mismatch(
                "Start position is of another variant".into(),
            ));
        }
        let mut game = Game::from_position(start);
        for (i, path) in self.moves.iter().enumerate() {
            game.play_path(path)
                .map_err(|reason| RecordError::Illegal {
                    index: i + 1,
                    path: path.to_string(),
                    reason,
                })?;
        }
        if let Some(reason) = self.tag("Reason") {
            let reason: EndReason = reason.parse().map_err(ParseError::Record)?;
            match reason {
                EndReason::Resigned(c) if !game.is_over() => game
                    .resign(c)
                    .map_err(|e| RecordError::Mismatch(e.to_string()))?,
                EndReason::TimeForfeit(c) if !game.is_over() => game
                    .time_out(c)
                    .map_err(|e| RecordError::Mismatch(e.to_string()))?,
                _ => {}
            }
            match game.outcome() {
                Some(o) if o.reason == reason => {}
                Some(o) => {
                    return Err(RecordError::Mismatch(format!(
                        "recorded reason {reason}, replay ends by {}",
                        o.reason
                    )))
                }
                None => {
                    return Err(RecordError::Mismatch(format!(
                        "recorded reason {reason}, but the game is not over"
                    )))
                }
            }
        }
        if let (Some(mut recorded), Some(o)) = (self.places()?, game.outcome()) {
            let mut replayed = o.places.clone();
            recorded.sort();
            replayed.sort();
            if recorded != replayed {
                return Err(RecordError::Mismatch(format!(
                    "recorded result {:?}, replay gives {:?}",
                    self.tag("Result").unwrap_or_default(),
                    result_text(&o.places)
                )));
            }
        }
        Ok(game)
    }
}

/// The `Result` tag's text for `places`: `colour=place` items joined by spaces.
fn result_text(places: &[(Colour, u8)]) -> String {
    let items: Vec<String> = places.iter().map(|(c, p)| format!("{c}={p}")).collect();
    items.join(" ")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{} \"{}\"]", k, v.replace('"', "\\\""))?;
        }
        writeln!(f)?;
        let variant = self.tag("Variant").and_then(|v| v.parse::<Variant>().ok());
        let per_round = variant.map(|v| v.players()).unwrap_or(2).max(1);
        let mut line = String::new();
        for (i, m) in self.moves.iter().enumerate() {
            if i % per_round == 0 {
                if !line.is_empty() {
                    writeln!(f, "{}", line.trim_end())?;
                    line.clear();
                }
                line.push_str(&format!("{}. ", i / per_round + 1));
            }
            line.push_str(&format!("{m} "));
        }
        if !line.is_empty() {
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(f, "{}", self.tag("Result").unwrap_or("*"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_are_skipped_and_the_main_line_kept() {
        let text = "[Variant \"classic-2\"]\n\n1. m3-m5 e15-e13 (1. f15-f13 2. l4-l5 (2. k3-k5) 2. e15-e13) 2. l3-l5 *\n";
        let r = Record::parse(text).unwrap();
        let moves: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["m3-m5", "e15-e13", "l3-l5"]);
        assert_eq!(r.replay().unwrap().moves().len(), 3);
        let open = Record::parse("[Variant \"classic-2\"]\n\n1. m3-m5 (e15-e13\n");
        assert!(open.unwrap_err().to_string().contains("not closed"));
        let stray = Record::parse("[Variant \"classic-2\"]\n\n1. m3-m5)\n");
        assert!(stray.unwrap_err().to_string().contains("without"));
    }

    fn with_result(variant: &str, result: &str) -> Record {
        Record {
            tags: vec![
                ("Variant".into(), variant.into()),
                ("Result".into(), result.into()),
            ],
            moves: Vec::new(),
        }
    }

    #[test]
    fn places_read_the_result_tag() {
        let r = with_result("classic-3", "white=2 blue=1 yellow=3");
        assert_eq!(
            r.places(),
            Ok(Some(vec![
                (Colour::White, 2),
                (Colour::Blue, 1),
                (Colour::Yellow, 3)
            ]))
        );
        assert_eq!(with_result("classic-2", "*").places(), Ok(None));
    }

    #[test]
    fn places_name_what_is_wrong_with_the_result_tag() {
        let err = |variant: &str, result: &str| match with_result(variant, result).places() {
            Err(ParseError::Record(why)) => why,
            other => panic!("{result}: {other:?}"),
        };
        assert!(err("classic-2", "white:1 black=2").contains("not colour=place"));
        assert!(err("classic-2", "pink=1 black=2").contains("names no colour"));
        assert!(err("classic-2", "white=first black=2").contains("not a number"));
        assert!(err("classic-2", "white=1 white=2").contains("placed twice"));
        assert!(err("classic-2", "white=1").contains("no place for black"));
    }

    #[test]
    fn seat_tags_capitalise_the_colour() {
        assert_eq!(Record::seat_tag(Colour::White), "White");
        for c in Colour::ALL {
            let name = c.name();
            let tag = Record::seat_tag(c);
            assert_eq!(tag.to_lowercase(), name);
            assert!(tag.starts_with(|ch: char| ch.is_ascii_uppercase()), "{tag}");
        }
    }
}
