//! Best-Reply Search at three players when a line of its tree puts the
//! searching player out of the game while the others play on: no turn of
//! the searcher follows there, so the opponents' layer must end some other
//! way. This is the search that `stella analyse`, the engine protocol and
//! the game reviews use beyond two players. The game below is one that
//! Best-Reply Search at level 8 won; before its 29th move white's search met
//! lines in which white broke the home-leaving deadline at its 30th.

use stella_ai::{FrozenClock, Request, Strategy, Style};
use stella_engine::{Colour, Record};

const RECORD: &str = r#"[Variant "classic-3"]
[Event "stella match"]
[White "level:8:brs"]
[Blue "level:4"]
[Yellow "level:4"]

1. m3-k5 d11-e11 l12-j12
2. l4-l5 b13-d11-f11 j13-j11
3. l2-l4-l6 c12-e12-g10 k13-k11-i11
4. m1-m3-m5-k7 d10-e10 m13-k13-k11
5. k4-k6-k8 b12-d10-f10-h10 j11-h11-h9
6. l5-l7-j9 e11-g11-i9-k9 l11-j11-h11
7. l6-j8-j10-h12 a13-b12 l13-l12
8. m2-k4-k6 b12-d10-f10 k12-i12-i10
9. j4-l2-l4-j6-l6-j8-j10 c13-e11-g11-i9 i11-g11-e11-e9
10. k3-k4 h10-j8-l8 m12-k12-i12-g12
11. l3-j5-l5-j7 c11-d11 h11-h10
12. j9-h11-f13 f10-g9 l12-l11
13. j7-l7-j9-h11-h13 g10-i8 k11-i13-g13-g11-e11
14. m4-l5 d12-f10-h8-j8-l6 m11-k11-i13-g13-e13
15. l5-l7-j9-j11 f11-g10 m10-l10
16. k8-k10-i12-g14 k9-l9 l11-k11
17. k6-k8-m8-k10 i9-i11-k9-m7 h10-f10-d10-f8
18. k4-k6-k8 g9-i9-i11-k9 j12-i12
19. k5-j6 i8-j7 k11-i11-i9-g9
20. j6-j8 d13-e12 e13-g13-i11-i9
21. j8-h10-f10-d12-f12-f14 d11-f11 i9-i8
22. k7-i7-i9-i11-g13-g15 e10-f10 l10-k11
23. k8-j9 j7-k7 k11-i11-i9-i7
24. h12-h14-f16 e12-e10-e8-g8 i12-h12
25. j11-i11 f11-f9-h7-j7-l7-n7 h12-f12
26. j10-h12-h14 l8-n6-n8 g12-e12-e10-e8
27. j9-h11 f10-h10-j10-l8-n6 h9-f9-f7
28. k10-j10 g8-h8 i8-g8
"#;

#[test]
fn best_reply_search_answers_where_its_lines_put_the_searcher_out() {
    let record = Record::parse(RECORD).unwrap();
    let game = record.replay().unwrap();
    let pos = *game.position();
    assert_eq!(
        (pos.turn(), pos.moves_made(Colour::White)),
        (Colour::White, 28)
    );
    let hashes: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
    let style = Style {
        strategy: Some(Strategy::BestReply),
        ..Style::default()
    };
    let chosen = Request::new(&pos, 8, hashes.len() as u64)
        .history(&hashes)
        .style(style)
        .choose(&FrozenClock)
        .expect("a move");
    assert!(pos.legal_moves().contains(&chosen), "{chosen:?} at {pos}");
}
