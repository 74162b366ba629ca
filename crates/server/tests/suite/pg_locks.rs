//! Rows locked by many transactions at once, as on several nodes sharing one database:
//! rated games between the same players ending together with their seats in opposite
//! orders, each end stored by two nodes, and many rated puzzle attempts by the same
//! players at the same puzzles. No deadlock or other error reaches a caller, and every
//! rating change is applied exactly once. On PostgreSQL (`STELLA_TEST_POSTGRES`) the
//! rows are locked for real; on SQLite the same checks hold with its one writer.

use std::collections::HashMap;

use futures_util::future::join_all;
use stella_server::puzzles::PuzzleRating;
use stella_server::rating::{Category, START};
use stella_server::storage::{Finish, GameRow, RatingUpdate, SeatRow, Storage};

use crate::common::fresh_database;

/// Two connections to one fresh database, as two nodes have.
async fn two_nodes() -> (tempfile::TempDir, Storage, Storage) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_database(&dir).await;
    let a = Storage::connect(&url).await.expect("database opens");
    let b = Storage::connect(&url).await.expect("database opens");
    (dir, a, b)
}

/// A live rated game of `players`, seated in that order.
async fn live_game(storage: &Storage, id: &str, players: &[&str]) {
    let variant = if players.len() == 2 {
        "classic-2"
    } else {
        "classic-3"
    };
    let game = GameRow {
        rated: 1,
        reserve_ms: Some(60_000),
        increment_ms: Some(0),
        status: "live".into(),
        started_ms: Some(2),
        start_v: Some(1),
        ..GameRow::open(id, variant, Some(players[0]), 1)
    };
    let colours = ["red", "green", "blue"];
    let seats: Vec<SeatRow> = players
        .iter()
        .enumerate()
        .map(|(i, p)| SeatRow {
            game_id: id.into(),
            seat: i as i64,
            colour: colours[i].into(),
            user_id: Some((*p).into()),
            computer_level: None,
            place: None,
            rating_before: None,
            rating_after: None,
        })
        .collect();
    storage
        .insert_game(&game, &seats)
        .await
        .expect("game stored");
}

/// A rated game's end as its node works it out: from the ratings it read before
/// anything was stored (all at the start), seat `i` moves by `deltas[i]`.
struct Ending {
    id: String,
    players: Vec<&'static str>,
    category: Category,
    deltas: Vec<f64>,
}

impl Ending {
    fn updates(&self) -> Vec<RatingUpdate> {
        self.players
            .iter()
            .zip(&self.deltas)
            .enumerate()
            .map(|(seat, (p, d))| RatingUpdate {
                seat,
                user_id: (*p).into(),
                category: self.category,
                before: START,
                after: START + d,
            })
            .collect()
    }
}

#[tokio::test]
async fn rated_games_ending_at_once_on_two_nodes_move_each_rating_once() {
    let (_dir, n1, n2) = two_nodes().await;
    let users = ["u-ana", "u-bo", "u-cy"];
    for u in users {
        n1.create_user(u, u, None, 1).await.unwrap();
    }
    // Duels between ana and bo with the seats one way and the other, and three-player
    // games with the seats in every rotation.
    let mut endings = Vec::new();
    for i in 0..24 {
        let (players, category, deltas) = match i % 4 {
            0 => (vec!["u-ana", "u-bo"], Category::Duel, vec![16.0, -16.0]),
            1 => (vec!["u-bo", "u-ana"], Category::Duel, vec![8.5, -8.5]),
            2 => (
                vec!["u-ana", "u-bo", "u-cy"],
                Category::Multi,
                vec![10.0, -2.5, -7.5],
            ),
            _ => (
                vec!["u-cy", "u-ana", "u-bo"],
                Category::Multi,
                vec![4.25, 1.0, -5.25],
            ),
        };
        let id = format!("g{i:02}");
        live_game(&n1, &id, &players).await;
        endings.push(Ending {
            id,
            players,
            category,
            deltas,
        });
    }

    // Every game's end is stored by both nodes at once (a node and the one that took
    // the table over), all games together.
    let mut jobs = Vec::new();
    for (i, e) in endings.iter().enumerate() {
        for node in [&n1, &n2] {
            let storage = node.clone();
            let id = e.id.clone();
            let updates = e.updates();
            let finished_ms = 1_000 + i as i64;
            jobs.push(tokio::spawn(async move {
                let places: Vec<(usize, u8)> =
                    (0..updates.len()).map(|s| (s, s as u8 + 1)).collect();
                storage
                    .finish_game(
                        &id,
                        &Finish {
                            finished_ms,
                            reason: "finished",
                            record: "record",
                            places: &places,
                            ratings: &updates,
                        },
                    )
                    .await
                    .map(|applied| (id, applied))
            }));
        }
    }
    let mut stored_by = HashMap::new();
    for job in join_all(jobs).await {
        let (id, applied) = job
            .expect("no panic")
            .unwrap_or_else(|e| panic!("an end was refused: {e}"));
        if !applied.is_empty() {
            *stored_by.entry(id).or_insert(0) += 1;
        }
    }
    for e in &endings {
        assert_eq!(stored_by.get(&e.id), Some(&1), "{} stored once", e.id);
        assert_eq!(n2.game(&e.id).await.unwrap().unwrap().status, "finished");
    }

    // Each rating moved by the sum of its games' changes, once each, and the history
    // is one unbroken chain from the start to the stored rating.
    for user in users {
        for category in [Category::Duel, Category::Multi] {
            let mine: Vec<f64> = endings
                .iter()
                .filter(|e| e.category == category)
                .filter_map(|e| {
                    let seat = e.players.iter().position(|p| *p == user)?;
                    Some(e.deltas[seat])
                })
                .collect();
            if mine.is_empty() {
                continue;
            }
            let (rating, games) = n1.rating(user, category).await.unwrap();
            assert_eq!(games, mine.len() as i64, "{user} {category:?} games");
            let expected = START + mine.iter().sum::<f64>();
            assert!(
                (rating - expected).abs() < 1e-6,
                "{user} {category:?}: {rating}, not {expected}"
            );
            let history: Vec<_> = n1
                .rating_history(user)
                .await
                .unwrap()
                .into_iter()
                .filter(|h| h.category == category.as_str())
                .collect();
            assert_eq!(history.len(), mine.len(), "{user} {category:?} history");
            let mut at = START;
            let mut left = history.clone();
            while !left.is_empty() {
                let next = left
                    .iter()
                    .position(|h| h.rating_before == at)
                    .unwrap_or_else(|| panic!("{user} {category:?}: no step from {at}"));
                at = left.swap_remove(next).rating_after;
            }
            assert_eq!(
                at, rating,
                "{user} {category:?}: the chain ends at the rating"
            );
        }
    }
}

#[tokio::test]
async fn many_puzzle_attempts_at_once_rate_each_once() {
    let (_dir, n1, n2) = two_nodes().await;
    let users: Vec<String> = (0..6).map(|i| format!("p-user{i}")).collect();
    let puzzles: Vec<String> = (0..4).map(|i| format!("puzzle{i}")).collect();
    for u in &users {
        n1.create_user(u, u, None, 1).await.unwrap();
    }
    let start = PuzzleRating {
        rating: 1600.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    // Every player tries every puzzle twice (on each node), in orders that cross:
    // players by turns in puzzle order one way and the other, all at once.
    let mut jobs = Vec::new();
    for (ui, user) in users.iter().enumerate() {
        for pi in 0..puzzles.len() {
            let puzzle = if ui % 2 == 0 {
                puzzles[pi].clone()
            } else {
                puzzles[puzzles.len() - 1 - pi].clone()
            };
            for node in [&n1, &n2] {
                let storage = node.clone();
                let (user, puzzle) = (user.clone(), puzzle.clone());
                jobs.push(tokio::spawn(async move {
                    storage
                        .rate_puzzle_attempt(&user, &puzzle, start, true, 5, |me, it| {
                            let step = |r: PuzzleRating, by: f64| PuzzleRating {
                                rating: r.rating + by,
                                ..r
                            };
                            (step(me, 1.0), step(it, -1.0))
                        })
                        .await
                        .map(|rated| (user, puzzle, rated))
                }));
            }
        }
    }
    let mut rated = HashMap::new();
    for job in join_all(jobs).await {
        let (user, puzzle, r) = job
            .expect("no panic")
            .unwrap_or_else(|e| panic!("an attempt was refused: {e}"));
        if let Some(r) = r {
            rated
                .entry(puzzle)
                .or_insert_with(Vec::new)
                .push((user, r.puzzle.rating));
        }
    }
    // One rated attempt per player and puzzle; each puzzle's rating went down by one
    // per player, every step seen once (no update lost, none applied twice).
    for p in &puzzles {
        let mut after: Vec<f64> = rated[p].iter().map(|(_, r)| *r).collect();
        after.sort_by(f64::total_cmp);
        let want: Vec<f64> = (1..=users.len())
            .rev()
            .map(|k| start.rating - k as f64)
            .collect();
        assert_eq!(after, want, "{p}");
    }
    for u in &users {
        let record = n2.puzzle_record(u).await.unwrap();
        assert_eq!(record.attempts, puzzles.len() as i64, "{u}");
        assert_eq!(record.solved, puzzles.len() as i64, "{u}");
        assert_eq!(
            record.rating.rating,
            PuzzleRating::NEW_PLAYER.rating + puzzles.len() as f64,
            "{u}"
        );
    }
}
