//! The table task: the I/O around a [`TableCore`]. It answers commands one at a time,
//! stores each decision before applying it, broadcasts the core's events, keeps the
//! flag timer and asks the computer player for computer seats' moves.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use stella_engine::{Game, Move};

use super::clock::LagPolicy;
use super::command::{Command, TableHandle, WatchReply};
pub(crate) use super::core::Status;
use super::core::{PlanError, PlannedMove, TableCore, ThinkRequest};
use super::create::{create_table, NewTable};
use super::ratings::rating_updates;
use crate::cluster::Leases;
use crate::computer::ComputerPlayer;
use crate::lobby::Lobby;
use crate::protocol::{ErrorCode, EventEnvelope, ProtoError, UserInfo};
use crate::storage::{Finish, MoveRow, Storage};
use crate::time::{next_jump, Millis, TimeSource};

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
    /// How long a player of a 2-player game may be away before the opponent may
    /// claim the win.
    pub abandon_after: Duration,
    /// In a cluster, the table leases of this node: a move is stored only while the
    /// node holds the table's lease. None on a single node.
    pub leases: Option<Arc<Leases>>,
}

fn storage_error(e: crate::storage::StorageError) -> ProtoError {
    tracing::error!(error = %e, "storage failure at a table");
    ProtoError::new(
        ErrorCode::Storage,
        "the server could not store this; nothing changed, try again",
    )
}

/// How many times a computer seat's search is asked before the fallback move.
const SEARCH_ATTEMPTS: u32 = 2;

/// The state owned by one table task.
#[derive(Debug)]
pub(crate) struct TableActor {
    pub(crate) core: TableCore,
    pub(crate) deps: TableDeps,
    events: broadcast::Sender<EventEnvelope>,
    self_tx: Option<mpsc::WeakSender<Command>>,
    thinking: bool,
    finished_at: Option<Instant>,
    /// Set when another node took the table over: the task stops.
    fenced_out: bool,
}

impl TableActor {
    /// A task around a core in its first state.
    pub(crate) fn new(core: TableCore, deps: TableDeps) -> Self {
        TableActor {
            core,
            deps,
            events: broadcast::channel(256).0,
            self_tx: None,
            thinking: false,
            finished_at: None,
            fenced_out: false,
        }
    }

    /// Registers the task in the lobby and starts it.
    pub(crate) fn spawn(mut self) -> TableHandle {
        let (tx, rx) = mpsc::channel(64);
        self.self_tx = Some(tx.downgrade());
        let handle = TableHandle {
            id: self.core.id.clone(),
            tx,
        };
        // Events produced before the task starts are in the log for watchers.
        self.core.take_events();
        self.deps.lobby.register(handle.clone());
        self.publish();
        tokio::spawn(self.run(rx));
        handle
    }

    /// Shows the table's new state in the lobby; private tables stay out of its list
    /// (the lobby still counts them for the limits on what a user holds).
    fn publish(&self) {
        if self.core.invite.is_none() {
            self.deps.lobby.publish(self.core.summary());
        } else {
            self.deps.lobby.publish_private(self.core.summary());
        }
    }

    fn now(&self) -> Millis {
        self.deps.time.now_ms()
    }

    /// Sends the core's new events to the watchers.
    fn broadcast(&mut self) {
        for e in self.core.take_events() {
            let _ = self.events.send(e);
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.deps.shutdown.clone();
        let mut jumps = self.deps.time.jumps();
        let linger = self.deps.linger;
        loop {
            if matches!(self.core.status, Status::Closed) || self.fenced_out {
                break;
            }
            if let Some(at) = self.finished_at {
                if at.elapsed() >= linger {
                    break;
                }
            }
            self.maybe_think();
            let now = self.now();
            let mut wait = match (self.core.flag_deadline(), self.finished_at) {
                (Some((_, deadline)), _) => {
                    Some(Duration::from_millis((deadline - now).max(0) as u64))
                }
                (None, Some(at)) => Some(linger.saturating_sub(at.elapsed())),
                _ => None,
            };
            if jumps.is_some() {
                wait = Some(wait.map_or(Duration::from_secs(1), |w| w.min(Duration::from_secs(1))));
            }
            // Without a deadline there is no timer at all: a timer set up and dropped
            // for every command (most of them moves of untimed games) costs CPU.
            let timer = async {
                match wait {
                    Some(w) => tokio::time::sleep(w).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = timer => self.check_flag().await,
                _ = next_jump(&mut jumps) => self.check_flag().await,
                _ = shutdown.changed() => break,
            }
            self.broadcast();
        }
        self.broadcast();
        self.deps.lobby.deregister(&self.core.id);
    }

    /// Broadcasts the events of a command before answering it, so that a client sees
    /// the consequences of its request no later than the answer.
    fn answer<T>(&mut self, reply: tokio::sync::oneshot::Sender<T>, answer: T) {
        self.broadcast();
        let _ = reply.send(answer);
    }

    async fn handle(&mut self, cmd: Command) {
        if cmd.writes() && !self.may_act() {
            let e = self.give_up().await;
            self.broadcast();
            cmd.refuse(e);
            return;
        }
        match cmd {
            Command::Join {
                user,
                seat,
                invite,
                reply,
            } => {
                let r = self.on_join(user, seat, invite.as_deref()).await;
                self.answer(reply, r);
            }
            Command::Leave { user_id, reply } => {
                let r = self.on_leave(&user_id).await;
                self.answer(reply, r);
            }
            Command::Watch {
                since,
                viewer,
                invite,
                reply,
            } => {
                let r = self
                    .core
                    .check_access(viewer.as_deref(), invite.as_deref())
                    .map(|()| self.on_watch(since, viewer.as_deref()));
                self.answer(reply, r);
            }
            Command::Move {
                user_id,
                path,
                confirm,
                lag_ms,
                reply,
            } => {
                let now = self.now();
                let planned = self
                    .core
                    .plan_human_move(&user_id, &path, confirm, lag_ms, now);
                let r = self.store_and_commit(planned).await;
                self.answer(reply, r);
            }
            Command::Resign { user_id, reply } => {
                let now = self.now();
                let r = self.core.resign(&user_id, now);
                if r.is_ok() {
                    self.finish().await;
                }
                self.answer(reply, r);
            }
            Command::Presence { user_id, here } => {
                let now = self.now();
                if self.core.presence(&user_id, here, now) {
                    self.publish();
                }
                self.broadcast();
            }
            Command::ClaimWin { user_id, reply } => {
                let now = self.now();
                let r = self.core.claim_win(&user_id, now);
                if r.is_ok() {
                    self.finish().await;
                }
                self.answer(reply, r);
            }
            Command::Abort { user_id, reply } => {
                let r = self.on_abort(&user_id).await;
                self.answer(reply, r);
            }
            Command::Rematch { user_id, reply } => {
                let r = self.on_rematch(&user_id).await;
                self.answer(reply, r);
            }
            Command::Chat { user, text, reply } => {
                let r = self.on_chat(&user, &text).await;
                self.answer(reply, r);
            }
            Command::Subscribe { reply } => {
                self.broadcast();
                let _ = reply.send(self.events.subscribe());
            }
            Command::ComputerMove { ply, mv } => self.on_computer_move(ply, mv).await,
            Command::LeaseLost => {
                // A live table stops at its next write, as a refused move stops it.
                if self.core.status == Status::Open && !self.may_act() {
                    self.give_up().await;
                }
            }
            Command::ComputerFailed { ply } => self.on_computer_failed(ply).await,
        }
    }

    fn on_watch(&mut self, since: Option<u64>, viewer: Option<&str>) -> WatchReply {
        // Anything not yet broadcast goes out first, so the receiver misses nothing.
        self.broadcast();
        let receiver = self.events.subscribe();
        match self.core.events_since(since, viewer) {
            Some(events) => WatchReply {
                snapshot: None,
                events,
                receiver,
            },
            None => WatchReply {
                snapshot: Some(self.core.snapshot(self.now(), viewer)),
                events: Vec::new(),
                receiver,
            },
        }
    }

    // ----- seats -----

    async fn on_join(
        &mut self,
        user: UserInfo,
        seat: Option<usize>,
        invite: Option<&str>,
    ) -> Result<(), ProtoError> {
        self.core.check_access(Some(&user.id), invite)?;
        let index = self.core.check_join(&user, seat)?;
        self.deps
            .storage
            .set_seat(&self.core.id, index, Some(&user.id))
            .await
            .map_err(storage_error)?;
        self.core.sit(index, user);
        let started = self.start_if_full().await;
        self.publish();
        started
    }

    async fn on_leave(&mut self, user_id: &str) -> Result<(), ProtoError> {
        let index = self.core.check_leave(user_id)?;
        if self.core.status == Status::Finished {
            // The seat stays in the game's history; only a rematch offer lapses.
            self.core.leave_finished();
            return Ok(());
        }
        self.deps
            .storage
            .set_seat(&self.core.id, index, None)
            .await
            .map_err(storage_error)?;
        if self.core.vacate(index) {
            self.store_aborted().await;
        }
        self.publish();
        Ok(())
    }

    /// Starts the game when every seat is taken. In a cluster the start is stored only
    /// while the game is still `open` and this node still holds its lease, both checked
    /// by the statement that starts it ([`crate::storage::Storage::start_game`]); when
    /// either is gone (a pause longer than the lease let another node's sweep call the
    /// game off) the table is closed instead and the error says so.
    pub(crate) async fn start_if_full(&mut self) -> Result<(), ProtoError> {
        if !self.core.ready_to_start() {
            return Ok(());
        }
        let fence = match &self.deps.leases {
            None => None,
            Some(leases) => match leases.fence(&self.core.id) {
                Some(fence) => Some(fence),
                None => return Err(self.give_up().await),
            },
        };
        let now = self.now();
        let (clock, start_v) = self.core.start_record(now);
        let stored = clock.map(|c| serde_json::to_string(&c).expect("clock serializes"));
        match self
            .deps
            .storage
            .start_game(
                &self.core.id,
                now,
                stored.as_deref(),
                start_v,
                fence.as_ref(),
            )
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(table = %self.core.id, "the game was called off or its lease is gone; not starting it");
                return Err(self.give_up().await);
            }
            Err(e) => {
                // As before fencing: the game goes on; its moves are still fenced.
                tracing::error!(error = %e, table = %self.core.id, "could not store the start of a game");
            }
        }
        self.core.start(now);
        Ok(())
    }

    /// Whether this node may still write for the table: always on a single node; in
    /// a cluster, while a table not yet ended is held under a lease that is not within
    /// [`crate::cluster::lease::SAFETY_MS`] of running out ([`Leases::token`]). A node
    /// stops acting for a table before another node may take it over or call it off.
    fn may_act(&self) -> bool {
        let Some(leases) = &self.deps.leases else {
            return true;
        };
        match self.core.status {
            Status::Open | Status::Live => leases.token(&self.core.id).is_some(),
            Status::Finished | Status::Closed | Status::Aborted => true,
        }
    }

    /// Stops acting for a table whose lease is gone; returns the error for whoever
    /// asked. A table waiting for players is closed, as the other nodes' sweep closes
    /// it once its lease lapsed: its people get a `closed` event, it leaves the lobby,
    /// and its game is stored `aborted` if the sweep has not done so yet (nobody plays
    /// there; ended, its lease is given up). A live table's task stops and leaves it to
    /// the node that takes it over.
    async fn give_up(&mut self) -> ProtoError {
        if self.core.status == Status::Open {
            tracing::warn!(table = %self.core.id, "this node no longer holds the open table; closing it");
            self.core.close_lost();
            self.publish();
            self.store_aborted().await;
            return ProtoError::new(
                ErrorCode::NoSuchTable,
                "this table was closed: its server lost it while it waited for players; \
                 create or join another table",
            );
        }
        tracing::warn!(table = %self.core.id, "this node no longer holds the table; stopping it");
        self.fenced_out = true;
        ProtoError::new(
            ErrorCode::Unavailable,
            "the table is moving to another server; reconnect and try again",
        )
    }

    // ----- moves -----

    /// Stores a planned move, then applies it; a flag found while planning ends the
    /// game instead.
    async fn store_and_commit(
        &mut self,
        planned: Result<PlannedMove, PlanError>,
    ) -> Result<(), ProtoError> {
        let planned = match planned {
            Ok(p) => p,
            Err(PlanError::Refused(e)) => return Err(e),
            Err(PlanError::Flagged(seat)) => {
                self.flag(seat).await;
                return Err(ProtoError::new(
                    ErrorCode::GameOver,
                    "your time ran out before the move arrived",
                ));
            }
        };
        let row = MoveRow {
            ply: planned.ply as i64,
            colour: planned.colour.to_string(),
            path: planned.path.clone(),
            clock: planned
                .stored_clock
                .as_ref()
                .map(|c| serde_json::to_string(c).expect("clock serializes")),
            at_ms: planned.at,
        };
        self.store_move(&row).await?;
        if self.core.commit(planned) {
            self.finish().await;
        }
        Ok(())
    }

    /// Stores a move; in a cluster only while this node holds the table's lease (the
    /// check runs in the move's own transaction). A node that lost the table answers
    /// `unavailable` and its task stops, leaving the table to its new holder.
    async fn store_move(&mut self, row: &MoveRow) -> Result<(), ProtoError> {
        let storage = &self.deps.storage;
        let Some(leases) = &self.deps.leases else {
            return storage
                .insert_move(&self.core.id, row)
                .await
                .map_err(storage_error);
        };
        let stored = match leases.token(&self.core.id) {
            Some(token) => storage
                .insert_move_fenced(&self.core.id, row, &token.node, token.epoch, self.now())
                .await
                .map_err(|e| {
                    // In a cluster the database going away is an outage to wait out
                    // (the table may move meanwhile), not a refusal of this move.
                    tracing::error!(error = %e, table = %self.core.id, "could not store a move");
                    ProtoError::new(
                        ErrorCode::Unavailable,
                        "the database is unreachable; nothing changed, try again",
                    )
                })?,
            None => false,
        };
        if stored {
            return Ok(());
        }
        Err(self.give_up().await)
    }

    /// Stores the table's game as aborted (an open table nobody will play); a failure
    /// is logged: an open row left behind is called off by a cluster's sweep, or by a
    /// single node at its next start.
    async fn store_aborted(&self) {
        if let Err(e) = self
            .deps
            .storage
            .abort_game(&self.core.id, self.now())
            .await
        {
            tracing::error!(error = %e, table = %self.core.id, "could not mark table aborted");
        }
    }

    /// Calls the game off and stores it as aborted: no result, no rating change.
    async fn on_abort(&mut self, user_id: &str) -> Result<(), ProtoError> {
        let now = self.now();
        self.core.abort(user_id, now)?;
        if let Err(e) = self.deps.storage.abort_game(&self.core.id, now).await {
            tracing::error!(error = %e, table = %self.core.id, "could not store an abort");
        }
        self.finished_at = Some(Instant::now());
        self.publish();
        Ok(())
    }

    // ----- rematch -----

    /// Records a rematch request; once every person accepted, creates the new table
    /// (same settings, seats rotated) and announces it.
    async fn on_rematch(&mut self, user_id: &str) -> Result<(), ProtoError> {
        let Some(seats) = self.core.ask_rematch(user_id)? else {
            return Ok(());
        };
        let new = NewTable {
            variant: self.core.variant,
            control: self.core.control,
            rated: self.core.rated,
            seats,
            created_by: None,
            invite: self.core.invite.clone(),
            move_time: self.core.move_time_ms.map(|ms| ms / 1_000),
            bots: self.core.bots,
        };
        let handle = create_table(&self.deps, new).await?;
        self.core.rematch_started(handle.id);
        Ok(())
    }

    // ----- chat -----

    async fn on_chat(&mut self, user: &UserInfo, text: &str) -> Result<(), ProtoError> {
        let now = self.now();
        let line = self.core.check_chat(user, text, now)?;
        let seq = self.core.chat.lines().len();
        self.deps
            .storage
            .insert_chat(&self.core.id, seq, &line)
            .await
            .map_err(storage_error)?;
        self.core.add_chat(line);
        Ok(())
    }

    // ----- clocks -----

    async fn check_flag(&mut self) {
        if let Some(seat) = self.core.due_flag(self.now()) {
            if !self.may_act() {
                // The flag is for the node that takes the table over to store.
                self.give_up().await;
                return;
            }
            self.flag(seat).await;
        }
    }

    async fn flag(&mut self, seat: usize) {
        if self.core.flag(seat, self.now()) {
            self.finish().await;
        }
    }

    // ----- computer seats -----

    fn maybe_think(&mut self) {
        if self.thinking {
            return;
        }
        let Some(request) = self.core.computer_to_move(self.now()) else {
            return;
        };
        let Some(tx) = self.self_tx.clone() else {
            return;
        };
        self.thinking = true;
        let computer = self.deps.computer.clone();
        let table = self.core.id.clone();
        tokio::spawn(async move {
            let ply = request.ply;
            let command = match search_with_retry(computer, request, &table).await {
                Some(mv) => Command::ComputerMove { ply, mv },
                None => Command::ComputerFailed { ply },
            };
            if let Some(tx) = tx.upgrade() {
                let _ = tx.send(command).await;
            }
        });
    }

    async fn on_computer_move(&mut self, ply: usize, mv: Move) {
        self.thinking = false;
        let Some(seat) = self.core.computer_answer_seat(ply) else {
            return;
        };
        let planned = self.core.plan_move(seat, &mv, 0, self.now());
        if let Err(e) = self.store_and_commit(planned).await {
            tracing::warn!(table = %self.core.id, error = %e, "computer move refused");
        }
    }

    /// Every search failed: the seat plays the quickest legal move, so the table never
    /// waits on a dead search.
    async fn on_computer_failed(&mut self, ply: usize) {
        self.thinking = false;
        if self.core.computer_answer_seat(ply).is_none() {
            return;
        }
        match fallback_move(&self.core.game) {
            Some(mv) => self.on_computer_move(ply, mv).await,
            None => tracing::error!(table = %self.core.id, "a computer seat has no move at all"),
        }
    }

    // ----- the end -----

    /// Stores the end of a game whose last move was stored just before a stop.
    pub(crate) async fn finish_after_resume(&mut self) {
        self.finish().await;
    }

    async fn finish(&mut self) {
        let Some(ending) = self.core.ending() else {
            return;
        };
        let now = self.now();
        let updates = if self.core.rated {
            match rating_updates(
                &self.deps.storage,
                self.core.variant,
                &self.core.seats,
                &ending.places,
            )
            .await
            {
                Ok(u) => u,
                Err(e) => {
                    tracing::error!(error = %e, table = %self.core.id, "could not read ratings");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let record = self.core.record_text();
        let finish = Finish {
            finished_ms: now,
            reason: &ending.reason,
            record: &record,
            places: &ending.places,
            ratings: &updates,
        };
        if let Err(e) = self.deps.storage.finish_game(&self.core.id, &finish).await {
            tracing::error!(error = %e, table = %self.core.id, "could not store the end of a game");
        }
        let ratings: Vec<(usize, f64, f64)> = updates
            .iter()
            .map(|u| (u.seat, u.before, u.after))
            .collect();
        self.core.conclude(&ending, &ratings);
        self.finished_at = Some(Instant::now());
        self.publish();
    }
}

/// Asks the computer player up to [`SEARCH_ATTEMPTS`] times, off the async threads; a
/// search that panics or finds nothing counts as a failure. None when every attempt
/// failed.
async fn search_with_retry(
    computer: Arc<dyn ComputerPlayer>,
    request: ThinkRequest,
    table: &str,
) -> Option<Move> {
    for attempt in 1..=SEARCH_ATTEMPTS {
        let computer = computer.clone();
        let game = request.game.clone();
        let (level, think_ms) = (request.level, request.think_ms);
        let chosen =
            tokio::task::spawn_blocking(move || computer.choose(&game, level, think_ms)).await;
        match chosen {
            Ok(Some(mv)) if request.game.legal_moves().contains(&mv) => return Some(mv),
            Ok(Some(_)) => {
                tracing::warn!(table, attempt, "computer player chose an illegal move")
            }
            Ok(None) => tracing::warn!(table, attempt, "computer player found no move"),
            Err(e) => tracing::error!(table, attempt, error = %e, "computer player failed"),
        }
    }
    None
}

/// The quickest sensible legal move: the one-ply greedy choice, or else the first legal
/// move.
fn fallback_move(game: &Game) -> Option<Move> {
    let greedy = std::panic::catch_unwind(|| {
        stella_ai::greedy::greedy_move(game.position(), game.moves().len() as u64)
    })
    .ok()
    .flatten();
    greedy.or_else(|| game.legal_moves().first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn the_fallback_is_a_legal_move() {
        let game = Game::new(Variant::Classic6);
        let mv = fallback_move(&game).unwrap();
        assert!(game.legal_moves().contains(&mv));
    }
}
