//! A full rated classic-2 game over real WebSockets, to the end, with ratings, game
//! lists, replay data and the record download.

use crate::common::play::{next_greedy, play};
use crate::common::{place_of, spawn_app_for_scripts, GuestDuel};
use serde_json::json;
use stella_engine::{Colour, Game, Record, Variant};

#[tokio::test]
async fn classic_two_game_to_the_end_updates_ratings() {
    let app = spawn_app_for_scripts().await;
    let ana = app.register("ana").await;
    let bo = app.register("boris").await;
    let mut a = app.ws(Some(&ana)).await;
    let mut b = app.ws(Some(&bo)).await;
    let table = a
        .create(
            json!({"variant": "classic-2", "rated": true, "time": {"minutes": 10, "increment": 5}}),
        )
        .await;
    let snap = a.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "open");
    b.send(json!({"t": "join", "d": {"table": table}})).await;
    let started = b.event("started").await;
    assert_eq!(started["d"]["turn"], "white");
    a.event("started").await;

    let mut game = Game::new(Variant::Classic2);
    let mut ack = 0;
    let (mut ended_a, mut ended_b) = (None, None);
    while !game.is_over() {
        let (mv, path) = next_greedy(&game);
        ack += 1;
        let ply = game.moves().len() + 1;
        let moved = if game.turn() == Colour::White {
            let (moved, ended) = play(&mut a, &mut [&mut b], &table, &path, ply, ack).await;
            ended_a = ended_a.or(ended);
            moved
        } else {
            let (moved, ended) = play(&mut b, &mut [&mut a], &table, &path, ply, ack).await;
            ended_b = ended_b.or(ended);
            moved
        };
        game.play(&mv).expect("greedy moves are legal");
        assert_eq!(moved["d"]["position"], game.position().to_string());
        assert!(moved["d"]["clock"]["remaining_ms"].is_array());
    }
    let outcome = game.outcome().expect("over");
    let ended_a = match ended_a {
        Some(e) => e,
        None => a.event("ended").await,
    };
    let ended_b = match ended_b {
        Some(e) => e,
        None => b.event("ended").await,
    };
    assert_eq!(ended_a["d"], ended_b["d"]);
    assert_eq!(ended_a["d"]["reason"], outcome.reason.to_string());
    let places = ended_a["d"]["places"].as_array().expect("places");
    assert_eq!(places.len(), 2);
    for p in places {
        assert_eq!(p["rating_before"], 1500.0);
        let after = p["rating_after"].as_f64().expect("rated");
        let colour: Colour = p["colour"].as_str().unwrap().parse().unwrap();
        let place = outcome.place_of(colour).unwrap();
        assert_eq!(p["place"], place);
        if outcome.is_draw() {
            assert_eq!(after, 1500.0);
        } else if place == 1 {
            assert_eq!(after, 1516.0);
        } else {
            assert_eq!(after, 1484.0);
        }
    }

    // Ratings and history.
    let r = app.get_json("/api/users/ana/ratings", None).await;
    assert_eq!(r["ratings"][0]["category"], "duel");
    assert_eq!(r["ratings"][0]["games"], 1);
    assert_eq!(r["history"].as_array().unwrap().len(), 1);
    assert_eq!(r["history"][0]["game_id"], table.as_str());
    let board = app.get_json("/api/leaderboard/duel", None).await;
    assert_eq!(board["players"].as_array().unwrap().len(), 2);
    let bad = app.get("/api/leaderboard/chess", None).await;
    assert_eq!(bad.status(), 400);

    // The player's game list and the replay.
    let list = app.get_json("/api/users/boris/games", None).await;
    assert_eq!(list["games"][0]["id"], table.as_str());
    assert_eq!(list["games"][0]["status"], "finished");
    let replay = app.get_json(&format!("/api/games/{table}"), None).await;
    let moves = replay["moves"].as_array().unwrap();
    assert_eq!(moves.len(), game.moves().len());
    assert_eq!(
        moves.last().unwrap()["position"],
        game.position().to_string()
    );
    assert_eq!(replay["seats"][0]["player"]["name"], "ana");
    assert_eq!(replay["reason"], outcome.reason.to_string());

    // The record downloads and replays to the same position.
    let res = app.get(&format!("/api/games/{table}/record"), None).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("attachment"));
    let text = res.text().await.unwrap();
    let record = Record::parse(&text).expect("record parses");
    assert_eq!(record.tag("White"), Some("ana"));
    assert_eq!(
        record.replay().expect("record replays").position(),
        game.position()
    );
}

#[tokio::test]
async fn an_eliminating_move_needs_confirmation() {
    let app = spawn_app_for_scripts().await;
    let GuestDuel {
        table,
        mut w,
        mut b,
        ..
    } = app.guest_duel(json!({"variant": "classic-2"})).await;
    let mut game = Game::new(Variant::Classic2);
    let mut ack = 0;
    // Greedy play until white, to move, has a move that would eliminate it.
    let eliminating = loop {
        assert!(
            !game.is_over() && game.moves().len() < 200,
            "no eliminating move came up: {:?} after {} moves, {}",
            game.outcome(),
            game.moves().len(),
            game.position()
        );
        if game.turn() == Colour::White {
            if let Some(mv) = game
                .legal_moves()
                .into_iter()
                .find(|m| game.would_eliminate(m))
            {
                break mv;
            }
        }
        // After its deadline white walks a marble back towards its home.
        let (mv, path) =
            if game.turn() == Colour::White && game.position().moves_made(Colour::White) >= 30 {
                let home = Variant::Classic2.home(Colour::White);
                let to_home =
                    |h: stella_engine::Hole| home.iter().map(|x| x.distance(h)).min().unwrap_or(0);
                let mv = game
                    .legal_moves()
                    .into_iter()
                    .max_by_key(|m| to_home(m.from) as i32 - to_home(m.to) as i32)
                    .expect("a move");
                (mv, game.position().path_of(&mv).to_string())
            } else {
                // Both sides play the level-3 search until then, which keeps
                // the deadline (greedy play can be caged at home).
                let mv = stella_ai::best_move_in_game(&game, 3, 7, &stella_ai::FrozenClock, None)
                    .expect("a move");
                (mv, game.position().path_of(&mv).to_string())
            };
        ack += 1;
        let ply = game.moves().len() + 1;
        if game.turn() == Colour::White {
            play(&mut w, &mut [&mut b], &table, &path, ply, ack).await;
        } else {
            play(&mut b, &mut [&mut w], &table, &path, ply, ack).await;
        }
        game.play(&mv).unwrap();
    };
    let path = game.position().path_of(&eliminating).to_string();
    w.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": 1000}}))
        .await;
    let e = w.expect_error("confirm_required").await;
    assert_eq!(e["d"]["ack"], 1000);
    let snap = {
        w.send(json!({"t": "watch", "d": {"table": table}})).await;
        w.recv_until(|m| m["t"] == "table").await
    };
    assert_eq!(
        snap["d"]["moves"].as_array().unwrap().len(),
        game.moves().len(),
        "nothing changed"
    );
    w.send(json!({"t": "move", "d": {"table": table, "path": path, "ack": 1001, "confirm": true}}))
        .await;
    w.recv_until(|m| m["t"] == "ack" && m["d"]["ack"] == 1001)
        .await;
    let ended = b.event("ended").await;
    assert_eq!(ended["d"]["reason"], "eliminated");
    assert_eq!(place_of(&ended, "white")["place"], 2);
}

/// A classic-2 game in which black fills l2, m2, k3 and m3 while white empties
/// its home but for m1: at white's 30th move m1 is walled in, so it is excused
/// from the home-leaving deadline, and both players keep their deadlines.
const WALLED_IN_M1: &str = "m3-m5 f14-f13 m4-m6 e14-g12 k3-i5 g15-g13-g11 l3-l5-n5-l7 \
    f16-f14-f12-h10 j4-h6 f13-h11-h9 k4-j5 g11-i9 l4-l5 h10-h8 i5-g7 h9-h7 g7-i7-g9 \
    e15-g15-g13-g11 l2-k3 g12-g10-g8-i6-k4 k3-k5-i5 k4-k3 i5-i6 i9-i8 i6-g8-g10-g12 \
    i8-g8-i6 m5-k5-i5-g7 h8-i7 h6-h8-f10 i7-i5-k5 m6-k8 e17-e15-g15-i13 l7-j9 h14-h13 \
    k8-i10 g14-i12 g9-e11 i6-k4 j9-h11-f13 h7-h6 l5-l6 h6-i5 j5-j6 k5-l4 m2-l3 k4-m2 \
    l3-l5-l7 l4-m3 l6-k7 i5-j4 j6-j7 j4-l2 g12-e14 i12-h12 j7-i8 e16-g14-i12-g12-g10-e10-e12 \
    f10-d12-f12-f14 g11-h11 i10-g12-i12-g14-e16 h12-g13";

#[tokio::test]
async fn an_excused_marble_moves_inside_its_home_without_confirmation() {
    let app = spawn_app_for_scripts().await;
    let GuestDuel {
        table,
        mut w,
        mut b,
        ..
    } = app.guest_duel(json!({"variant": "classic-2"})).await;
    let mut game = Game::new(Variant::Classic2);
    let mut ack = 0;
    let m1: stella_engine::Hole = "m1".parse().unwrap();
    let l3: stella_engine::Hole = "l3".parse().unwrap();
    let mut paths: Vec<String> = WALLED_IN_M1.split_whitespace().map(String::from).collect();
    // White's 31st move: any marble but m1 that keeps the game going and l3 free.
    let white_31st = {
        let mut g = game.clone();
        for p in &paths {
            g.play_path(&p.parse().unwrap())
                .expect("the scripted game is legal");
        }
        assert_eq!(g.position().moves_made(Colour::White), 30);
        assert!(g.position().marbles(Colour::White).contains(m1));
        assert!(!g.is_over(), "both players kept their deadlines");
        let mv = g
            .legal_moves()
            .into_iter()
            .find(|m| {
                let mut after = *g.position();
                after.play_unchecked(m);
                m.from != m1 && m.to != l3 && !g.would_eliminate(m) && !after.is_over()
            })
            .expect("a quiet move for white");
        g.position().path_of(&mv).to_string()
    };
    paths.push(white_31st);
    // Black opens m2 by moving inside its goal; white's m1 then steps to m2,
    // inside its home, which must not ask for confirmation.
    paths.push("m2-l3".into());
    paths.push("m1-m2".into());
    let mut last = None;
    for path in &paths {
        ack += 1;
        let ply = game.moves().len() + 1;
        let mover_is_white = game.turn() == Colour::White;
        let (moved, ended) = if mover_is_white {
            play(&mut w, &mut [&mut b], &table, path, ply, ack).await
        } else {
            play(&mut b, &mut [&mut w], &table, path, ply, ack).await
        };
        assert!(ended.is_none(), "{path} ended the game: {ended:?}");
        game.play_path(&path.parse().unwrap()).unwrap();
        assert_eq!(moved["d"]["position"], game.position().to_string());
        last = Some(moved);
    }
    let p = game.position();
    assert!(!p.is_eliminated(Colour::White));
    assert!(p.marbles(Colour::White).contains("m2".parse().unwrap()));
    assert_eq!(last.unwrap()["d"]["position"], p.to_string());
    // The server agrees: the table goes on with black to move.
    w.send(json!({"t": "watch", "d": {"table": table}})).await;
    let snap = w.recv_until(|m| m["t"] == "table").await;
    assert_eq!(snap["d"]["status"], "live", "{snap}");
    assert_eq!(snap["d"]["turn"], "black");
}
