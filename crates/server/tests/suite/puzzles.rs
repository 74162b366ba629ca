//! Puzzles over HTTP: the served set and its daily puzzle, rated attempts of registered
//! players checked from their moves (one rated attempt per puzzle), the puzzles' own
//! ratings, and a bad puzzle file refused at start.

use std::sync::Arc;

use crate::common::{spawn_app_with, Options};
use serde_json::{json, Value};
use stella_engine::Position;
use stella_server::{Application, Config, ManualTime};

/// White finishes in 2: h12-h13, then h13-h14.
const CLOSE_RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";
/// Black finishes in 5 at best.
const LONG_RACE: &str = "classic-2 black 63 white:e14,e16,e17,g13,g14,h10,h12,h13,h14,k10 black:i5,j4,k4,k6,l2,l3,l5,l6,m1,m5 made:63,62";

const DAY_MS: i64 = 86_400_000;

fn puzzle_file(entries: &[(&str, &str, usize, f64)]) -> String {
    let puzzles: Vec<Value> = entries
        .iter()
        .map(|(id, position, moves, rating)| {
            json!({"id": id, "position": position, "moves": moves, "rating": rating, "game": "g", "ply": 1})
        })
        .collect();
    json!({"format": "stella-puzzles/1", "puzzles": puzzles}).to_string()
}

/// Some legal move of the player to move in `position` (one move never finishes a
/// puzzle of 5).
fn some_move(position: &str) -> String {
    let pos: Position = position.parse().unwrap();
    pos.path_of(&pos.legal_moves()[0]).to_string()
}

async fn attempt(
    app: &crate::common::TestApp,
    cookie: Option<&str>,
    id: &str,
    moves: &[&str],
) -> (u16, Value) {
    let res = app
        .post(
            &format!("/api/puzzles/{id}/attempt"),
            cookie,
            json!({"moves": moves}),
        )
        .await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn registered_players_earn_a_puzzle_rating_from_checked_moves() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let file = dir.path().join("puzzles.json");
    std::fs::write(
        &file,
        puzzle_file(&[
            ("race-1", CLOSE_RACE, 2, 1300.0),
            ("race-2", LONG_RACE, 5, 1900.0),
        ]),
    )
    .unwrap();
    // An odd day: the second puzzle is the daily one, for everyone, all day.
    let time = Arc::new(ManualTime::new(20_427 * DAY_MS + 5));
    let app = spawn_app_with(Options {
        dir: Some(dir.clone()),
        manual_time: Some(time.clone()),
        puzzles: Some(file),
        ..Options::default()
    })
    .await;

    let set = app.get_json("/api/puzzles", None).await;
    assert_eq!(set["format"], "stella-puzzles/1");
    assert_eq!(set["puzzles"].as_array().unwrap().len(), 2);
    assert_eq!(set["daily"], json!({"day": 20_427, "id": "race-2"}));
    time.advance(DAY_MS - 10);
    let set = app.get_json("/api/puzzles", None).await;
    assert_eq!(set["daily"]["id"], "race-2");
    time.advance(10);
    let set = app.get_json("/api/puzzles", None).await;
    assert_eq!(set["daily"], json!({"day": 20_428, "id": "race-1"}));

    // Guests keep their rating in the browser; the server rates accounts.
    assert_eq!(attempt(&app, None, "race-1", &["h12-h13"]).await.0, 401);
    let guest = app.guest().await;
    let (status, body) = attempt(&app, Some(&guest), "race-1", &["h12-h13"]).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("not_registered"))
    );

    let pat = app.register("pat").await;
    let me = app.get_json("/api/puzzles/me", Some(&pat)).await;
    assert_eq!(me["rating"]["rating"], 1500.0);
    assert_eq!(me["rating"]["deviation"], 350.0);
    assert_eq!(me["tried"], json!({}));

    // Bad input is refused with what was wrong, and rates nothing.
    let (status, body) = attempt(&app, Some(&pat), "nope", &["h12-h13"]).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("unknown_puzzle"))
    );
    let (status, body) = attempt(&app, Some(&pat), "race-1", &["h12-h13", "h12-g10"]).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_moves")));
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("move 2 (\"h12-g10\")"),
        "{body}"
    );
    let many = vec!["h12-h13"; 13];
    let (status, body) = attempt(&app, Some(&pat), "race-1", &many).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_moves")));
    let res = app
        .post(
            "/api/puzzles/race-1/attempt",
            Some(&pat),
            json!({"solved": true}),
        )
        .await;
    assert_eq!(res.status(), 400);

    // A shortest finish solves the puzzle: the player's rating rises, the puzzle's falls.
    let (status, solved) = attempt(&app, Some(&pat), "race-1", &["h12-h13", "h13-h14"]).await;
    assert_eq!(status, 200, "{solved}");
    assert_eq!(solved["solved"], true);
    assert_eq!(solved["rated"], true);
    let after_first = solved["rating"]["rating"].as_f64().unwrap();
    assert!(after_first > 1500.0, "{solved}");
    let puzzle_after = solved["puzzle_rating"].as_f64().unwrap();
    assert!(puzzle_after < 1300.0, "{solved}");

    // Later attempts at the same puzzle are judged but not rated.
    let (_, again) = attempt(&app, Some(&pat), "race-1", &["h12-h11"]).await;
    assert_eq!(again["solved"], false);
    assert_eq!(again["rated"], false);
    assert_eq!(again["rating"]["rating"].as_f64().unwrap(), after_first);

    // A move that loses the shortest finish fails the puzzle.
    let first = some_move(LONG_RACE);
    let (_, failed) = attempt(&app, Some(&pat), "race-2", &[&first]).await;
    assert_eq!(failed["solved"], false);
    assert_eq!(failed["rated"], true);
    assert!(
        failed["rating"]["rating"].as_f64().unwrap() < after_first,
        "{failed}"
    );

    let me = app.get_json("/api/puzzles/me", Some(&pat)).await;
    assert_eq!(me["attempts"], 2);
    assert_eq!(me["solved"], 1);
    assert_eq!(me["tried"], json!({"race-1": true, "race-2": false}));
    assert_eq!(me["rating"], failed["rating"]);

    // The puzzle's own rating is kept: another player failing it raises it from there.
    let sam = app.register("sam").await;
    let (_, sam_failed) = attempt(&app, Some(&sam), "race-1", &["h12-h11"]).await;
    assert!(
        sam_failed["puzzle_rating"].as_f64().unwrap() > puzzle_after,
        "{sam_failed}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_bad_puzzle_file_stops_the_start_with_the_entry_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    std::fs::write(
        &file,
        puzzle_file(&[
            ("race-1", CLOSE_RACE, 2, 1300.0),
            ("race-2", "classic-2 white", 5, 1900.0),
        ]),
    )
    .unwrap();
    let config = Config {
        listen: "127.0.0.1:0".into(),
        database_url: dir.path().join("db").to_string_lossy().into_owned(),
        puzzles: Some(file.clone()),
        ..Config::default()
    };
    let err = Application::build(config.clone())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("puzzle 1 (\"race-2\"): position"), "{err}");
    assert!(err.contains("puzzles.json"), "{err}");
    let missing = Config {
        puzzles: Some(dir.path().join("missing.json")),
        ..config
    };
    let err = Application::build(missing).await.unwrap_err().to_string();
    assert!(err.contains("missing.json"), "{err}");
}
