//! The progress guard end to end: the move a player chooses when free does
//! not bring it closer to its goal; once the game's progress says it has
//! stalled, the same request plays a move that does, with the alpha-beta
//! search (paranoid) and with Monte Carlo tree search.

use stella_ai::progress::{distance, Progress, STALL_MOVES};
use stella_ai::{FrozenClock, Request, Strategy, Style};
use stella_engine::{Move, Position};

/// Positions from level-3 games where level 3 plays a sideways or backward
/// move at some seed, each with the strategies that do.
const CASES: [(&str, &[Strategy]); 2] = [
    (
        "classic-2 black 32 white:h8,i9,i11,i12,i13,j11,j12,k6,k10,m6 black:g10,h7,i8,j7,j10,k8,l3,m3,m4,m5 made:32,31",
        &[Strategy::Paranoid],
    ),
    (
        "classic-6 blue 44 white:e14,e15,e16,e17,f14,f15,f16,g14,g15,h14 red:i13,j12,j13,l11,l12,l13,m10,m11,m12,m13 blue:k9,l7,l8,m7,n5,n8,o6,p5,p6,q5 black:j4,k3,k6,l2,l3,l4,m1,m2,m3,m5 yellow:e5,e6,e7,f6,f7,f8,g5,g6,h5,h7 green:a13,b12,b13,c11,c12,c13,d10,d11,d12,d13 made:44,44,43,43,43,42 arrived:white,green places:white=2,green=1",
        &[Strategy::Mcts],
    ),
];

fn closer(pos: &Position, mv: Move) -> bool {
    let mut after = *pos;
    after.play_unchecked(&mv);
    distance(&after, pos.turn()) < distance(pos, pos.turn())
}

#[test]
fn a_stalled_player_moves_closer_with_either_search() {
    for (text, strategies) in CASES {
        let pos: Position = text.parse().unwrap();
        let stalled = Progress {
            best: distance(&pos, pos.turn()),
            since: STALL_MOVES,
            latched: false,
        };
        for &strategy in strategies {
            let style = Style {
                strategy: Some(strategy),
                ..Style::default()
            };
            // The first seed whose free choice does not bring the player
            // closer: the guard must change that choice.
            let (request, free) = (0..32)
                .map(|seed| {
                    let request = Request::new(&pos, 3, seed).style(style);
                    let free = request.choose(&FrozenClock).unwrap();
                    (request, free)
                })
                .find(|(_, free)| !closer(&pos, *free))
                .unwrap_or_else(|| panic!("{strategy} at {text}: every seed moves closer"));
            let fresh = Progress {
                since: 0,
                ..stalled
            };
            assert_eq!(
                request.progress(Some(fresh)).choose(&FrozenClock),
                Some(free)
            );
            let guarded = request
                .progress(Some(stalled))
                .choose(&FrozenClock)
                .unwrap();
            assert!(
                closer(&pos, guarded),
                "{strategy} at {text}: {guarded:?} is not closer"
            );
        }
    }
}
