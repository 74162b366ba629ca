//! A six-player endgame the multi-player search once dragged out: four
//! players home, blue one marble short of its goal, black two. Each walked
//! its marbles back and forth inside the goal for twenty rounds before
//! bringing the stragglers in (the evaluation's rows-to-go gives a straggler
//! nothing for walking across to its goal's last free hole). On the final
//! approach the search now plays the fastest single-agent finish.

use stella_ai::{FrozenClock, Request, Strategy, Style};
use stella_engine::{Colour, Game, Position};

const STALL: &str = "classic-6 blue 91 white:e14,e16,e17,f14,f15,f16,g13,g14,g15,h14 \
    red:j13,k12,k13,l11,l12,l13,m10,m11,m12,m13 blue:l5,n5,n6,n7,o5,o6,o7,p5,p6,q5 \
    black:i7,j4,j9,k3,k4,l2,l4,m1,m3,m4 yellow:e5,e6,e7,e8,f5,f6,f7,g5,g6,h5 \
    green:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 made:42,47,90,90,45,46 \
    arrived:white,red,yellow,green places:white=1,red=4,yellow=2,green=3";

/// Moves each of blue and black makes until the game ends, `level` in
/// `strategy` playing both (at most 40 each).
fn moves_to_finish(level: u8, strategy: Strategy) -> (usize, usize) {
    let style = Style {
        strategy: Some(strategy),
        ..Style::default()
    };
    let start: Position = STALL.parse().expect("a position");
    let mut game = Game::from_position(start);
    let mut hashes = vec![game.position().hash()];
    let (mut blue, mut black) = (0, 0);
    while !game.is_over() && blue + black < 80 {
        let turn = game.turn();
        let mv = Request::new(game.position(), level, hashes.len() as u64)
            .history(&hashes)
            .style(style)
            .choose(&FrozenClock)
            .expect("a move");
        game.play(&mv).expect("a legal move");
        hashes.push(game.position().hash());
        match turn {
            Colour::Blue => blue += 1,
            Colour::Black => black += 1,
            _ => {}
        }
    }
    assert!(
        game.is_over(),
        "level {level}: not over after {blue} + {black} moves"
    );
    (blue, black)
}

#[test]
fn stragglers_are_brought_in_by_the_shortest_way() {
    for strategy in Strategy::ALL {
        for level in [4, 6] {
            let (blue, black) = moves_to_finish(level, strategy);
            // Blue's straggler is three steps from the free hole; black's two
            // need about four each, and each may have to wait a move for the
            // other.
            assert!(
                blue <= 6,
                "{strategy:?} level {level}: blue took {blue} moves"
            );
            assert!(
                black <= 12,
                "{strategy:?} level {level}: black took {black} moves"
            );
        }
    }
}
