//! Background reviews of finished games: a finished game is reviewed by a server worker
//! within its node budget and served at `/api/games/{id}/review`; a live game, an
//! unknown one, and every game of a server with reviews turned off have none.

use std::time::{Duration, Instant};

use crate::common::play::{next_greedy, play};
use crate::common::{spawn_app_with, Options, TestApp};
use serde_json::{json, Value};
use stella_engine::{Game, Variant};
use stella_server::review::ReviewSettings;

/// Plays `plies` greedy moves at a new classic-2 table of two guests, then the first
/// resigns; returns the table (game) id and the moves played.
async fn finished_game(app: &TestApp, plies: usize) -> (String, Vec<String>) {
    let (mut clients, table) = app.seated_guests("classic-2", 2).await;
    let mut game = Game::new(Variant::Classic2);
    let mut paths = Vec::new();
    for ply in 1..=plies {
        let (mv, path) = next_greedy(&game);
        let seat = (ply - 1) % 2;
        let (mover, rest) = if seat == 0 {
            let (a, b) = clients.split_at_mut(1);
            (&mut a[0], b)
        } else {
            let (a, b) = clients.split_at_mut(1);
            (&mut b[0], a)
        };
        let mut others: Vec<&mut crate::common::Ws> = rest.iter_mut().collect();
        play(
            mover,
            &mut others,
            &table,
            &path,
            ply,
            ply.div_ceil(2) as u64,
        )
        .await;
        game.play(&mv).unwrap();
        paths.push(path);
    }
    let (status, _) = review(app, &table).await;
    assert_eq!(status, 404, "a live game has no review");
    clients[0]
        .send(json!({"t": "resign", "d": {"table": table}}))
        .await;
    clients[0].event("ended").await;
    (table, paths)
}

async fn review(app: &TestApp, id: &str) -> (u16, Value) {
    let res = app.get(&format!("/api/games/{id}/review"), None).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_finished_game_is_reviewed_in_the_background_within_its_budget() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
            c.reviews = ReviewSettings {
                workers: 1,
                game_nodes: 240_000,
            };
        }),
        ..Options::default()
    })
    .await;
    let (id, paths) = finished_game(&app, 8).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let done = loop {
        let (status, body) = review(&app, &id).await;
        match status {
            200 => break body,
            202 | 404 => {}
            _ => panic!("{status} {body}"),
        }
        assert!(Instant::now() < deadline, "no review: {status} {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // 240 000 nodes for 8 moves of 12 searches each: 2 500 nodes per search.
    assert_eq!(done["depth"], 3);
    assert_eq!(done["nodes"], 2_500);
    assert_eq!(done["paths"], json!(paths));
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), paths.len());
    for (j, path) in moves.iter().zip(&paths) {
        let best = j["best"]["path"].as_str().unwrap();
        assert_eq!(j["best"]["pv"][0], best);
        if let Some(played) = j["played"]["path"].as_str() {
            assert_eq!(played, path);
        }
    }
    let (status, body) = review(&app, "nosuchgame").await;
    assert_eq!((status, body["error"].as_str()), (404, Some("no_review")));
    app.stop().await;
}

#[tokio::test]
async fn a_server_with_reviews_off_reviews_nothing() {
    let app = spawn_app_with(Options {
        config: Some(|c| {
            c.ws_burst = 10_000;
            c.ws_per_second = 10_000;
        }),
        ..Options::default()
    })
    .await;
    let (id, _) = finished_game(&app, 4).await;
    // Longer than the scanner's period.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(review(&app, &id).await.0, 404);
    app.stop().await;
}
