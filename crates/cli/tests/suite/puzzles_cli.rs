//! `stella puzzles` end to end: games played here, stored in a fresh database as the
//! server stores them, turned into puzzles whose shortest finishes are checked again.

use crate::common::stella;
use stella_ai::multipv::finish_length;
use stella_ai::FrozenClock;
use stella_engine::{Game, Position, Record, Variant};
use stella_server::storage::{Finish, GameRow, SeatRow, Storage};

/// A game between two level-1 computers to its end.
fn play(seed: u64) -> Game {
    let mut game = Game::new(Variant::Classic2);
    while !game.is_over() {
        let n = game.moves().len() as u64;
        let mv = stella_ai::best_move_in_game(&game, 1, seed * 1000 + n, &FrozenClock, None)
            .expect("a move");
        let path = game.position().path_of(&mv);
        game.play_path(&path).unwrap();
    }
    game
}

fn row(id: &str, status: &str, record: Option<String>) -> GameRow {
    GameRow {
        id: id.to_string(),
        variant: "classic-2".to_string(),
        rated: 0,
        reserve_ms: None,
        increment_ms: None,
        status: status.to_string(),
        created_by: None,
        created_ms: 1,
        started_ms: Some(2),
        finished_ms: None,
        reason: None,
        record,
        clock: None,
        start_v: None,
        invite: None,
        move_time_ms: None,
    }
}

fn seats(id: &str) -> Vec<SeatRow> {
    ["white", "black"]
        .iter()
        .enumerate()
        .map(|(i, c)| SeatRow {
            game_id: id.to_string(),
            seat: i as i64,
            colour: c.to_string(),
            user_id: None,
            computer_level: Some(1),
            place: None,
            rating_before: None,
            rating_after: None,
        })
        .collect()
}

#[test]
fn puzzles_come_from_the_finished_games_of_a_database_and_are_proved() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let url = format!("sqlite://{}", db.display());
    let games: Vec<(String, Game)> = (1..=3).map(|s| (format!("game{s}"), play(s))).collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let storage = Storage::connect(&url).await.unwrap();
        for (i, (id, game)) in games.iter().enumerate() {
            storage
                .insert_game(&row(id, "live", None), &seats(id))
                .await
                .unwrap();
            let record = Record::from_game(game, &[]).to_string();
            let reason = record_reason(&record);
            storage
                .finish_game(
                    id,
                    &Finish {
                        finished_ms: 100 + i as i64,
                        reason: &reason,
                        record: &record,
                        places: &[],
                        ratings: &[],
                    },
                )
                .await
                .unwrap();
        }
        // A game still being played gives no puzzle.
        storage
            .insert_game(&row("live1", "live", None), &seats("live1"))
            .await
            .unwrap();
        storage.close().await;
    });
    let out = dir.path().join("puzzles.json");
    let (ok, stdout, err) = stella(&[
        "puzzles",
        "--from",
        &url,
        "--out",
        out.to_str().unwrap(),
        "--max-moves",
        "5",
    ]);
    assert!(ok, "{err}");
    assert!(stdout.contains("from 3 finished games"), "{stdout}");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file["format"], "stella-puzzles/1");
    let puzzles = file["puzzles"].as_array().unwrap();
    assert!(
        puzzles.len() >= 3,
        "at least one puzzle per game: {puzzles:?}"
    );
    for p in puzzles {
        let game_id = p["game"].as_str().unwrap();
        let (_, game) = games
            .iter()
            .find(|(id, _)| id == game_id)
            .expect("a finished game");
        let ply = p["ply"].as_u64().unwrap() as usize;
        let text = p["position"].as_str().unwrap();
        assert_eq!(text, game.positions()[ply].to_string());
        let moves = p["moves"].as_u64().unwrap() as usize;
        assert!((2..=5).contains(&moves));
        let pos: Position = text.parse().unwrap();
        let f = finish_length(&pos, &FrozenClock, 1e9, 4_000_000).unwrap();
        assert!(f.proved());
        assert_eq!(f.plan.len(), moves, "{text}");
    }
}

fn record_reason(record: &str) -> String {
    Record::parse(record)
        .unwrap()
        .tags
        .iter()
        .find(|(k, _)| k == "Reason")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| "arrived".to_string())
}

#[test]
fn puzzles_name_a_database_that_cannot_be_opened() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("missing").join("deeper").join("x.db");
    let out = dir.path().join("p.json");
    let (ok, _, err) = stella(&[
        "puzzles",
        "--from",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("--from"), "{err}");
    assert!(!out.exists());
    let (ok, _, err) = stella(&[
        "puzzles",
        "--from",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-moves",
        "40",
    ]);
    assert!(!ok);
    assert!(err.contains("--max-moves"), "{err}");
}

/// A puzzle file with one entry at `position`.
fn one_puzzle(id: &str, position: &str) -> String {
    serde_json::json!({
        "format": "stella-puzzles/1",
        "puzzles": [{"id": id, "position": position, "moves": 2, "rating": 1300, "game": "g", "ply": 1}]
    })
    .to_string()
}

const CLOSE_RACE: &str = "classic-2 white 40 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h12 black:i7,k3,k4,l2,l3,l4,m1,m2,m3,m4 made:39,39";

#[test]
fn serve_refuses_a_bad_puzzle_file_naming_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, one_puzzle("x-1", "classic-2 white 1 white:zz")).unwrap();
    let db = dir.path().join("s.db");
    let (ok, _, err) = stella(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--db",
        db.to_str().unwrap(),
        "--puzzles",
        file.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("bad.json: puzzle 0 (\"x-1\"): position"),
        "{err}"
    );
}

#[test]
fn serve_serves_the_puzzle_file_named_by_stella_puzzles_env() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    std::fs::write(&file, one_puzzle("fresh-1", CLOSE_RACE)).unwrap();
    let port = stella_test_support::free_port();
    let mut child = std::process::Command::new(crate::common::STELLA)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--db"])
        .arg(dir.path().join("s.db"))
        .env("STELLA_PUZZLES", &file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let body = runtime.block_on(async {
        let url = format!("http://127.0.0.1:{port}/api/puzzles");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            if let Ok(res) = reqwest::get(&url).await {
                break res.json::<serde_json::Value>().await.unwrap();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server never answered"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(body["puzzles"][0]["id"], "fresh-1");
    assert_eq!(body["daily"]["id"], "fresh-1");
}
