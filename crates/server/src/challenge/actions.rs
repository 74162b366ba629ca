//! Making and accepting a challenge: the checks that need the database (the
//! challenged account) and the table that starts when one is accepted.

use std::sync::Arc;

use stella_engine::Variant;

use super::expiry::spawn_expiry;
use super::registry::EXPIRES_AFTER_MS;
use crate::cluster::challenges::{Act, ClusterChallenges};
use crate::ids::random_id;
use crate::protocol::{
    ChallengeRequest, ChallengeView, ErrorCode, ProtoError, ServerMsg, UserInfo, MOVE_TIMES,
};
use crate::state::AppState;
use crate::table::{create_table, NewTable, Occupant, TimeControl};

fn accounts_only() -> ProtoError {
    ProtoError::new(
        ErrorCode::CannotChallenge,
        "challenges are between registered accounts; register or log in to challenge",
    )
}

/// `user`, on connection `conn`, challenges the account named in `req`. Guests neither
/// challenge nor are challenged: their names last one visit, so a challenge could not
/// be addressed to a person, and free guest accounts would make unsolicited challenges
/// cost nothing.
pub async fn challenge(
    state: &AppState,
    conn: u64,
    user: &UserInfo,
    req: ChallengeRequest,
) -> Result<ChallengeView, ProtoError> {
    if user.guest {
        return Err(accounts_only());
    }
    if let Some(t) = req.time {
        TimeControl::from_minutes_seconds(t.minutes, t.increment)
            .map_err(|e| ProtoError::new(ErrorCode::BadTimeControl, e.to_string()))?;
    }
    if let Some(s) = req.move_time {
        if !MOVE_TIMES.contains(&s) {
            return Err(ProtoError::new(
                ErrorCode::BadTimeControl,
                format!("move_time must be one of {MOVE_TIMES:?} seconds; got {s}"),
            ));
        }
    }
    let name = req.to.trim();
    if name.is_empty() || name.chars().count() > 40 {
        return Err(ProtoError::new(
            ErrorCode::NoSuchUser,
            "name the user to challenge (3 to 20 characters)",
        ));
    }
    let row = state
        .storage
        .user_by_name(name)
        .await
        .map_err(|_| ProtoError::new(ErrorCode::Storage, "could not look the user up; try again"))?
        .ok_or_else(|| ProtoError::new(ErrorCode::NoSuchUser, format!("no user named {name:?}")))?;
    if row.guest() {
        return Err(ProtoError::new(
            ErrorCode::CannotChallenge,
            format!(
                "{} is a guest; only registered accounts can be challenged",
                row.username
            ),
        ));
    }
    if row.id == user.id {
        return Err(ProtoError::new(
            ErrorCode::CannotChallenge,
            "you cannot challenge yourself",
        ));
    }
    let to = UserInfo {
        id: row.id,
        name: row.username,
        guest: false,
        bot: row.is_bot != 0,
    };
    crate::bots::check_unrated(req.rated, &[user, &to])?;
    crate::bots::check_games_at_once(&state.lobby, user)?;
    let view = ChallengeView {
        id: random_id(12),
        from: user.clone(),
        to,
        time: req.time,
        rated: req.rated,
        move_time: if req.time.is_none() {
            req.move_time
        } else {
            None
        },
        expires_at: state.time.now_ms() + EXPIRES_AFTER_MS,
    };
    let online_elsewhere = match state.challenges.cluster() {
        Some(cluster) if !state.challenges.is_online(&view.to.id) => {
            cluster.is_online(state.time.now_ms(), &view.to.id).await?
        }
        _ => false,
    };
    state
        .challenges
        .open_to(view.clone(), conn, online_elsewhere)?;
    spawn_expiry(
        state.challenges.clone(),
        state.time.clone(),
        view.id.clone(),
    );
    Ok(view)
}

/// `user` accepts challenge `id`: a private classic-2 table starts with both seated,
/// in an order drawn at random, and both sides get `challenge_accepted`. In a
/// cluster, the node holding the challenge starts the table.
pub async fn accept(state: &AppState, user: &UserInfo, id: &str) -> Result<String, ProtoError> {
    if let Some((cluster, node)) = elsewhere(state, id) {
        let act = Act::Accept { user: user.clone() };
        return cluster.act(&node, id, act).await?.ok_or_else(|| {
            ProtoError::new(ErrorCode::Unavailable, "the challenge started no table")
        });
    }
    accept_here(state, user, id).await
}

/// The challenged user `user_id` declines challenge `id`, wherever it is held.
pub async fn decline(state: &AppState, user_id: &str, id: &str) -> Result<(), ProtoError> {
    if let Some((cluster, node)) = elsewhere(state, id) {
        let act = Act::Decline {
            user_id: user_id.to_owned(),
        };
        return cluster.act(&node, id, act).await.map(|_| ());
    }
    state.challenges.decline(id, user_id)
}

/// The challenger `user_id` takes challenge `id` back, wherever it is held.
pub async fn cancel(state: &AppState, user_id: &str, id: &str) -> Result<(), ProtoError> {
    if let Some((cluster, node)) = elsewhere(state, id) {
        let act = Act::Cancel {
            user_id: user_id.to_owned(),
        };
        return cluster.act(&node, id, act).await.map(|_| ());
    }
    state.challenges.cancel(id, user_id)
}

/// The cluster and the node holding challenge `id`, when another node holds it.
fn elsewhere(state: &AppState, id: &str) -> Option<(Arc<ClusterChallenges>, String)> {
    let cluster = state.challenges.cluster()?.clone();
    let node = state.challenges.held_elsewhere(id)?;
    Some((cluster, node))
}

/// Accepts challenge `id`, held by this node, for `user` (see [`accept`]).
pub async fn accept_here(
    state: &AppState,
    user: &UserInfo,
    id: &str,
) -> Result<String, ProtoError> {
    crate::bots::check_games_at_once(&state.lobby, user)?;
    let (view, conn) = state.challenges.take_for_accept(id, &user.id)?;
    let control = view
        .time
        .map(|t| TimeControl::from_minutes_seconds(t.minutes, t.increment))
        .transpose()
        .map_err(|e| ProtoError::new(ErrorCode::BadTimeControl, e.to_string()))?;
    let mut seats = vec![
        Occupant::Human(view.from.clone()),
        Occupant::Human(user.clone()),
    ];
    if rand::random::<bool>() {
        seats.swap(0, 1);
    }
    let new = NewTable {
        variant: Variant::Classic2,
        control,
        rated: view.rated,
        seats,
        created_by: Some(view.from.id.clone()),
        invite: Some(random_id(20)),
        move_time: view.move_time,
        bots: false,
    };
    let handle = match create_table(&state.deps, new).await {
        Ok(h) => h,
        Err(e) => {
            // The challenge stands if the table could not be made (its challenger may
            // still be waiting for an answer).
            let id = view.id.clone();
            if state.challenges.restore(view, conn) {
                spawn_expiry(state.challenges.clone(), state.time.clone(), id);
            }
            return Err(e);
        }
    };
    state.challenges.tell(
        &[&view.from.id, &view.to.id],
        ServerMsg::ChallengeAccepted {
            id: view.id.clone(),
            table: handle.id.clone(),
        },
    );
    Ok(handle.id.clone())
}
