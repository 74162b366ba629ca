//! Resuming live games after a restart, without charging the downtime to any clock.

use stella_engine::{MovePath, Variant};

use super::actor::{Status, TableActor, TableDeps};
use super::clock::{Clock, ClockView, StoredClock, TimeControl};
use super::core::TableCore;
use super::seat::{Occupant, Seat};
use crate::protocol::{TableEvent, UserInfo};
use crate::storage::{GameRow, StorageResult};

/// Restarts a task for every live game in the database, replaying its stored moves with
/// the engine; the clock of the player to move restarts now, so the downtime is charged
/// to nobody. Tables that were still waiting for players are closed. Returns how many
/// games were resumed.
pub async fn resume_tables(deps: &TableDeps) -> StorageResult<usize> {
    let mut resumed = 0;
    for game in deps.storage.unfinished_games().await? {
        if game.status != "live" {
            deps.storage
                .abort_game(&game.id, deps.time.now_ms())
                .await?;
            continue;
        }
        match resume_one(deps, &game).await? {
            Ok(()) => resumed += 1,
            Err(why) => tracing::error!(table = %game.id, %why, "could not resume a game"),
        }
    }
    Ok(resumed)
}

/// Restarts the task of one live game from the database (on another node after a
/// take-over, or after a restart), charging the time it was not running to nobody.
/// The inner error says why the stored game could not be replayed.
pub async fn resume_table(deps: &TableDeps, game: &GameRow) -> StorageResult<Result<(), String>> {
    resume_one(deps, game).await
}

async fn resume_one(deps: &TableDeps, game: &GameRow) -> StorageResult<Result<(), String>> {
    let Ok(variant) = Variant::from_id(&game.variant) else {
        return Ok(Err(format!("unknown variant {}", game.variant)));
    };
    let mut seats = Vec::new();
    for row in deps.storage.seats(&game.id).await? {
        let Ok(colour) = row.colour.parse() else {
            return Ok(Err(format!("unknown colour {}", row.colour)));
        };
        let occupant = match (&row.user_id, row.computer_level) {
            (Some(uid), _) => match deps.storage.user_by_id(uid).await? {
                Some(u) => Occupant::Human(UserInfo {
                    guest: u.guest(),
                    bot: u.bot(),
                    id: u.id,
                    name: u.username,
                }),
                None => return Ok(Err(format!("unknown user {uid}"))),
            },
            (None, Some(level)) => Occupant::Computer(level.clamp(1, 8) as u8),
            (None, None) => Occupant::Open,
        };
        seats.push(Seat { colour, occupant });
    }
    let control = match (game.reserve_ms, game.increment_ms) {
        (Some(reserve_ms), Some(increment_ms)) => Some(TimeControl {
            reserve_ms,
            increment_ms,
        }),
        _ => None,
    };
    let n = seats.len();
    let mut core = TableCore::new(
        game.id.clone(),
        variant,
        game.rated != 0,
        control,
        deps.lag,
        seats,
    );
    core.abandon_after_ms = deps.abandon_after.as_millis() as i64;
    let start_v = game.start_v.unwrap_or(n as i64 + 1).max(1) as u64;
    core.v = (start_v - 1).saturating_sub(n as u64);
    for i in 0..n {
        let player = core.seats[i].occupant.view();
        core.emit(TableEvent::Seated { seat: i, player });
    }
    core.status = Status::Live;
    let initial: Option<StoredClock> = game
        .clock
        .as_deref()
        .and_then(|c| serde_json::from_str(c).ok());
    let view = |stored: &Option<StoredClock>, running: Option<usize>| {
        stored.as_ref().map(|s| ClockView {
            remaining_ms: s.r.clone(),
            running,
        })
    };
    let first = core.seat_of_colour(core.game.turn());
    core.emit(TableEvent::Started {
        turn: Some(core.game.turn().to_string()),
        clock: view(&initial, Some(first)),
        move_deadline: None,
    });
    let mut last_clock = initial;
    let mut last_move_ms = None;
    for m in deps.storage.moves(&game.id).await? {
        let colour = core.game.turn();
        let played = m
            .path
            .parse::<MovePath>()
            .map_err(|e| e.to_string())
            .and_then(|p| core.game.play_path(&p).map_err(|e| e.to_string()));
        if let Err(e) = played {
            return Ok(Err(format!(
                "stored move {} ({}) does not replay: {e}",
                m.ply, m.path
            )));
        }
        let stored: Option<StoredClock> = m
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok());
        let over = core.game.is_over();
        let running = (!over).then(|| core.seat_of_colour(core.game.turn()));
        core.emit(TableEvent::Moved {
            ply: m.ply as u64,
            colour: colour.to_string(),
            path: m.path.clone(),
            position: core.game.position().to_string(),
            turn: (!over).then(|| core.game.turn().to_string()),
            clock: view(&stored, running),
            move_deadline: None,
        });
        if stored.is_some() {
            last_clock = stored;
        }
        last_move_ms = Some(m.at_ms);
    }
    let now = deps.time.now_ms();
    core.clock = match (control, last_clock) {
        (Some(c), Some(stored)) => Some(Clock::restore(c, &stored, deps.lag)),
        (Some(c), None) => Some(Clock::new(c, n, deps.lag)),
        _ => None,
    };
    let chat = deps.storage.chat_lines(&game.id).await?;
    if !chat.is_empty() {
        // Chat events were numbered among the moves; the log rebuilt above cannot
        // reproduce that order, so it is dropped: a client exactly up to date gets
        // nothing new, any other a snapshot.
        core.v += chat.len() as u64;
        core.log.clear();
        for line in chat {
            core.chat.push(line);
        }
    }
    core.invite = game.invite.clone();
    if control.is_none() {
        // The deadline stands as before the stop: the turn began with the last move
        // (or the start). Rows from before the time per move was stored get the default.
        let move_time = game
            .move_time_ms
            .unwrap_or(crate::protocol::DEFAULT_MOVE_TIME * 1_000);
        core.move_time_ms = Some(move_time);
        core.turn_since = turn_began(last_move_ms.or(game.started_ms), move_time, now);
    }
    let over = core.game.is_over();
    if !over {
        let seat = core.seat_of_colour(core.game.turn());
        if let Some(clock) = core.clock.as_mut() {
            clock.start(seat, now);
        }
    }
    let mut actor = TableActor::new(core, deps.clone());
    if over {
        actor.finish_after_resume().await;
    }
    actor.spawn();
    Ok(Ok(()))
}

/// When the resumed turn counts as begun: when it really began (`since`), unless its
/// deadline passed while the server was down; then the seat to move gets
/// [`GRACE_AFTER_RESTART_MS`] from `now`, since nobody could move meanwhile.
fn turn_began(since: Option<i64>, move_time: i64, now: i64) -> i64 {
    let since = since.unwrap_or(now).min(now);
    let latest = now + GRACE_AFTER_RESTART_MS.min(move_time) - move_time;
    since.max(latest)
}

/// Time left to the seat to move when its deadline passed during a restart.
const GRACE_AFTER_RESTART_MS: i64 = 60_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_survives_a_restart() {
        // Turn began at 1 000, five minutes per move, restarted at 100 000.
        assert_eq!(turn_began(Some(1_000), 300_000, 100_000), 1_000);
    }

    #[test]
    fn a_deadline_that_passed_while_down_leaves_a_minute() {
        let since = turn_began(Some(1_000), 300_000, 1_000_000);
        assert_eq!(since + 300_000, 1_060_000);
    }

    #[test]
    fn an_unknown_start_counts_from_now() {
        assert_eq!(turn_began(None, 300_000, 5_000), 5_000);
    }
}
