//! Seats and who sits in them.

use stella_engine::Colour;

use crate::protocol::{PlayerView, SeatView, UserInfo};

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occupant {
    /// Nobody yet.
    Open,
    /// A person (registered or guest).
    Human(UserInfo),
    /// A computer of level 1–8.
    Computer(u8),
}

/// One seat of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The seat's colour.
    pub colour: Colour,
    /// Who sits there.
    pub occupant: Occupant,
}

impl Occupant {
    /// How others see this occupant.
    pub fn view(&self) -> PlayerView {
        match self {
            Occupant::Open => PlayerView::Open,
            Occupant::Human(u) => PlayerView::Human {
                id: u.id.clone(),
                name: u.name.clone(),
                guest: u.guest,
                bot: u.bot,
            },
            Occupant::Computer(level) => PlayerView::Computer { level: *level },
        }
    }

    /// The user id of a human occupant.
    pub fn user_id(&self) -> Option<&str> {
        match self {
            Occupant::Human(u) => Some(&u.id),
            _ => None,
        }
    }

    /// The display name used in records.
    pub fn display_name(&self) -> String {
        match self {
            Occupant::Open => "-".to_owned(),
            Occupant::Human(u) => u.name.clone(),
            Occupant::Computer(level) => format!("Computer level {level}"),
        }
    }
}

impl Seat {
    /// The seat as the protocol shows it.
    pub fn view(&self, index: usize) -> SeatView {
        SeatView {
            seat: index,
            colour: self.colour.to_string(),
            player: self.occupant.view(),
        }
    }
}
