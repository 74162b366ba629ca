//! The position string: one line of space-separated fields (docs/position-string.md).
//!
//! `VARIANT COLOUR ROUND SEAT… [made:N,…] [arrived:C,…] [out:C,…] [places:C=N,…] [over:REASON]`
//!
//! ```
//! use stella_engine::{Position, Variant};
//! let start = Position::start(Variant::Classic2);
//! let s = start.to_string();
//! assert_eq!(s, "classic-2 white 1 white:j4,k3,k4,l2,l3,l4,m1,m2,m3,m4 black:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14");
//! assert_eq!(s.parse::<Position>().unwrap(), start);
//! ```

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::error::ParseError;
use crate::hole::Hole;
use crate::outcome::EndReason;
use crate::position::Position;
use crate::setup::Setup;
use crate::variant::Variant;
use std::fmt;
use std::str::FromStr;

fn colour_list(mask: u8) -> String {
    Colour::ALL
        .into_iter()
        .filter(|c| mask >> c.index() & 1 != 0)
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.to_setup();
        write!(f, "{} {} {}", s.variant, s.turn, s.round)?;
        for &c in s.variant.seats() {
            let mut sorted: Vec<Hole> = s.marbles[c.index()].iter().collect();
            sorted.sort_by_key(|h| (h.letter(), h.row()));
            let holes: Vec<String> = sorted.iter().map(|h| h.to_string()).collect();
            write!(f, " {}:{}", c, holes.join(","))?;
        }
        let seats = s.variant.seats();
        if seats.iter().any(|c| s.made[c.index()] != 0) {
            let made: Vec<String> = seats
                .iter()
                .map(|c| s.made[c.index()].to_string())
                .collect();
            write!(f, " made:{}", made.join(","))?;
        }
        if s.arrived != 0 {
            write!(f, " arrived:{}", colour_list(s.arrived))?;
        }
        if s.out != 0 {
            write!(f, " out:{}", colour_list(s.out))?;
        }
        if seats.iter().any(|c| s.places[c.index()] != 0) {
            let places: Vec<String> = seats
                .iter()
                .filter(|c| s.places[c.index()] != 0)
                .map(|c| format!("{}={}", c, s.places[c.index()]))
                .collect();
            write!(f, " places:{}", places.join(","))?;
        }
        if let Some(r) = s.ended {
            write!(f, " over:{r}")?;
        }
        Ok(())
    }
}

fn err(msg: impl Into<String>) -> ParseError {
    ParseError::Position(msg.into())
}

fn parse_colours(list: &str) -> Result<u8, ParseError> {
    let mut mask = 0;
    for name in list.split(',').filter(|s| !s.is_empty()) {
        mask |= 1 << name.parse::<Colour>()?.index();
    }
    Ok(mask)
}

impl Setup {
    /// Parses a position string into an unchecked layout.
    pub fn parse(s: &str) -> Result<Setup, ParseError> {
        let mut fields = s.split_whitespace();
        let variant: Variant = fields
            .next()
            .ok_or_else(|| err("empty position string"))?
            .parse()?;
        let turn: Colour = fields
            .next()
            .ok_or_else(|| err("missing colour to move"))?
            .parse()?;
        let round_field = fields.next().ok_or_else(|| err("missing round number"))?;
        let round: u16 = round_field
            .parse()
            .map_err(|_| err(format!("round {round_field:?} is not a number")))?;
        let mut setup = Setup::empty(variant);
        setup.turn = turn;
        setup.round = round;
        let mut seen = 0u8;
        for field in fields {
            let (key, value) = field
                .split_once(':')
                .ok_or_else(|| err(format!("field {field:?} has no ':'")))?;
            match key {
                "made" => {
                    let counts: Vec<&str> = value.split(',').collect();
                    if counts.len() != variant.seats().len() {
                        return Err(err(format!(
                            "made:{value} needs one count per seat ({})",
                            variant.seats().len()
                        )));
                    }
                    for (c, n) in variant.seats().iter().zip(counts) {
                        setup.made[c.index()] = n
                            .parse()
                            .map_err(|_| err(format!("move count {n:?} is not a number")))?;
                    }
                }
                "arrived" => setup.arrived = parse_colours(value)?,
                "out" => setup.out = parse_colours(value)?,
                "places" => {
                    for item in value.split(',').filter(|s| !s.is_empty()) {
                        let (c, p) = item
                            .split_once('=')
                            .ok_or_else(|| err(format!("place {item:?} is not colour=number")))?;
                        let c: Colour = c.parse()?;
                        setup.places[c.index()] = p
                            .parse()
                            .map_err(|_| err(format!("place {p:?} is not a number")))?;
                    }
                }
                "over" => setup.ended = Some(value.parse::<EndReason>().map_err(err)?),
                colour => {
                    let c: Colour = colour
                        .parse()
                        .map_err(|_| err(format!("unknown field {key:?}")))?;
                    if seen >> c.index() & 1 != 0 {
                        return Err(err(format!("{c} is listed twice")));
                    }
                    seen |= 1 << c.index();
                    let mut b = Bitboard::EMPTY;
                    for name in value.split(',').filter(|s| !s.is_empty()) {
                        let h: Hole = name.parse()?;
                        if b.contains(h) {
                            return Err(err(format!("{c} lists {h} twice")));
                        }
                        b = b.with(h);
                    }
                    setup.marbles[c.index()] = b;
                }
            }
        }
        for &c in variant.seats() {
            if seen >> c.index() & 1 == 0 {
                return Err(err(format!("no field for {c}, who plays in {variant}")));
            }
        }
        Ok(setup)
    }
}

impl FromStr for Position {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Position, ParseError> {
        let setup = Setup::parse(s)?;
        Position::from_setup(&setup).map_err(|e| ParseError::Position(e.to_string()))
    }
}
