//! Game lists, replays, record downloads, ratings and leaderboards.

use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use stella_engine::{Game, MovePath, Record, Variant};

use crate::error::ApiError;
use crate::protocol::{PlayerView, TimeSpec};
use crate::rating::Category;
use crate::state::AppState;
use crate::storage::{GameRow, MoveRow, SeatRow};

/// The read-only game and rating routes (mounted under `/api`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tables", get(tables))
        .route("/games/{id}", get(replay))
        .route("/games/{id}/record", get(record))
        .route("/users/{name}/games", get(user_games))
        .route("/users/{name}/ratings", get(user_ratings))
        .route("/leaderboard/{category}", get(leaderboard))
}

/// `?limit=` on list routes (1–200, default 50).
#[derive(Debug, Deserialize)]
struct Limit {
    limit: Option<i64>,
}

impl Limit {
    fn get(&self) -> i64 {
        self.limit.unwrap_or(50).clamp(1, 200)
    }
}

async fn tables(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(json!({ "tables": state.lobby.list() }))
}

/// A seat in replay data and game lists.
#[derive(Debug, Serialize)]
struct SeatInfo {
    seat: i64,
    colour: String,
    player: PlayerView,
    place: Option<i64>,
    rating_before: Option<f64>,
    rating_after: Option<f64>,
}

/// A move in replay data.
#[derive(Debug, Serialize)]
struct MoveInfo {
    ply: i64,
    colour: String,
    path: String,
    position: String,
    at_ms: i64,
    clock_ms: Option<Vec<i64>>,
}

async fn seat_infos(state: &AppState, seats: &[SeatRow]) -> Result<Vec<SeatInfo>, ApiError> {
    let mut out = Vec::with_capacity(seats.len());
    for s in seats {
        let player = match (&s.user_id, s.computer_level) {
            (Some(uid), _) => match state.storage.user_by_id(uid).await? {
                Some(u) => PlayerView::Human {
                    guest: u.guest(),
                    bot: u.bot(),
                    id: u.id,
                    name: u.username,
                },
                None => PlayerView::Open,
            },
            (None, Some(level)) => PlayerView::Computer {
                level: level.clamp(1, 8) as u8,
            },
            (None, None) => PlayerView::Open,
        };
        out.push(SeatInfo {
            seat: s.seat,
            colour: s.colour.clone(),
            player,
            place: s.place,
            rating_before: s.rating_before,
            rating_after: s.rating_after,
        });
    }
    Ok(out)
}

struct Loaded {
    game: GameRow,
    seats: Vec<SeatRow>,
    moves: Vec<MoveRow>,
    replay: Game,
}

async fn load(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    let game = state
        .storage
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
    let variant = Variant::from_id(&game.variant).map_err(ApiError::internal)?;
    let seats = state.storage.seats(id).await?;
    let moves = state.storage.moves(id).await?;
    let mut replay = Game::new(variant);
    for m in &moves {
        let path: MovePath = m.path.parse().map_err(ApiError::internal)?;
        replay.play_path(&path).map_err(ApiError::internal)?;
    }
    Ok(Loaded {
        game,
        seats,
        moves,
        replay,
    })
}

fn time_spec(g: &GameRow) -> Option<TimeSpec> {
    match (g.reserve_ms, g.increment_ms) {
        (Some(r), Some(i)) => Some(TimeSpec {
            minutes: r / 60_000,
            increment: i / 1_000,
        }),
        _ => None,
    }
}

async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let l = load(&state, &id).await?;
    let positions = l.replay.positions();
    let moves: Vec<MoveInfo> = l
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| MoveInfo {
            ply: m.ply,
            colour: m.colour.clone(),
            path: m.path.clone(),
            position: positions
                .get(i + 1)
                .map(|p| p.to_string())
                .unwrap_or_default(),
            at_ms: m.at_ms,
            clock_ms: m
                .clock
                .as_deref()
                .and_then(|c| serde_json::from_str::<crate::table::StoredClock>(c).ok())
                .map(|c| c.r),
        })
        .collect();
    let g = &l.game;
    // Spectators' lines kept from the players stay hidden while the game is played.
    let chat: Vec<_> = state
        .storage
        .chat_lines(&g.id)
        .await?
        .into_iter()
        .filter(|line| g.status != "live" || !line.hidden_from_players)
        .collect();
    Ok(Json(json!({
        "id": g.id,
        "variant": g.variant,
        "rated": g.rated != 0,
        "time": time_spec(g),
        "status": g.status,
        "reason": g.reason,
        "created_ms": g.created_ms,
        "started_ms": g.started_ms,
        "finished_ms": g.finished_ms,
        "seats": seat_infos(&state, &l.seats).await?,
        "start": positions[0].to_string(),
        "moves": moves,
        "chat": chat,
    })))
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let l = load(&state, &id).await?;
    let text = match &l.game.record {
        Some(r) => r.clone(),
        None => {
            Record::from_game(&l.replay, &[("Site", "Stella"), ("Table", &l.game.id)]).to_string()
        }
    };
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"stella-{}.txt\"", l.game.id),
            ),
        ],
        text,
    )
        .into_response())
}

async fn user_id(state: &AppState, name: &str) -> Result<String, ApiError> {
    Ok(state
        .storage
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?
        .id)
}

async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(limit): Query<Limit>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let uid = user_id(&state, &name).await?;
    let mut games = Vec::new();
    for g in state.storage.games_of_user(&uid, limit.get()).await? {
        let seats = state.storage.seats(&g.id).await?;
        games.push(json!({
            "id": g.id,
            "variant": g.variant,
            "rated": g.rated != 0,
            "time": time_spec(&g),
            "status": g.status,
            "reason": g.reason,
            "created_ms": g.created_ms,
            "finished_ms": g.finished_ms,
            "seats": seat_infos(&state, &seats).await?,
        }));
    }
    Ok(Json(json!({ "player": name, "games": games })))
}

async fn user_ratings(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let uid = user_id(&state, &name).await?;
    Ok(Json(json!({
        "player": name,
        "ratings": state.storage.ratings_of(&uid).await?,
        "history": state.storage.rating_history(&uid).await?,
    })))
}

async fn leaderboard(
    State(state): State<AppState>,
    Path(category): Path<String>,
    Query(limit): Query<Limit>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let category: Category = category
        .parse()
        .map_err(|e: crate::rating::UnknownCategory| {
            ApiError::bad_request("bad_category", e.to_string())
        })?;
    Ok(Json(json!({
        "category": category,
        "players": state.storage.leaderboard(category, limit.get()).await?,
    })))
}
