//! Creating a table: stored first, then its task starts.

use stella_engine::Variant;

use super::actor::{TableActor, TableDeps};
use super::clock::TimeControl;
use super::command::TableHandle;
use super::core::TableCore;
use super::seat::{Occupant, Seat};
use crate::ids::random_id;
use crate::protocol::{ErrorCode, ProtoError, TableEvent, DEFAULT_MOVE_TIME};
use crate::storage::{GameRow, SeatRow};

/// A checked request for a new table.
#[derive(Debug, Clone)]
pub struct NewTable {
    /// The variant.
    pub variant: Variant,
    /// The time control, none for untimed.
    pub control: Option<TimeControl>,
    /// Rated or casual.
    pub rated: bool,
    /// One occupant per seat of the variant, in play order.
    pub seats: Vec<Occupant>,
    /// Who asked for it.
    pub created_by: Option<String>,
    /// The invitation of a private table (kept out of the lobby), none for a public one.
    pub invite: Option<String>,
    /// Untimed tables: seconds each move may take (ignored with a clock).
    pub move_time: Option<i64>,
    /// Bots may sit at the open seats.
    pub bots: bool,
}

/// Stores a new table and starts its task; a table whose seats are all taken starts
/// its game at once.
pub async fn create_table(deps: &TableDeps, new: NewTable) -> Result<TableHandle, ProtoError> {
    let colours = new.variant.seats();
    if new.seats.len() != colours.len() {
        return Err(ProtoError::new(
            ErrorCode::BadSeats,
            format!(
                "{} has {} seats, got {}",
                new.variant.id(),
                colours.len(),
                new.seats.len()
            ),
        ));
    }
    let id = random_id(10);
    let now = deps.time.now_ms();
    let row = GameRow {
        rated: i64::from(new.rated),
        reserve_ms: new.control.map(|c| c.reserve_ms),
        increment_ms: new.control.map(|c| c.increment_ms),
        invite: new.invite.clone(),
        move_time_ms: new
            .control
            .is_none()
            .then(|| new.move_time.unwrap_or(DEFAULT_MOVE_TIME) * 1_000),
        ..GameRow::open(&id, new.variant.id(), new.created_by.as_deref(), now)
    };
    let seat_rows: Vec<SeatRow> = new
        .seats
        .iter()
        .zip(colours)
        .enumerate()
        .map(|(i, (o, c))| SeatRow {
            game_id: id.clone(),
            seat: i as i64,
            colour: c.to_string(),
            user_id: o.user_id().map(str::to_owned),
            computer_level: match o {
                Occupant::Computer(l) => Some(i64::from(*l)),
                _ => None,
            },
            place: None,
            rating_before: None,
            rating_after: None,
        })
        .collect();
    // In a cluster the game's lease is stored in the game's own transaction: a node
    // that dies between the two cannot leave an open game no sweep would close.
    let stored = match &deps.leases {
        Some(leases) => leases.insert_game(&row, &seat_rows).await.map(|_| ()),
        None => deps.storage.insert_game(&row, &seat_rows).await,
    };
    stored.map_err(|e| {
        tracing::error!(error = %e, "could not store a new table");
        ProtoError::new(
            ErrorCode::Storage,
            "the server could not create the table; try again",
        )
    })?;
    let seats: Vec<Seat> = new
        .seats
        .into_iter()
        .zip(colours)
        .map(|(occupant, &colour)| Seat { colour, occupant })
        .collect();
    let mut core = TableCore::new(
        id.clone(),
        new.variant,
        new.rated,
        new.control,
        deps.lag,
        seats,
    );
    core.invite = new.invite;
    core.bots = new.bots;
    core.abandon_after_ms = deps.abandon_after.as_millis() as i64;
    core.move_time_ms = row.move_time_ms;
    for i in 0..core.seats.len() {
        if core.seats[i].occupant != Occupant::Open {
            let player = core.seats[i].occupant.view();
            core.emit(TableEvent::Seated { seat: i, player });
        }
    }
    let mut actor = TableActor::new(core, deps.clone());
    // A full table starts at once. A refused start (the lease was lost in the moment
    // since it was taken) has stored the game `aborted`; its lease is given up.
    if let Err(e) = actor.start_if_full().await {
        if let Some(leases) = &deps.leases {
            if let Err(e) = leases.release(&id, true).await {
                tracing::error!(error = %e, table = %id, "could not give up the lease of a closed table");
            }
        }
        return Err(e);
    }
    Ok(actor.spawn())
}
