//! Placement rating for games of three to six players, and for teams.
//!
//! Each player is compared with every opponent as a separate two-player game: a better
//! (smaller) place scores 1, an equal place 0.5, a worse place 0. The Elo changes of
//! those `n − 1` games are averaged (each is weighted `K / (n − 1)`), so one game moves a
//! rating about as much as one two-player game. Teams use the same function with team
//! ratings and team places.

use super::elo::{expected_score, K};

/// Rating changes for players rated `ratings` who finished in `places` (1 = first),
/// in the same order. Fewer than two players change nothing.
pub fn placement_deltas(ratings: &[f64], places: &[u8]) -> Vec<f64> {
    assert_eq!(ratings.len(), places.len(), "one place per rating");
    let n = ratings.len();
    if n < 2 {
        return vec![0.0; n];
    }
    let weight = K / (n - 1) as f64;
    (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| {
                    let score = match places[i].cmp(&places[j]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                    weight * (score - expected_score(ratings[i], ratings[j]))
                })
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::two_player_deltas;

    #[test]
    fn two_players_match_elo() {
        let d = placement_deltas(&[1500.0, 1600.0], &[1, 2]);
        let (a, b) = two_player_deltas(1500.0, 1600.0, 1.0);
        assert!((d[0] - a).abs() < 1e-9 && (d[1] - b).abs() < 1e-9);
    }

    #[test]
    fn winner_of_equals_gains_what_a_duel_gives() {
        let d = placement_deltas(&[1500.0; 6], &[1, 2, 3, 4, 5, 6]);
        assert!((d[0] - 16.0).abs() < 1e-9);
        assert!((d[5] + 16.0).abs() < 1e-9);
        assert!(d[2] > 0.0 && d[3] < 0.0);
        let sum: f64 = d.iter().sum();
        assert!(sum.abs() < 1e-9, "placement is zero-sum among equals");
    }

    #[test]
    fn equal_places_draw() {
        let d = placement_deltas(&[1500.0, 1500.0, 1500.0], &[1, 2, 2]);
        assert!((d[0] - 16.0).abs() < 1e-9);
        assert!((d[1] + 8.0).abs() < 1e-9);
        assert_eq!(d[1], d[2]);
    }

    #[test]
    fn single_player_changes_nothing() {
        assert_eq!(placement_deltas(&[1500.0], &[1]), vec![0.0]);
    }
}
