//! The table task: owns one game and answers its commands one at a time.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use stella_engine::{Colour, Game, IllegalMove, Move, MovePath, ParseError, Record, Variant};

use super::clock::{Clock, LagPolicy, Press, TimeControl};
use super::command::{Command, TableHandle, WatchReply};
use super::ratings::rating_updates;
use super::seat::{Occupant, Seat};
use crate::computer::ComputerPlayer;
use crate::lobby::Lobby;
use crate::storage::{Finish, MoveRow, Storage};
use crate::time::{Millis, TimeSource};
use crate::ws::{
    ErrorCode, EventEnvelope, PlaceView, ProtoError, ResultView, TableEvent, TableSnapshot,
    TableSummary, TimeSpec, UserInfo,
};

/// What every table task needs from the server.
#[derive(Debug, Clone)]
pub struct TableDeps {
    /// The database.
    pub storage: Storage,
    /// The time source of clocks.
    pub time: Arc<dyn TimeSource>,
    /// The registry and lobby list.
    pub lobby: Arc<Lobby>,
    /// Who plays computer seats.
    pub computer: Arc<dyn ComputerPlayer>,
    /// Becomes true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// The lag quota rules.
    pub lag: LagPolicy,
    /// How long a finished table keeps answering before its task ends.
    pub linger: Duration,
}

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
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Live => "live",
            Status::Finished => "finished",
            Status::Closed => "closed",
        }
    }
}

/// The state owned by one table task.
#[derive(Debug)]
pub(crate) struct TableActor {
    pub(crate) id: String,
    pub(crate) variant: Variant,
    pub(crate) rated: bool,
    pub(crate) control: Option<TimeControl>,
    pub(crate) seats: Vec<Seat>,
    pub(crate) seat_lag: Vec<Millis>,
    pub(crate) status: Status,
    pub(crate) game: Game,
    pub(crate) clock: Option<Clock>,
    pub(crate) log: Vec<EventEnvelope>,
    pub(crate) v: u64,
    pub(crate) result: Option<ResultView>,
    pub(crate) deps: TableDeps,
    events: broadcast::Sender<EventEnvelope>,
    self_tx: Option<mpsc::WeakSender<Command>>,
    thinking: bool,
    finished_at: Option<Instant>,
}

fn err(code: ErrorCode, message: impl Into<String>) -> ProtoError {
    ProtoError::new(code, message)
}

fn illegal(e: IllegalMove) -> ProtoError {
    let code = match e {
        IllegalMove::GameOver => ErrorCode::GameOver,
        IllegalMove::NoMarbleOfPlayer { .. } => ErrorCode::NotYourMarble,
        _ => ErrorCode::IllegalMove,
    };
    err(code, e.to_string())
}

fn storage_error(e: crate::storage::StorageError) -> ProtoError {
    tracing::error!(error = %e, "storage failure at a table");
    err(
        ErrorCode::Storage,
        "the server could not store this; nothing changed, try again",
    )
}

impl TableActor {
    /// A table in its first state; `v` and `log` are set by the caller's events.
    pub(crate) fn new(
        id: String,
        variant: Variant,
        rated: bool,
        control: Option<TimeControl>,
        seats: Vec<Seat>,
        deps: TableDeps,
    ) -> Self {
        let n = seats.len();
        TableActor {
            id,
            variant,
            rated,
            control,
            seats,
            seat_lag: vec![0; n],
            status: Status::Open,
            game: Game::new(variant),
            clock: None,
            log: Vec::new(),
            v: 0,
            result: None,
            deps,
            events: broadcast::channel(256).0,
            self_tx: None,
            thinking: false,
            finished_at: None,
        }
    }

    /// Registers the task in the lobby and starts it.
    pub(crate) fn spawn(mut self) -> TableHandle {
        let (tx, rx) = mpsc::channel(64);
        self.self_tx = Some(tx.downgrade());
        let handle = TableHandle {
            id: self.id.clone(),
            tx,
        };
        self.deps.lobby.register(handle.clone());
        self.deps.lobby.publish(self.summary());
        tokio::spawn(self.run(rx));
        handle
    }

    fn now(&self) -> Millis {
        self.deps.time.now_ms()
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.deps.shutdown.clone();
        let jumps = self.deps.time.jumps();
        let linger = self.deps.linger;
        loop {
            if matches!(self.status, Status::Closed) {
                break;
            }
            if let Some(at) = self.finished_at {
                if at.elapsed() >= linger {
                    break;
                }
            }
            self.maybe_think();
            let now = self.now();
            let mut wait = match (self.status, self.flag_deadline(), self.finished_at) {
                (Status::Live, Some((_, deadline)), _) => {
                    Duration::from_millis((deadline - now).max(0) as u64)
                }
                (Status::Finished, _, Some(at)) => linger.saturating_sub(at.elapsed()),
                _ => Duration::from_secs(3600),
            };
            if jumps.is_some() {
                wait = wait.min(Duration::from_secs(1));
            }
            let jumped = async {
                match &jumps {
                    Some(n) => n.notified().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = tokio::time::sleep(wait) => self.check_flag().await,
                _ = jumped => self.check_flag().await,
                _ = shutdown.changed() => break,
            }
        }
        self.deps.lobby.deregister(&self.id);
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join { user, seat, reply } => {
                let _ = reply.send(self.on_join(user, seat).await);
            }
            Command::Leave { user_id, reply } => {
                let _ = reply.send(self.on_leave(&user_id).await);
            }
            Command::Watch { since, reply } => {
                let _ = reply.send(self.on_watch(since));
            }
            Command::Move {
                user_id,
                path,
                confirm,
                lag_ms,
                reply,
            } => {
                let r = self.on_move(&user_id, &path, confirm, lag_ms).await;
                let _ = reply.send(r);
            }
            Command::Resign { user_id, reply } => {
                let _ = reply.send(self.on_resign(&user_id).await);
            }
            Command::ComputerMove { ply, mv } => self.on_computer_move(ply, mv).await,
        }
    }

    // ----- events and views -----

    pub(crate) fn emit(&mut self, event: TableEvent) {
        self.v += 1;
        let envelope = EventEnvelope {
            table: self.id.clone(),
            v: self.v,
            event,
        };
        self.log.push(envelope.clone());
        let _ = self.events.send(envelope);
    }

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
        }
    }

    fn turn_name(&self) -> Option<String> {
        (self.status == Status::Live && !self.game.is_over()).then(|| self.game.turn().to_string())
    }

    fn snapshot(&self) -> TableSnapshot {
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
            clock: self.clock.as_ref().map(|c| c.view(self.now())),
            result: self.result.clone(),
        }
    }

    fn on_watch(&self, since: Option<u64>) -> WatchReply {
        let receiver = self.events.subscribe();
        let first = self.log.first().map_or(self.v + 1, |e| e.v);
        match since {
            Some(s) if s <= self.v && s + 1 >= first => WatchReply {
                snapshot: None,
                events: self.log.iter().filter(|e| e.v > s).cloned().collect(),
                receiver,
            },
            _ => WatchReply {
                snapshot: Some(self.snapshot()),
                events: Vec::new(),
                receiver,
            },
        }
    }

    pub(crate) fn seat_of_colour(&self, colour: Colour) -> usize {
        self.seats
            .iter()
            .position(|s| s.colour == colour)
            .expect("every colour to move has a seat")
    }

    fn seat_of_user(&self, user_id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.occupant.user_id() == Some(user_id))
    }

    // ----- seats -----

    async fn on_join(&mut self, user: UserInfo, seat: Option<usize>) -> Result<(), ProtoError> {
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
        if self.seat_of_user(&user.id).is_some() {
            return Err(err(
                ErrorCode::AlreadySeated,
                "you already sit at this table",
            ));
        }
        let index = match seat {
            Some(i) if i >= self.seats.len() => {
                return Err(err(
                    ErrorCode::BadSeats,
                    format!(
                        "no seat {i}: this table has seats 0 to {}",
                        self.seats.len() - 1
                    ),
                ))
            }
            Some(i) if self.seats[i].occupant != Occupant::Open => {
                return Err(err(ErrorCode::SeatTaken, format!("seat {i} is taken")))
            }
            Some(i) => i,
            None => self
                .seats
                .iter()
                .position(|s| s.occupant == Occupant::Open)
                .ok_or_else(|| err(ErrorCode::SeatTaken, "every seat is taken"))?,
        };
        self.deps
            .storage
            .set_seat(&self.id, index, Some(&user.id))
            .await
            .map_err(storage_error)?;
        self.seats[index].occupant = Occupant::Human(user);
        self.emit(TableEvent::Seated {
            seat: index,
            player: self.seats[index].occupant.view(),
        });
        self.start_if_full().await;
        self.deps.lobby.publish(self.summary());
        Ok(())
    }

    async fn on_leave(&mut self, user_id: &str) -> Result<(), ProtoError> {
        if self.status != Status::Open {
            return Err(err(
                ErrorCode::AlreadyStarted,
                "the game has started; resign instead of leaving",
            ));
        }
        let index = self
            .seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))?;
        self.deps
            .storage
            .set_seat(&self.id, index, None)
            .await
            .map_err(storage_error)?;
        self.seats[index].occupant = Occupant::Open;
        self.emit(TableEvent::Vacated { seat: index });
        if !self
            .seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Human(_)))
        {
            if let Err(e) = self.deps.storage.abort_game(&self.id, self.now()).await {
                tracing::error!(error = %e, table = %self.id, "could not mark table aborted");
            }
            self.status = Status::Closed;
            self.emit(TableEvent::Closed);
        }
        self.deps.lobby.publish(self.summary());
        Ok(())
    }

    /// Starts the game when every seat is taken.
    pub(crate) async fn start_if_full(&mut self) {
        if self.status != Status::Open || self.seats.iter().any(|s| s.occupant == Occupant::Open) {
            return;
        }
        let now = self.now();
        self.status = Status::Live;
        let first = self.seat_of_colour(self.game.turn());
        self.clock = self.control.map(|c| {
            let mut clock = Clock::new(c, self.seats.len(), self.deps.lag);
            clock.start(first, now);
            clock
        });
        let stored = self
            .clock
            .as_ref()
            .map(|c| serde_json::to_string(&c.stored()).expect("clock serializes"));
        let start_v = self.v + 1;
        if let Err(e) = self
            .deps
            .storage
            .start_game(&self.id, now, stored.as_deref(), start_v)
            .await
        {
            tracing::error!(error = %e, table = %self.id, "could not store the start of a game");
        }
        self.emit(TableEvent::Started {
            turn: self.turn_name(),
            clock: self.clock.as_ref().map(|c| c.view(now)),
        });
    }

    // ----- moves -----

    async fn on_move(
        &mut self,
        user_id: &str,
        path: &str,
        confirm: bool,
        lag: Millis,
    ) -> Result<(), ProtoError> {
        match self.status {
            Status::Open => return Err(err(ErrorCode::NotStarted, "the game has not started yet")),
            Status::Finished | Status::Closed => {
                return Err(err(ErrorCode::GameOver, "the game is over"))
            }
            Status::Live => {}
        }
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
            ));
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
            ));
        }
        self.commit_move(seat, mv, lag).await
    }

    /// Applies a move with the engine, stores it, then broadcasts it.
    async fn commit_move(&mut self, seat: usize, mv: Move, lag: Millis) -> Result<(), ProtoError> {
        let now = self.now();
        let mut clock = self.clock.clone();
        if let Some(c) = clock.as_mut() {
            if c.press(now, lag) == Press::Flagged {
                self.flag(seat).await;
                return Err(err(
                    ErrorCode::GameOver,
                    "your time ran out before the move arrived",
                ));
            }
        }
        let colour = self.game.turn();
        let mut game = self.game.clone();
        game.play(&mv).map_err(illegal)?;
        let path = game
            .moves()
            .last()
            .map(|(_, p)| p.to_string())
            .unwrap_or_default();
        if !game.is_over() {
            if let Some(c) = clock.as_mut() {
                c.start(self.seat_of_colour(game.turn()), now);
            }
        }
        let ply = game.moves().len();
        let row = MoveRow {
            ply: ply as i64,
            colour: colour.to_string(),
            path: path.clone(),
            clock: clock
                .as_ref()
                .map(|c| serde_json::to_string(&c.stored()).expect("clock serializes")),
            at_ms: now,
        };
        self.deps
            .storage
            .insert_move(&self.id, &row)
            .await
            .map_err(storage_error)?;
        self.game = game;
        self.clock = clock;
        let position = self.game.position().to_string();
        self.emit(TableEvent::Moved {
            ply: ply as u64,
            colour: colour.to_string(),
            path,
            position,
            turn: self.turn_name(),
            clock: self.clock.as_ref().map(|c| c.view(now)),
        });
        if self.game.is_over() {
            self.finish().await;
        }
        Ok(())
    }

    async fn on_resign(&mut self, user_id: &str) -> Result<(), ProtoError> {
        match self.status {
            Status::Open => {
                return Err(err(
                    ErrorCode::NotStarted,
                    "the game has not started; leave the seat instead",
                ))
            }
            Status::Finished | Status::Closed => {
                return Err(err(ErrorCode::GameOver, "the game is over"))
            }
            Status::Live => {}
        }
        let seat = self
            .seat_of_user(user_id)
            .ok_or_else(|| err(ErrorCode::NotSeated, "you do not sit at this table"))?;
        let now = self.now();
        self.game.resign(self.seats[seat].colour).map_err(illegal)?;
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        self.finish().await;
        Ok(())
    }

    // ----- clocks -----

    fn flag_deadline(&self) -> Option<(usize, Millis)> {
        let clock = self.clock.as_ref()?;
        let seat = clock.running()?;
        let lag = match self.seats[seat].occupant {
            Occupant::Human(_) => self.seat_lag[seat],
            _ => 0,
        };
        clock.flag_deadline(lag)
    }

    async fn check_flag(&mut self) {
        if self.status != Status::Live {
            return;
        }
        if let Some((seat, deadline)) = self.flag_deadline() {
            if self.now() >= deadline {
                self.flag(seat).await;
            }
        }
    }

    async fn flag(&mut self, seat: usize) {
        let now = self.now();
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
        if self.game.time_out(self.seats[seat].colour).is_ok() {
            self.finish().await;
        }
    }

    // ----- computer seats -----

    fn maybe_think(&mut self) {
        if self.status != Status::Live || self.thinking || self.game.is_over() {
            return;
        }
        let seat = self.seat_of_colour(self.game.turn());
        let Occupant::Computer(level) = self.seats[seat].occupant else {
            return;
        };
        let Some(tx) = self.self_tx.clone() else {
            return;
        };
        let think_ms = match &self.clock {
            Some(c) => (c.remaining_at(seat, self.now()) / 30 + c.control().increment_ms / 2)
                .clamp(50, 10_000),
            None => 2_000,
        };
        self.thinking = true;
        let game = self.game.clone();
        let ply = game.moves().len();
        let computer = self.deps.computer.clone();
        tokio::spawn(async move {
            let chosen =
                tokio::task::spawn_blocking(move || computer.choose(&game, level, think_ms)).await;
            match chosen {
                Ok(Some(mv)) => {
                    if let Some(tx) = tx.upgrade() {
                        let _ = tx.send(Command::ComputerMove { ply, mv }).await;
                    }
                }
                Ok(None) => tracing::warn!("computer player found no move"),
                Err(e) => tracing::error!(error = %e, "computer player failed"),
            }
        });
    }

    async fn on_computer_move(&mut self, ply: usize, mv: Move) {
        self.thinking = false;
        if self.status != Status::Live || ply != self.game.moves().len() {
            return;
        }
        let seat = self.seat_of_colour(self.game.turn());
        if !matches!(self.seats[seat].occupant, Occupant::Computer(_)) {
            return;
        }
        if let Err(e) = self.commit_move(seat, mv, 0).await {
            tracing::warn!(table = %self.id, error = %e, "computer move refused");
        }
    }

    // ----- the end -----

    fn record_text(&self) -> String {
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

    /// Stores the end of a game whose last move was stored just before a stop.
    pub(crate) async fn finish_after_resume(&mut self) {
        self.finish().await;
    }

    async fn finish(&mut self) {
        let Some(outcome) = self.game.outcome() else {
            return;
        };
        let now = self.now();
        let places: Vec<(usize, u8)> = outcome
            .places
            .iter()
            .map(|&(c, p)| (self.seat_of_colour(c), p))
            .collect();
        let updates = if self.rated {
            match rating_updates(&self.deps.storage, self.variant, &self.seats, &places).await {
                Ok(u) => u,
                Err(e) => {
                    tracing::error!(error = %e, table = %self.id, "could not read ratings");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let reason = outcome.reason.to_string();
        let record = self.record_text();
        let finish = Finish {
            finished_ms: now,
            reason: &reason,
            record: &record,
            places: &places,
            ratings: &updates,
        };
        if let Err(e) = self.deps.storage.finish_game(&self.id, &finish).await {
            tracing::error!(error = %e, table = %self.id, "could not store the end of a game");
        }
        let result = ResultView {
            reason,
            places: places
                .iter()
                .map(|&(seat, place)| {
                    let u = updates.iter().find(|u| u.seat == seat);
                    PlaceView {
                        seat,
                        colour: self.seats[seat].colour.to_string(),
                        place,
                        rating_before: u.map(|u| u.before),
                        rating_after: u.map(|u| u.after),
                    }
                })
                .collect(),
        };
        self.result = Some(result.clone());
        self.status = Status::Finished;
        self.finished_at = Some(Instant::now());
        self.emit(TableEvent::Ended(result));
        self.deps.lobby.publish(self.summary());
    }
}
