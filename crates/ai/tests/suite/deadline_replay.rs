//! Players keep the home-leaving deadline: a pairs-2x2 game in which MCTS at
//! level 5 once broke it (yellow's last home marble sat where no single move
//! took it out, and the old deadline rule only pushed marbles that could
//! leave in one move), replayed to round 24 and played on by each strategy.

use stella_ai::{FrozenClock, Request, Strategy, Style};
use stella_engine::{Colour, Game, Record};

const RECORD: &str = r#"[Variant "pairs-2x2"]
[Event "stella match"]
[White "level:5:paranoid"]
[Red "level:5:mcts"]
[Black "level:5:paranoid"]
[Yellow "level:5:mcts"]
[Result "white=1 red=2 black=1 yellow=2"]
[Reason "eliminated"]

1. m3-m5 e7-e9 g14-g13 k12-k11
2. m5-l6 e5-e7-g7 e16-g14-g12 m12-k12-k10
3. m1-m3-m5-k7 g6-g8 f15-f13-h11 l12-l10-j10
4. k7-k8 f6-f8-h8 g13-g11-i11-k9-k7-m5-m3-m1 k11-k9-i11-g11
5. k3-m3-m5-k7-k9 f7-h7-h9 h14-h13 m11-k11
6. l3-l5-l7-j9-j11 h8-h10-h12 e15-g13-i11 k13-i13-g13-e15-e13
7. l2-k3 g7-g9-i9 e14-g14-i12-i10 g11-f11
8. m2-l3 i9-j9 g12-i12-g14-e14-e12-g10-i8 j10-h10-h8-f8
9. l3-l5-l7 e9-e10 h13-i13 j13-j12
10. l6-l8-j10 j9-l9 i11-g11-e11-e9 f8-f7
11. j11-i11 e6-e7 i10-i9 l13-l12
12. l7-j9-j11 f5-f6 i9-j8 l12-l10-l8
13. k3-k5 f6-f8-h8-h10 j8-j7 l8-j8-j6
14. k5-i7-i9-g11 e7-g7-g9-i9 f16-h14 m10-k12-i12-g12-g10
15. k8-j9 h12-i12 g15-g14 g10-f10
16. j11-h13-f15-f13 e10-g10-i10-k8 e9-f8 j12-l10-l8-j8-h8
17. j10-h12 i12-j12 i13-i12 e13-e12
18. l4-k5 k8-i10-g12 h14-i13 h8-g9
19. g11-g13-e15 g8-g10-i10 e17-f16 f7-f6
20. h12-h13 g12-h12 i8-i7 e12-g10-i8-k6
21. k5-k7 e8-g8-g10-i8 j7-l5 f11-f9-f7-f5
22. j4-l4-l6-j8-j10 g5-i5 i7-k5-k3 l11-j11
23. k4-j5 h5-h6 g14-e14-g12 k10-k8
24. m4-l4 l9-l10 f14-f12 k6-i6-g6-e6
25. j5-j7 h10-j8-l6 i13-g13-g11 g9-g8
26. l4-k5 h9-h10 g12-g10 k11-i13-g13-e13
27. j7-h9-f11 i10-k10-m10 g11-g9-g7 e6-e5
28. k7-j8 i5-i6 f16-e16 g8-g6-e6
29. h13-h14 m10-m11 e16-e14-g12-i10-k10 m13-m12
30. j9-l9 l10-m9 k10-m8 j11-j9-j7-j5-h7-f7
white=1 red=2 black=1 yellow=2"#;

#[test]
fn no_strategy_breaks_the_deadline_in_the_game_mcts_once_lost_that_way() {
    let record = Record::parse(RECORD).unwrap();
    let full = record.replay().unwrap();
    for strategy in [Strategy::Mcts, Strategy::Paranoid, Strategy::BestReply] {
        let mut game = Game::new(full.position().variant());
        for (mv, _) in &full.moves()[..23 * 4] {
            game.play(mv).unwrap();
        }
        let style = Style {
            strategy: Some(strategy),
            ..Style::default()
        };
        let mut hashes: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
        while !game.is_over() && game.position().round() <= 32 {
            let turn = game.turn();
            let seat_style = if matches!(turn, Colour::Red | Colour::Yellow) {
                style
            } else {
                Style::default()
            };
            let seed = hashes.len() as u64;
            let mv = Request::new(game.position(), 5, seed)
                .history(&hashes)
                .style(seat_style)
                .choose(&FrozenClock)
                .expect("a move");
            game.play(&mv).unwrap();
            hashes.push(game.position().hash());
        }
        for c in game.position().variant().seats() {
            assert!(
                !game.position().is_eliminated(*c),
                "{strategy:?}: {c} was eliminated: {}",
                game.position()
            );
        }
    }
}
