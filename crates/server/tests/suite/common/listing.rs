//! Lobby listings as a node announces them on the bus, for tests that speak on the
//! bus as a node of their own.
#![allow(dead_code)]

use stella_server::protocol::{PlayerView, SeatView, TableSummary};

/// The listing of the open, untimed, casual classic-2 table `id` with the guest `user`
/// (named `name`) in the first seat and the second seat free.
pub fn open_duel(id: &str, user: &str, name: &str) -> TableSummary {
    let seat = |seat: usize, colour: &str, player: PlayerView| SeatView {
        seat,
        colour: colour.into(),
        player,
    };
    let guest = PlayerView::Human {
        id: user.into(),
        name: name.into(),
        guest: true,
        bot: false,
    };
    TableSummary {
        id: id.into(),
        variant: "classic-2".into(),
        time: None,
        rated: false,
        status: "open".into(),
        seats: vec![seat(0, "red", guest), seat(1, "green", PlayerView::Open)],
        private: false,
        move_time: None,
        connected: vec![true, false],
        bots: false,
    }
}
