//! The table's rules without I/O: seats, the game, the clocks and the chat log. Every
//! method takes the current time as an argument and answers with a decision or an
//! error; the events it produces wait in an outbox for the task to broadcast. The task
//! around it ([`super::actor`]) stores what must be stored before it applies a
//! decision, so a storage failure changes nothing.

use stella_engine::{Colour, Game, IllegalMove, Move, MovePath, ParseError, Record, Variant};

use super::chat::{ChatLog, ChatPost};
use super::clock::{Clock, LagPolicy, Press, StoredClock, TimeControl};
use super::seat::{Occupant, Seat};
use crate::protocol::{
    Absence, ChatLine, ErrorCode, EventEnvelope, PlaceView, ProtoError, ResultView, TableEvent,
    TableSnapshot, TableSummary, TimeSpec, UserInfo,
};
use crate::time::Millis;

/// The life of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Waiting for players.
    Open,
    /// Being played.
    Live,
    /// Over; the result is stored.
    Finished,
    /// Closed before the start.
    Closed,
    /// Called off before every seat had moved; no result.
    Aborted,
}

impl Status {
    /// The protocol's name of the status.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Live => "live",
            Status::Finished => "finished",
            Status::Closed => "closed",
            Status::Aborted => "aborted",
        }
    }
}

/// A move checked against the game and applied to a copy of the clock, waiting to be
/// stored.
#[derive(Debug, Clone)]
pub(crate) struct PlannedMove {
    /// The move.
    mv: Move,
    /// The clocks after the move.
    clock: Option<Clock>,
    /// Who moved.
    pub(crate) colour: Colour,
    /// The canonical path.
    pub(crate) path: String,
    /// The move's number from 1.
    pub(crate) ply: usize,
    /// The clocks to store with the move.
    pub(crate) stored_clock: Option<StoredClock>,
    /// When it was played.
    pub(crate) at: Millis,
}

/// Why a move could not be planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlanError {
    /// Refused; nothing changed.
    Refused(ProtoError),
    /// The mover's time ran out before the move arrived: the seat has flagged.
    Flagged(usize),
}

impl From<ProtoError> for PlanError {
    fn from(e: ProtoError) -> Self {
        PlanError::Refused(e)
    }
}

/// What a computer seat needs to choose its move.
#[derive(Debug, Clone)]
pub(crate) struct ThinkRequest {
    /// Its level, 1–8.
    pub(crate) level: u8,
    /// The game so far.
    pub(crate) game: Game,
    /// Moves played when asked; a later answer for another ply is stale.
    pub(crate) ply: usize,
    /// Thinking budget in milliseconds.
    pub(crate) think_ms: i64,
}

/// The places and reason of a game that has just ended, by seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ending {
    /// The engine's reason.
    pub(crate) reason: String,
    /// `(seat, place)` for every seat.
    pub(crate) places: Vec<(usize, u8)>,
}

/// How long a player of a 2-player game may be away before the opponent may claim
/// the win, unless the server is configured otherwise.
pub(crate) const ABANDON_AFTER_MS: Millis = 60_000;

fn err(code: ErrorCode, message: impl Into<String>) -> ProtoError {
    ProtoError::new(code, message)
}

/// Maps an engine refusal to a protocol error.
pub(crate) fn illegal(e: IllegalMove) -> ProtoError {
    let code = match e {
        IllegalMove::GameOver => ErrorCode::GameOver,
        IllegalMove::NoMarbleOfPlayer { .. } => ErrorCode::NotYourMarble,
        IllegalMove::NotInGame(_) => ErrorCode::NotInGame,
        _ => ErrorCode::IllegalMove,
    };
    err(code, e.to_string())
}

/// One table's state and rules.
#[derive(Debug, Clone)]
pub(crate) struct TableCore {
    pub(crate) id: String,
    pub(crate) variant: Variant,
    pub(crate) rated: bool,
    pub(crate) control: Option<TimeControl>,
    pub(crate) lag: LagPolicy,
    pub(crate) seats: Vec<Seat>,
    pub(crate) seat_lag: Vec<Millis>,
    pub(crate) status: Status,
    pub(crate) game: Game,
    pub(crate) clock: Option<Clock>,
    pub(crate) log: Vec<EventEnvelope>,
    pub(crate) v: u64,
    pub(crate) result: Option<ResultView>,
    pub(crate) chat: ChatLog,
    pub(crate) rematch: Rematch,
    /// The invitation of a private table.
    pub(crate) invite: Option<String>,
    /// Untimed tables: milliseconds each move may take.
    pub(crate) move_time_ms: Option<Millis>,
    /// When the seat to move started thinking.
    pub(crate) turn_since: Millis,
    /// Per user, how many of their connections follow the table.
    connections: std::collections::HashMap<String, u32>,
    /// Per seat, since when its player of a live game has had no connection.
    away_since: Vec<Option<Millis>>,
    /// The colour whose win was claimed for abandonment.
    abandoned: Option<Colour>,
    /// How long a player of a 2-player game may be away before the opponent may
    /// claim the win.
    pub(crate) abandon_after_ms: Millis,
    /// Bots may sit at the open seats.
    pub(crate) bots: bool,
    outbox: Vec<EventEnvelope>,
}

/// The rematch of a finished table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Rematch {
    /// Nobody asked yet.
    #[default]
    Open,
    /// These user ids asked or accepted.
    Asked(Vec<String>),
    /// Started at the table with this id.
    Started(String),
    /// A player left: no rematch from this table.
    Lapsed,
}

impl TableCore {
    /// A table in its first state, before any event.
    pub(crate) fn new(
        id: String,
        variant: Variant,
        rated: bool,
        control: Option<TimeControl>,
        lag: LagPolicy,
        seats: Vec<Seat>,
    ) -> Self {
        let n = seats.len();
        TableCore {
            id,
            variant,
            rated,
            control,
            lag,
            seats,
            seat_lag: vec![0; n],
            status: Status::Open,
            game: Game::new(variant),
            clock: None,
            log: Vec::new(),
            v: 0,
            result: None,
            chat: ChatLog::default(),
            rematch: Rematch::Open,
            invite: None,
            move_time_ms: None,
            turn_since: 0,
            connections: Default::default(),
            away_since: vec![None; n],
            abandoned: None,
            abandon_after_ms: ABANDON_AFTER_MS,
            bots: false,
            outbox: Vec::new(),
        }
    }

    // ----- events and views -----

    /// Numbers an event, logs it and queues it for broadcast.
    pub(crate) fn emit(&mut self, event: TableEvent) {
        self.emit_hidden(event, Vec::new());
    }

    fn emit_hidden(&mut self, event: TableEvent, hidden_from: Vec<String>) {
        self.v += 1;
        let envelope = EventEnvelope {
            table: self.id.clone(),
            v: self.v,
            event,
            hidden_from,
        };
        self.log.push(envelope.clone());
        self.outbox.push(envelope);
    }

    /// The events produced since the last call, in order.
    pub(crate) fn take_events(&mut self) -> Vec<EventEnvelope> {
        std::mem::take(&mut self.outbox)
    }

    /// The table as the lobby lists it.
    pub(crate) fn summary(&self) -> TableSummary {
        TableSummary {
            id: self.id.clone(),
            variant: self.variant.id().to_owned(),
            time: self.control.map(|c| TimeSpec {
                minutes: c.reserve_ms / 60_000,
                increment: c.increment_ms / 1_000,
            }),
            rated: self.rated,
            status: self.status.as_str().to_owned(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| s.view(i))
                .collect(),
            private: self.invite.is_some(),
            move_time: self.move_time_ms.map(|ms| ms / 1_000),
            connected: self.seats.iter().map(|s| self.is_connected(s)).collect(),
            bots: self.bots,
        }
    }

    /// Untimed tables: when the seat to move flags unless it moves.
    pub(crate) fn move_deadline(&self) -> Option<Millis> {
        if self.status != Status::Live || self.game.is_over() || self.clock.is_some() {
            return None;
        }
        self.move_time_ms.map(|ms| self.turn_since + ms)
    }

    /// Whether `viewer` may see (or sit at) the table: any table is open to its
    /// players; a private one to holders of its invitation.
    pub(crate) fn check_access(
        &self,
        viewer: Option<&str>,
        invite: Option<&str>,
    ) -> Result<(), ProtoError> {
        let Some(token) = &self.invite else {
            return Ok(());
        };
        if viewer.is_some_and(|v| self.is_player(v)) || invite == Some(token.as_str()) {
            return Ok(());
        }
        Err(err(
            ErrorCode::InvitationRequired,
            "this table is private: open it with its invitation link",
        ))
    }

    /// The colour to move while the game is live.
    pub(crate) fn turn_name(&self) -> Option<String> {
        (self.status == Status::Live && !self.game.is_over()).then(|| self.game.turn().to_string())
    }

    /// Whether `user_id` sits at this table.
    pub(crate) fn is_player(&self, user_id: &str) -> bool {
        self.seat_of_user(user_id).is_some()
    }

    /// The ids of the people seated.
    pub(crate) fn player_ids(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter_map(|s| s.occupant.user_id().map(str::to_owned))
            .collect()
    }

    /// Everything `viewer` may see of the table now.
    pub(crate) fn snapshot(&self, now: Millis, viewer: Option<&str>) -> TableSnapshot {
        let player = viewer.is_some_and(|v| self.is_player(v));
        TableSnapshot {
            summary: self.summary(),
            v: self.v,
            position: self.game.position().to_string(),
            turn: self.turn_name(),
            moves: self
                .game
                .moves()
                .iter()
                .map(|(_, p)| p.to_string())
                .collect(),
            clock: self.clock.as_ref().map(|c| c.view(now)),
            result: self.result.clone(),
            chat: self.chat.visible(player),
            rematch: match &self.rematch {
                Rematch::Asked(ids) => ids.clone(),
                _ => Vec::new(),
            },
            move_deadline: self.move_deadline(),
            absent: self.absences(),
        }
    }

    /// The players of the live game who are away now.
    pub(crate) fn absences(&self) -> Vec<Absence> {
        if self.status != Status::Live || self.game.is_over() {
            return Vec::new();
        }
        self.away_since
            .iter()
            .enumerate()
            .filter_map(|(seat, since)| {
                since.map(|since| Absence {
                    seat,
                    since,
                    claim_at: self.claim_at(since),
                })
            })
            .collect()
    }

    /// When the win over a player away since `since` may be claimed (2 players only).
    fn claim_at(&self, since: Millis) -> Option<Millis> {
        (self.seats.len() == 2).then_some(since + self.abandon_after_ms)
    }

    /// The logged events after version `since` as `viewer` sees them, or none when the
    /// log cannot serve that version (the caller then sends a snapshot).
    pub(crate) fn events_since(
        &self,
        since: Option<u64>,
        viewer: Option<&str>,
    ) -> Option<Vec<EventEnvelope>> {
        let first = self.log.first().map_or(self.v + 1, |e| e.v);
        match since {
            Some(s) if s <= self.v && s + 1 >= first => Some(
                self.log
                    .iter()
                    .filter(|e| e.v > s)
                    .map(|e| e.for_viewer(viewer))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// The seat playing `colour`.
    pub(crate) fn seat_of_colour(&self, colour: Colour) -> usize {
        self.seats
            .iter()
            .position(|s| s.colour == colour)
            .expect("every colour to move has a seat")
    }

    /// The seat of `user_id`, if seated.
    pub(crate) fn seat_of_user(&self, user_id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.occupant.user_id() == Some(user_id))
    }

    // ----- seats -----

    /// Checks that `user` may sit down; returns the seat they get.
    pub(crate) fn check_join(
        &self,
        user: &UserInfo,
        seat: Option<usize>,
    ) -> Result<usize, ProtoError> {
        if self.status != Status::Open {
            return Err(err(
                ErrorCode::AlreadyStarted,
                "the game has started; seats are fixed",
            ));
        }
        if self.rated && user.guest {
            return Err(err(
                ErrorCode::RatedNeedsAccounts,
                "guests play casual games only; register to play rated",
            ));
        }
        if self.rated && user.bot {
            return Err(err(
                ErrorCode::RatedNeedsAccounts,
                "bots play casual games only; join a casual table",
            ));
        }
        if user.bot && !self.bots {
            return Err(err(
                ErrorCode::BotsNotInvited,
                "this table does not invite bots; its creator did not open it to them",
            ));
        }
        if self.seat_of_user(&user.id).is_some() {
            return Err(err(
                ErrorCode::AlreadySeated,
                "you already sit at this table",
            ));
        }
        match seat {
            Some(i) if i >= self.seats.len() => Err(err(
                ErrorCode::BadSeats,
                format!(
                    "no seat {i}: this table has seats 0 to {}",
                    self.seats.len() - 1
                ),
            )),
            Some(i) if self.seats[i].occupant != Occupant::Open => {
                Err(err(ErrorCode::SeatTaken, format!("seat {i} is taken")))
            }
            Some(i) => Ok(i),
            None => self
                .seats
                .iter()
                .position(|s| s.occupant == Occupant::Open)
                .ok_or_else(|| err(ErrorCode::SeatTaken, "every seat is taken")),
        }
    }

    /// Seats `user` at `index` (checked by [`Self::check_join`]).
    pub(crate) fn sit(&mut self, index: usize, user: UserInfo) {
        self.seats[index].occupant = Occupant::Human(user);
        self.emit(TableEvent::Seated {
            seat: index,
            player: self.seats[index].occupant.view(),
        });
    }

    /// Checks that `user_id` may leave; returns their seat.
    pub(crate) fn check_leave(&self, user_id: &str) -> Result<usize, ProtoError> {
        if self.status == Status::Finished {
            return self
                .seat_of_user(user_id)
                .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"));
        }
        if self.status != Status::Open {
            return Err(err(
                ErrorCode::AlreadyStarted,
                "the game has started; resign instead of leaving",
            ));
        }
        self.seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))
    }

    /// Empties a seat; closes the table when no person is left. Returns whether it
    /// closed.
    pub(crate) fn vacate(&mut self, index: usize) -> bool {
        self.seats[index].occupant = Occupant::Open;
        self.emit(TableEvent::Vacated { seat: index });
        let anyone = self
            .seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Human(_)));
        if !anyone {
            self.status = Status::Closed;
            self.emit(TableEvent::Closed);
        }
        !anyone
    }

    /// Whether every seat is taken at a table still waiting.
    pub(crate) fn ready_to_start(&self) -> bool {
        self.status == Status::Open && self.seats.iter().all(|s| s.occupant != Occupant::Open)
    }

    /// The clocks of a game started at `now`.
    fn starting_clock(&self, now: Millis) -> Option<Clock> {
        let first = self.seat_of_colour(self.game.turn());
        self.control.map(|c| {
            let mut clock = Clock::new(c, self.seats.len(), self.lag);
            clock.start(first, now);
            clock
        })
    }

    /// What [`Self::start`] at `now` returns, without starting: the clocks to store
    /// and the version of the `started` event. The start is stored before it is
    /// applied, and a start the database refuses leaves the table as it was.
    pub(crate) fn start_record(&self, now: Millis) -> (Option<StoredClock>, u64) {
        let clock = self.starting_clock(now);
        (clock.as_ref().map(Clock::stored), self.v + 1)
    }

    /// Closes a table still waiting for players whose node may no longer act for it
    /// (its lease is gone): its people are told with a `closed` event.
    pub(crate) fn close_lost(&mut self) {
        self.status = Status::Closed;
        self.emit(TableEvent::Closed);
    }

    /// Starts the game and its clocks. Returns the clocks to store and the version of
    /// the `started` event.
    pub(crate) fn start(&mut self, now: Millis) -> (Option<StoredClock>, u64) {
        self.status = Status::Live;
        self.clock = self.starting_clock(now);
        let stored = self.clock.as_ref().map(Clock::stored);
        self.turn_since = now;
        self.emit(TableEvent::Started {
            turn: self.turn_name(),
            clock: self.clock.as_ref().map(|c| c.view(now)),
            move_deadline: self.move_deadline(),
        });
        (stored, self.v)
    }

    // ----- moves -----

    fn require_live(&self, not_started: &str) -> Result<(), ProtoError> {
        match self.status {
            Status::Open => Err(err(ErrorCode::NotStarted, not_started)),
            Status::Finished | Status::Closed | Status::Aborted => {
                Err(err(ErrorCode::GameOver, "the game is over"))
            }
            Status::Live => Ok(()),
        }
    }

    /// Checks a person's move and plans it.
    pub(crate) fn plan_human_move(
        &mut self,
        user_id: &str,
        path: &str,
        confirm: bool,
        lag: Millis,
        now: Millis,
    ) -> Result<PlannedMove, PlanError> {
        self.require_live("the game has not started yet")?;
        let seat = self.seat_of_user(user_id).ok_or_else(|| {
            err(
                ErrorCode::NotSeated,
                "you do not sit at this table; spectators cannot move",
            )
        })?;
        self.seat_lag[seat] = lag.max(0);
        let turn = self.game.turn();
        let mine = self.seats[seat].colour;
        if mine != turn {
            return Err(err(
                ErrorCode::NotYourTurn,
                format!("it is {turn}'s turn; you play {mine}"),
            )
            .into());
        }
        let parsed: MovePath = path
            .parse()
            .map_err(|e: ParseError| err(ErrorCode::BadMove, e.to_string()))?;
        let mv = self
            .game
            .position()
            .resolve_path(&parsed)
            .map_err(illegal)?;
        if self.game.would_eliminate(&mv) && !confirm {
            return Err(err(
                ErrorCode::ConfirmRequired,
                format!(
                    "{path} brings a marble back into your home after the deadline and eliminates you; \
                     send it again with \"confirm\": true to play it"
                ),
            )
            .into());
        }
        self.plan_move(seat, &mv, lag, now)
    }

    /// Checks `mv` for `seat` and plays it on a copy of the clock (the game's history
    /// is not copied: the position after it is worked out on its own).
    pub(crate) fn plan_move(
        &self,
        seat: usize,
        mv: &Move,
        lag: Millis,
        now: Millis,
    ) -> Result<PlannedMove, PlanError> {
        self.require_live("the game has not started yet")?;
        let mut clock = self.clock.clone();
        if let Some(c) = clock.as_mut() {
            if c.press(now, lag) == Press::Flagged {
                return Err(PlanError::Flagged(seat));
            }
        }
        let colour = self.game.turn();
        let after = self.game.position_after(mv).map_err(illegal)?;
        let path = self.game.position().path_of(mv).to_string();
        if !after.is_over() {
            if let Some(c) = clock.as_mut() {
                c.start(self.seat_of_colour(after.turn()), now);
            }
        }
        let ply = self.game.moves().len() + 1;
        let stored_clock = clock.as_ref().map(Clock::stored);
        Ok(PlannedMove {
            mv: *mv,
            clock,
            colour,
            path,
            ply,
            stored_clock,
            at: now,
        })
    }

    /// Applies a planned (and stored) move. Returns whether the game is over.
    pub(crate) fn commit(&mut self, planned: PlannedMove) -> bool {
        let now = planned.at;
        // Nothing else reaches the game between planning and committing (the table
        // task does one thing at a time), so the planned move is still legal.
        self.game
            .play(&planned.mv)
            .expect("a planned move is legal until it is committed");
        self.clock = planned.clock;
        self.turn_since = now;
        let position = self.game.position().to_string();
        self.emit(TableEvent::Moved {
            ply: planned.ply as u64,
            colour: planned.colour.to_string(),
            path: planned.path,
            position,
            turn: self.turn_name(),
            clock: self.clock.as_ref().map(|c| c.view(now)),
            move_deadline: self.move_deadline(),
        });
        self.game.is_over()
    }

    /// `user_id` resigns. Only a player still in the game can.
    pub(crate) fn resign(&mut self, user_id: &str, now: Millis) -> Result<(), ProtoError> {
        self.require_live("the game has not started; leave the seat instead")?;
        let seat = self
            .seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))?;
        let colour = self.seats[seat].colour;
        if !self.game.position().is_active(colour) {
            return Err(err(
                ErrorCode::NotInGame,
                format!(
                    "{colour} has already finished (arrived or eliminated); \
                     only a player still in the game can resign"
                ),
            ));
        }
        self.game.resign(colour).map_err(illegal)?;
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        Ok(())
    }

    /// `user_id` calls the game off: allowed until every seat has made its first move
    /// (the first round, in which no seat is skipped). No result, no rating change.
    pub(crate) fn abort(&mut self, user_id: &str, now: Millis) -> Result<(), ProtoError> {
        self.require_live("the game has not started; leave the seat instead")?;
        let seat = self
            .seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))?;
        if self.game.moves().len() >= self.seats.len() {
            return Err(err(
                ErrorCode::TooLateToAbort,
                "every seat has made its first move; the game can no longer be aborted",
            ));
        }
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        self.status = Status::Aborted;
        self.emit(TableEvent::Aborted { seat });
        Ok(())
    }

    // ----- presence and abandonment -----

    /// Whether the occupant of `seat` follows the table now.
    fn is_connected(&self, seat: &Seat) -> bool {
        match &seat.occupant {
            Occupant::Human(u) => self.connections.contains_key(&u.id),
            Occupant::Computer(_) => true,
            Occupant::Open => false,
        }
    }

    /// A connection of `user_id` came (`here`) or went. When the last one of a player
    /// still in a live game goes, the others hear `absent`; when one comes back,
    /// `present`. Returns whether a seated player's connectedness changed.
    pub(crate) fn presence(&mut self, user_id: &str, here: bool, now: Millis) -> bool {
        let count = self.connections.entry(user_id.to_owned()).or_default();
        *count = if here {
            *count + 1
        } else {
            count.saturating_sub(1)
        };
        let connected = *count > 0;
        let changed = *count == u32::from(here);
        if !connected {
            self.connections.remove(user_id);
        }
        let Some(seat) = self.seat_of_user(user_id) else {
            return false;
        };
        let playing = self.status == Status::Live
            && !self.game.is_over()
            && self.game.position().is_active(self.seats[seat].colour);
        if connected {
            if self.away_since[seat].take().is_some() && playing {
                self.emit(TableEvent::Present { seat });
            }
        } else if playing && self.away_since[seat].is_none() {
            self.away_since[seat] = Some(now);
            let claim_at = self.claim_at(now);
            self.emit(TableEvent::Absent {
                seat,
                since: now,
                claim_at,
            });
        }
        changed
    }

    /// `user_id` claims the win of a 2-player game whose opponent has been away for
    /// `abandon_after_ms`; the absent player loses.
    pub(crate) fn claim_win(&mut self, user_id: &str, now: Millis) -> Result<(), ProtoError> {
        self.require_live("the game has not started")?;
        let seat = self
            .seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))?;
        if self.seats.len() != 2 {
            return Err(err(
                ErrorCode::CannotClaim,
                "only a 2-player game can be won by claim; with more players an absent \
                 seat flags when its time runs out",
            ));
        }
        let other = 1 - seat;
        let Some(since) = self.away_since[other] else {
            return Err(err(ErrorCode::CannotClaim, "your opponent is connected"));
        };
        let claim_at = since + self.abandon_after_ms;
        if now < claim_at {
            return Err(err(
                ErrorCode::CannotClaim,
                format!(
                    "your opponent has been away {} s; the win can be claimed after {} s",
                    (now - since) / 1_000,
                    self.abandon_after_ms / 1_000
                ),
            ));
        }
        let colour = self.seats[other].colour;
        self.game.resign(colour).map_err(illegal)?;
        self.abandoned = Some(colour);
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        Ok(())
    }

    // ----- clocks -----

    /// The running seat and when it flags, allowing for its lag.
    pub(crate) fn flag_deadline(&self) -> Option<(usize, Millis)> {
        if self.status != Status::Live {
            return None;
        }
        if let Some(deadline) = self.move_deadline() {
            return Some((self.seat_of_colour(self.game.turn()), deadline));
        }
        let clock = self.clock.as_ref()?;
        let seat = clock.running()?;
        let lag = match self.seats[seat].occupant {
            Occupant::Human(_) => self.seat_lag[seat],
            _ => 0,
        };
        clock.flag_deadline(lag)
    }

    /// The seat whose time has run out at `now`, if any.
    pub(crate) fn due_flag(&self, now: Millis) -> Option<usize> {
        self.flag_deadline()
            .and_then(|(seat, deadline)| (now >= deadline).then_some(seat))
    }

    /// `seat` has run out of time. Returns whether the game ended.
    pub(crate) fn flag(&mut self, seat: usize, now: Millis) -> bool {
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        self.game.time_out(self.seats[seat].colour).is_ok()
    }

    // ----- computer seats -----

    /// The computer seat to move, with what it needs to think.
    pub(crate) fn computer_to_move(&self, now: Millis) -> Option<ThinkRequest> {
        if self.status != Status::Live || self.game.is_over() {
            return None;
        }
        let seat = self.seat_of_colour(self.game.turn());
        let Occupant::Computer(level) = self.seats[seat].occupant else {
            return None;
        };
        let think_ms = match &self.clock {
            Some(c) => {
                (c.remaining_at(seat, now) / 30 + c.control().increment_ms / 2).clamp(50, 10_000)
            }
            None => 2_000,
        };
        Some(ThinkRequest {
            level,
            game: self.game.clone(),
            ply: self.game.moves().len(),
            think_ms,
        })
    }

    /// The seat a computer's answer for `ply` is for, if it is still wanted.
    pub(crate) fn computer_answer_seat(&self, ply: usize) -> Option<usize> {
        if self.status != Status::Live || ply != self.game.moves().len() {
            return None;
        }
        let seat = self.seat_of_colour(self.game.turn());
        matches!(self.seats[seat].occupant, Occupant::Computer(_)).then_some(seat)
    }

    // ----- rematch -----

    /// `user_id` asks for or accepts a rematch. Returns the occupants of the new table
    /// (seats rotated by one) once every person of this table has accepted.
    pub(crate) fn ask_rematch(
        &mut self,
        user_id: &str,
    ) -> Result<Option<Vec<Occupant>>, ProtoError> {
        if self.status != Status::Finished {
            return Err(err(
                ErrorCode::NotFinished,
                "a rematch can be asked for once the game is over",
            ));
        }
        if !self.is_player(user_id) {
            return Err(err(
                ErrorCode::NotSeated,
                "only the players of this table can ask for a rematch",
            ));
        }
        let mut accepted = match &self.rematch {
            Rematch::Open => Vec::new(),
            Rematch::Asked(ids) => ids.clone(),
            Rematch::Started(id) => {
                return Err(err(
                    ErrorCode::RematchOver,
                    format!("the rematch has started at table {id}"),
                ))
            }
            Rematch::Lapsed => {
                return Err(err(
                    ErrorCode::RematchOver,
                    "a player has left this table; no rematch from it",
                ))
            }
        };
        if !accepted.iter().any(|a| a == user_id) {
            accepted.push(user_id.to_owned());
        }
        self.rematch = Rematch::Asked(accepted.clone());
        self.emit(TableEvent::RematchOffered {
            accepted: accepted.clone(),
        });
        let everyone = self.player_ids().iter().all(|p| accepted.contains(p));
        Ok(everyone.then(|| self.rotated_occupants()))
    }

    /// The occupants moved one seat on: seat `i`'s occupant sits at seat `i + 1`.
    pub(crate) fn rotated_occupants(&self) -> Vec<Occupant> {
        let n = self.seats.len();
        (0..n)
            .map(|i| self.seats[(i + n - 1) % n].occupant.clone())
            .collect()
    }

    /// The rematch is being played at `table`.
    pub(crate) fn rematch_started(&mut self, table: String) {
        self.rematch = Rematch::Started(table.clone());
        self.emit(TableEvent::RematchStarted { id: table });
    }

    /// A player left the finished table: any rematch offer is off.
    pub(crate) fn leave_finished(&mut self) {
        if matches!(self.rematch, Rematch::Started(_) | Rematch::Lapsed) {
            return;
        }
        self.rematch = Rematch::Lapsed;
        self.emit(TableEvent::RematchLapsed);
    }

    // ----- chat -----

    /// `from` posts `text` at `now`. Spectators' lines during a rated live game are
    /// hidden from the players.
    pub(crate) fn check_chat(
        &mut self,
        from: &UserInfo,
        text: &str,
        now: Millis,
    ) -> Result<ChatLine, ProtoError> {
        let spectator = !self.is_player(&from.id);
        let hidden = spectator && self.rated && self.status == Status::Live;
        let post = ChatPost {
            from,
            text,
            spectator,
            hidden_from_players: hidden,
        };
        self.chat.check(&post, now)
    }

    /// Adds a checked (and stored) chat line and announces it.
    pub(crate) fn add_chat(&mut self, line: ChatLine) {
        let hidden_from = if line.hidden_from_players {
            self.player_ids()
        } else {
            Vec::new()
        };
        self.chat.push(line.clone());
        self.emit_hidden(TableEvent::Chat(line), hidden_from);
    }

    // ----- the end -----

    /// The game's record with the table's tags.
    pub(crate) fn record_text(&self) -> String {
        let mut tags: Vec<(String, String)> = vec![
            ("Site".into(), "Stella".into()),
            ("Table".into(), self.id.clone()),
            ("Rated".into(), if self.rated { "yes" } else { "no" }.into()),
            (
                "TimeControl".into(),
                self.control.map_or("-".into(), |c| {
                    format!("{}+{}", c.reserve_ms / 60_000, c.increment_ms / 1_000)
                }),
            ),
        ];
        for s in &self.seats {
            tags.push((Record::seat_tag(s.colour).into(), s.occupant.display_name()));
        }
        let extra: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Record::from_game(&self.game, &extra).to_string()
    }

    /// The places by seat once the game is over.
    pub(crate) fn ending(&self) -> Option<Ending> {
        let outcome = self.game.outcome()?;
        Some(Ending {
            reason: match self.abandoned {
                Some(colour) => format!("abandoned-{colour}"),
                None => outcome.reason.to_string(),
            },
            places: outcome
                .places
                .iter()
                .map(|&(c, p)| (self.seat_of_colour(c), p))
                .collect(),
        })
    }

    /// Closes the game with its result (ratings included) and announces it.
    pub(crate) fn conclude(&mut self, ending: &Ending, ratings: &[(usize, f64, f64)]) {
        let result = ResultView {
            reason: ending.reason.clone(),
            places: ending
                .places
                .iter()
                .map(|&(seat, place)| {
                    let r = ratings.iter().find(|r| r.0 == seat);
                    PlaceView {
                        seat,
                        colour: self.seats[seat].colour.to_string(),
                        place,
                        rating_before: r.map(|r| r.1),
                        rating_after: r.map(|r| r.2),
                    }
                })
                .collect(),
        };
        self.result = Some(result.clone());
        self.status = Status::Finished;
        self.emit(TableEvent::Ended(result));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str) -> UserInfo {
        UserInfo {
            id: id.into(),
            name: format!("name-{id}"),
            guest: false,
            bot: false,
        }
    }

    fn table(variant: Variant, rated: bool, control: Option<TimeControl>) -> TableCore {
        let seats = variant
            .seats()
            .iter()
            .map(|&colour| Seat {
                colour,
                occupant: Occupant::Open,
            })
            .collect();
        TableCore::new(
            "t".into(),
            variant,
            rated,
            control,
            LagPolicy::default(),
            seats,
        )
    }

    /// A started table with people `p0`, `p1`, … in every seat.
    fn started(variant: Variant, rated: bool, control: Option<TimeControl>) -> TableCore {
        let mut t = table(variant, rated, control);
        for i in 0..t.seats.len() {
            let seat = t.check_join(&user(&format!("p{i}")), None).unwrap();
            t.sit(seat, user(&format!("p{i}")));
        }
        assert!(t.ready_to_start());
        t.start(0);
        t
    }

    fn play(t: &mut TableCore, path: &str, now: Millis) -> bool {
        let seat = t.seat_of_colour(t.game.turn());
        let who = t.seats[seat].occupant.user_id().unwrap().to_owned();
        let planned = t.plan_human_move(&who, path, false, 0, now).unwrap();
        t.commit(planned)
    }

    #[test]
    fn seats_fill_then_the_game_starts_with_numbered_events() {
        let mut t = table(Variant::Classic2, false, None);
        let s = t.check_join(&user("a"), None).unwrap();
        t.sit(s, user("a"));
        assert_eq!(
            t.check_join(&user("a"), None).unwrap_err().code,
            ErrorCode::AlreadySeated
        );
        assert_eq!(
            t.check_join(&user("b"), Some(0)).unwrap_err().code,
            ErrorCode::SeatTaken
        );
        assert_eq!(
            t.check_join(&user("b"), Some(7)).unwrap_err().code,
            ErrorCode::BadSeats
        );
        assert!(!t.ready_to_start());
        t.sit(1, user("b"));
        assert!(t.ready_to_start());
        t.start(0);
        let events = t.take_events();
        let versions: Vec<u64> = events.iter().map(|e| e.v).collect();
        assert_eq!(versions, vec![1, 2, 3]);
        assert!(matches!(events[2].event, TableEvent::Started { .. }));
        assert!(t.take_events().is_empty(), "the outbox empties");
        assert_eq!(
            t.check_leave("a").unwrap_err().code,
            ErrorCode::AlreadyStarted
        );
    }

    #[test]
    fn the_start_record_is_what_the_start_returns() {
        let control = TimeControl {
            reserve_ms: 60_000,
            increment_ms: 2_000,
        };
        for control in [None, Some(control)] {
            let mut t = table(Variant::Classic3, false, control);
            for i in 0..3 {
                t.sit(i, user(&format!("p{i}")));
            }
            let planned = t.start_record(1_234);
            assert_eq!(t.status, Status::Open, "planning changes nothing");
            assert_eq!(t.start(1_234), planned);
        }
    }

    #[test]
    fn a_table_whose_lease_is_gone_closes_with_an_event() {
        let mut t = table(Variant::Classic2, false, None);
        t.sit(0, user("a"));
        t.take_events();
        t.close_lost();
        assert_eq!(t.status, Status::Closed);
        let events = t.take_events();
        assert!(matches!(
            events[..],
            [EventEnvelope {
                event: TableEvent::Closed,
                ..
            }]
        ));
        assert!(!t.ready_to_start());
    }

    #[test]
    fn the_last_person_leaving_closes_the_table() {
        let mut t = table(Variant::Classic2, false, None);
        t.sit(0, user("a"));
        t.seats[1].occupant = Occupant::Computer(3);
        let seat = t.check_leave("a").unwrap();
        assert!(t.vacate(seat));
        assert_eq!(t.status, Status::Closed);
    }

    #[test]
    fn moves_are_checked_planned_then_committed() {
        let mut t = started(Variant::Classic2, false, None);
        let before = t.game.position().to_string();
        let e = t.plan_human_move("p1", "e14-e13", false, 0, 0).unwrap_err();
        assert!(matches!(e, PlanError::Refused(ref p) if p.code == ErrorCode::NotYourTurn));
        let e = t.plan_human_move("x", "m3-m4", false, 0, 0).unwrap_err();
        assert!(matches!(e, PlanError::Refused(ref p) if p.code == ErrorCode::NotSeated));
        let e = t.plan_human_move("p0", "m4-m6", false, 0, 0).unwrap_err();
        assert!(matches!(e, PlanError::Refused(ref p) if p.code == ErrorCode::IllegalMove));
        let e = t.plan_human_move("p0", "zz-9", false, 0, 0).unwrap_err();
        assert!(matches!(e, PlanError::Refused(ref p) if p.code == ErrorCode::BadMove));
        let planned = t.plan_human_move("p0", "m3-l4", false, 0, 0);
        let planned = planned.unwrap_or_else(|_| {
            let (mv, _) = first_legal(&t);
            t.plan_move(0, &mv, 0, 0).unwrap()
        });
        assert_eq!(
            t.game.position().to_string(),
            before,
            "planning changes nothing"
        );
        assert!(!t.commit(planned));
        assert_eq!(t.game.moves().len(), 1);
        assert_eq!(t.turn_name().as_deref(), Some("black"));
    }

    fn first_legal(t: &TableCore) -> (Move, String) {
        let mv = t.game.legal_moves()[0];
        let path = t.game.position().path_of(&mv).to_string();
        (mv, path)
    }

    #[test]
    fn the_win_over_an_absent_opponent_is_claimed_after_a_minute() {
        let mut t = started(Variant::Classic2, true, None);
        assert_eq!(t.summary().connected, vec![false, false]);
        assert!(t.presence("p1", true, 0), "p1 is now connected");
        assert!(!t.presence("p1", true, 0), "a second tab changes nothing");
        assert_eq!(t.summary().connected, vec![false, true]);
        t.take_events();
        t.presence("p1", false, 1_000);
        assert!(t.take_events().is_empty(), "one connection is left");
        t.presence("p1", false, 2_000);
        assert_eq!(
            t.snapshot(2_000, None).summary.connected,
            vec![false, false]
        );
        let events = t.take_events();
        assert_eq!(
            events[0].event,
            TableEvent::Absent {
                seat: 1,
                since: 2_000,
                claim_at: Some(62_000)
            }
        );
        assert_eq!(t.snapshot(2_000, None).absent.len(), 1);
        let e = t.claim_win("p0", 61_999).unwrap_err();
        assert_eq!(e.code, ErrorCode::CannotClaim);
        assert_eq!(
            t.claim_win("p1", 70_000).unwrap_err().code,
            ErrorCode::CannotClaim,
            "the absent player's opponent is here"
        );
        t.claim_win("p0", 62_000).unwrap();
        let ending = t.ending().unwrap();
        assert!(ending.reason.starts_with("abandoned-"), "{}", ending.reason);
        assert_eq!(ending.places[0], (0, 1), "the claimer wins");
    }

    #[test]
    fn coming_back_cancels_the_absence_and_more_players_cannot_claim() {
        let mut t = started(Variant::Classic3, false, None);
        t.presence("p2", true, 0);
        t.take_events();
        t.presence("p2", false, 5);
        t.presence("p2", true, 9);
        let events: Vec<_> = t.take_events().into_iter().map(|e| e.event).collect();
        assert_eq!(
            events,
            vec![
                TableEvent::Absent {
                    seat: 2,
                    since: 5,
                    claim_at: None
                },
                TableEvent::Present { seat: 2 }
            ]
        );
        assert!(t.snapshot(9, None).absent.is_empty());
        t.presence("p2", false, 10);
        let e = t.claim_win("p0", 1_000_000).unwrap_err();
        assert_eq!(e.code, ErrorCode::CannotClaim);
        assert!(e.message.contains("2-player"), "{}", e.message);
    }

    #[test]
    fn a_player_out_of_the_game_cannot_resign() {
        let mut t = started(Variant::Classic3, false, None);
        let s = "classic-3 white 32 white:j5,e15,e16,f14,f15,f16,g14,g15,h14,i9 blue:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 yellow:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 made:31,31,31";
        t.game = Game::from_position(s.parse().unwrap());
        let planned = t.plan_human_move("p0", "j5-j4", false, 0, 0).unwrap_err();
        assert!(
            matches!(planned, PlanError::Refused(ref p) if p.code == ErrorCode::ConfirmRequired)
        );
        let planned = t.plan_human_move("p0", "j5-j4", true, 0, 0).unwrap();
        assert!(!t.commit(planned));
        let e = t.resign("p0", 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotInGame);
        assert!(e.message.contains("white"), "{}", e.message);
        assert!(t.ending().is_none());
        t.resign("p1", 0).unwrap();
        let ending = t.ending().unwrap();
        assert_eq!(ending.reason, "resigned-blue");
        t.conclude(&ending, &[]);
        assert_eq!(t.status, Status::Finished);
        assert_eq!(t.resign("p2", 0).unwrap_err().code, ErrorCode::GameOver);
    }

    #[test]
    fn the_running_clock_flags_at_its_deadline() {
        let control = TimeControl::from_minutes_seconds(1, 0).unwrap();
        let mut t = started(Variant::Classic2, false, Some(control));
        let (seat, deadline) = t.flag_deadline().unwrap();
        assert_eq!(seat, 0);
        assert_eq!(t.due_flag(deadline - 1), None);
        assert_eq!(t.due_flag(deadline), Some(0));
        let (mv, _) = first_legal(&t);
        assert_eq!(
            t.plan_move(0, &mv, 0, deadline + 10_000).unwrap_err(),
            PlanError::Flagged(0)
        );
        assert!(t.flag(0, deadline));
        assert_eq!(t.ending().unwrap().reason, "timeout-white");
    }

    #[test]
    fn an_untimed_table_flags_the_seat_to_move_after_its_time_per_move() {
        let mut t = table(Variant::Classic2, false, None);
        t.move_time_ms = Some(300_000);
        t.sit(0, user("p0"));
        t.sit(1, user("p1"));
        t.start(1_000);
        assert_eq!(t.flag_deadline(), Some((0, 301_000)));
        let (_, path) = first_legal(&t);
        play(&mut t, &path, 200_000);
        assert_eq!(
            t.flag_deadline(),
            Some((1, 500_000)),
            "each move restarts it"
        );
        assert_eq!(t.snapshot(0, None).move_deadline, Some(500_000));
        assert_eq!(t.due_flag(499_999), None);
        assert_eq!(t.due_flag(500_000), Some(1));
        assert!(t.flag(1, 500_000));
        assert_eq!(t.ending().unwrap().reason, "timeout-black");
    }

    #[test]
    fn computer_seats_ask_to_think_and_stale_answers_are_ignored() {
        let mut t = table(Variant::Classic2, false, None);
        t.sit(0, user("a"));
        t.seats[1].occupant = Occupant::Computer(2);
        t.start(0);
        assert!(t.computer_to_move(0).is_none(), "white is a person");
        let (_, path) = first_legal(&t);
        play(&mut t, &path, 0);
        let ask = t.computer_to_move(0).unwrap();
        assert_eq!((ask.level, ask.ply), (2, 1));
        assert_eq!(t.computer_answer_seat(1), Some(1));
        assert_eq!(t.computer_answer_seat(0), None, "stale");
    }

    #[test]
    fn spectator_chat_in_a_rated_live_game_is_hidden_from_players() {
        let mut t = started(Variant::Classic2, true, None);
        t.take_events();
        let line = t.check_chat(&user("p0"), "good luck", 5).unwrap();
        assert!(!line.spectator && !line.hidden_from_players);
        t.add_chat(line);
        let line = t.check_chat(&user("watcher"), "nice", 6).unwrap();
        assert!(line.spectator && line.hidden_from_players);
        t.add_chat(line);
        let events = t.take_events();
        assert!(events[0].hidden_from.is_empty());
        assert_eq!(
            events[1].hidden_from,
            vec!["p0".to_owned(), "p1".to_owned()]
        );
        assert!(matches!(
            events[1].for_viewer(Some("p1")).event,
            TableEvent::Withheld
        ));
        assert!(matches!(
            events[1].for_viewer(Some("watcher")).event,
            TableEvent::Chat(_)
        ));
        assert_eq!(t.snapshot(0, Some("p0")).chat.len(), 1);
        assert_eq!(t.snapshot(0, Some("someone")).chat.len(), 2);
        assert_eq!(t.snapshot(0, None).chat.len(), 2);
        let replay = t.events_since(Some(t.v - 2), Some("p0")).unwrap();
        assert!(matches!(replay[1].event, TableEvent::Withheld));
    }

    #[test]
    fn a_rematch_starts_when_every_person_accepted_with_seats_rotated() {
        let mut t = table(Variant::Classic3, false, None);
        t.sit(0, user("a"));
        t.seats[1].occupant = Occupant::Computer(4);
        t.sit(2, user("c"));
        t.start(0);
        assert_eq!(t.ask_rematch("a").unwrap_err().code, ErrorCode::NotFinished);
        t.resign("a", 0).unwrap();
        let ending = t.ending().unwrap();
        t.conclude(&ending, &[]);
        assert_eq!(t.ask_rematch("x").unwrap_err().code, ErrorCode::NotSeated);
        assert_eq!(t.ask_rematch("a").unwrap(), None);
        assert_eq!(
            t.ask_rematch("a").unwrap(),
            None,
            "asking twice counts once"
        );
        assert_eq!(t.snapshot(0, None).rematch, vec!["a".to_owned()]);
        let seats = t.ask_rematch("c").unwrap().expect("everyone accepted");
        assert_eq!(
            seats,
            vec![
                Occupant::Human(user("c")),
                Occupant::Human(user("a")),
                Occupant::Computer(4)
            ]
        );
        t.rematch_started("new".into());
        assert_eq!(t.ask_rematch("a").unwrap_err().code, ErrorCode::RematchOver);
    }

    #[test]
    fn a_rematch_offer_lapses_when_a_player_leaves() {
        let mut t = started(Variant::Classic2, false, None);
        t.resign("p0", 0).unwrap();
        let ending = t.ending().unwrap();
        t.conclude(&ending, &[]);
        t.ask_rematch("p0").unwrap();
        assert_eq!(t.check_leave("p1").unwrap(), 1);
        t.leave_finished();
        let e = t.ask_rematch("p1").unwrap_err();
        assert_eq!(e.code, ErrorCode::RematchOver);
        assert!(matches!(
            t.take_events().last().unwrap().event,
            TableEvent::RematchLapsed
        ));
    }

    #[test]
    fn a_private_table_asks_for_its_invitation() {
        let mut t = table(Variant::Classic2, false, None);
        t.check_access(None, None).expect("public tables are open");
        t.invite = Some("secret".into());
        t.sit(0, user("a"));
        assert!(t.summary().private);
        t.check_access(Some("a"), None)
            .expect("players need no link");
        let e = t.check_access(Some("b"), Some("guess")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvitationRequired);
        assert_eq!(
            t.check_access(None, None).unwrap_err().code,
            ErrorCode::InvitationRequired
        );
        t.check_access(Some("b"), Some("secret")).unwrap();
    }

    #[test]
    fn a_game_can_be_aborted_until_every_seat_has_moved() {
        let mut t = started(Variant::Classic3, true, None);
        assert_eq!(t.abort("x", 0).unwrap_err().code, ErrorCode::NotSeated);
        for _ in 0..2 {
            let (_, path) = first_legal(&t);
            play(&mut t, &path, 0);
        }
        let mut late = t.clone();
        let (_, path) = first_legal(&late);
        play(&mut late, &path, 0);
        assert_eq!(
            late.abort("p0", 0).unwrap_err().code,
            ErrorCode::TooLateToAbort
        );
        t.abort("p0", 0).unwrap();
        assert_eq!(t.status, Status::Aborted);
        assert!(t.ending().is_none(), "no result");
        assert_eq!(t.summary().status, "aborted");
        let (_, path) = first_legal(&t);
        let who = t.seats[t.seat_of_colour(t.game.turn())]
            .occupant
            .user_id()
            .unwrap()
            .to_owned();
        assert!(t.plan_human_move(&who, &path, false, 0, 0).is_err());
    }

    #[test]
    fn spectator_chat_in_a_casual_game_reaches_everyone() {
        let mut t = started(Variant::Classic2, false, None);
        let line = t.check_chat(&user("watcher"), "hello", 0).unwrap();
        assert!(line.spectator && !line.hidden_from_players);
        t.add_chat(line);
        assert_eq!(t.snapshot(0, Some("p0")).chat.len(), 1);
    }
}
