//! Elo for two-player games.

/// The K factor: the most one game can move a rating is K points. Stella uses a fixed
/// K = 32 in every category (see docs/server.md).
pub const K: f64 = 32.0;

/// Every player's rating in every category starts here.
pub const START: f64 = 1500.0;

/// The expected score of a player rated `a` against one rated `b` (0 to 1).
pub fn expected_score(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// Rating changes of a two-player game, `score_a` being 1 (a won), 0.5 (draw) or 0.
pub fn two_player_deltas(a: f64, b: f64, score_a: f64) -> (f64, f64) {
    let delta = K * (score_a - expected_score(a, b));
    (delta, -delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_players() {
        assert_eq!(expected_score(1500.0, 1500.0), 0.5);
        assert_eq!(two_player_deltas(1500.0, 1500.0, 1.0), (16.0, -16.0));
        assert_eq!(two_player_deltas(1500.0, 1500.0, 0.5), (0.0, -0.0));
    }

    #[test]
    fn upset_moves_more() {
        let (a, b) = two_player_deltas(1400.0, 1800.0, 1.0);
        assert!((a - 32.0 * (1.0 - 1.0 / 11.0)).abs() < 1e-9);
        assert_eq!(a, -b);
        let (fav, _) = two_player_deltas(1800.0, 1400.0, 1.0);
        assert!(fav < 3.0);
    }

    #[test]
    fn expected_scores_sum_to_one() {
        let e = expected_score(1612.0, 1433.0) + expected_score(1433.0, 1612.0);
        assert!((e - 1.0).abs() < 1e-12);
    }
}
