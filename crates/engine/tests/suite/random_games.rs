//! Property tests over random legal games in every variant.

use proptest::prelude::*;
use stella_engine::{Game, MovePath, Position, Record, Variant};

fn all_variants() -> Vec<Variant> {
    Variant::ALL.into_iter().chain([Variant::Solo]).collect()
}

/// Plays up to `plies` random legal moves chosen by `seed`, checking the
/// invariants after each move; returns the game.
fn random_game(variant: Variant, seed: u64, plies: usize) -> Game {
    let mut rng = seed | 1;
    let mut game = Game::new(variant);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let before = *game.position();
        let moves = before.legal_moves();
        assert!(
            !moves.is_empty(),
            "a game that is not over has a move: {before}"
        );
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = moves[(rng % moves.len() as u64) as usize];
        let me = before.turn();
        // No move ends in a foreign point; a marble in its goal stays there.
        assert!(
            variant.allowed_ends(me).contains(mv.to),
            "{mv:?} ends in a foreign point"
        );
        if variant.goal(me).contains(mv.from) {
            assert!(variant.goal(me).contains(mv.to), "{mv:?} leaves the goal");
        }
        // The printed path parses back and resolves to the same move.
        let path = before.path_of(&mv);
        let reparsed: MovePath = path.to_string().parse().unwrap();
        assert_eq!(before.resolve_path(&reparsed), Ok(mv), "{path} in {before}");
        // Every generated move is accepted by checked play.
        let played = game.play_path(&reparsed).unwrap();
        assert_eq!(played, mv);
        // Marble counts are kept unless someone was eliminated.
        let after = game.position();
        for &c in variant.seats() {
            if !after.is_eliminated(c) {
                assert_eq!(
                    after.marbles(c).count(),
                    before.marbles(c).count(),
                    "{c} lost a marble"
                );
            }
        }
        // Positions round-trip through their string.
        let s = after.to_string();
        assert_eq!(s.parse::<Position>().unwrap(), *after, "{s}");
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_the_invariants(v in 0usize..17, seed in any::<u64>(), plies in 1usize..160) {
        let variant = all_variants()[v];
        let game = random_game(variant, seed, plies);
        // Records round-trip: export, parse, replay to the same position.
        let text = Record::from_game(&game, &[("White", "p1")]).to_string();
        let back = Record::parse(&text).unwrap().replay().unwrap();
        prop_assert_eq!(back.position(), game.position());
        prop_assert_eq!(Record::from_game(&back, &[("White", "p1")]).to_string(), text);
    }
}

#[test]
fn long_random_games_end_with_full_places() {
    for (i, variant) in all_variants().into_iter().enumerate() {
        let game = random_game(variant, 0xC0FFEE + i as u64, 2000);
        // The 150-round limit ends every game within 150 moves per seat.
        let o = game
            .outcome()
            .unwrap_or_else(|| panic!("{variant} did not end: {}", game.position()));
        assert_eq!(o.places.len(), variant.seats().len());
        assert!(o.places.iter().all(|&(_, p)| p >= 1), "{variant}: {o}");
        let places: Vec<u8> = o.places.iter().map(|&(_, p)| p).collect();
        assert!(places.contains(&1), "someone is first: {o}");
        for &c in variant.seats() {
            if let Some(p) = variant.partner(c) {
                assert_eq!(o.place_of(c), o.place_of(p), "partners share a place");
            }
        }
    }
}
