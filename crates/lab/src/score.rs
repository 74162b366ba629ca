//! Match scoring shared by `stella-lab match` and `stella-lab tally`: a game's score
//! for one player from the places, and the summary of many games (score,
//! Elo difference with a 95% interval from the per-game score variance).

use stella_engine::Colour;

/// The score of the unit `mine` in one game: its pairwise placings against
/// every other unit (1 for each placed behind it, ½ for each tie), divided
/// by the number of other units. A unit's place is its first colour's;
/// `places` lists every seat with its place.
pub fn pairwise_score(places: &[(Colour, u8)], teams: &[Vec<Colour>], mine: usize) -> f64 {
    let place_of = |u: &Vec<Colour>| places.iter().find(|(c, _)| *c == u[0]).map_or(0, |x| x.1);
    let my_place = place_of(&teams[mine]);
    let others = teams.len().saturating_sub(1).max(1) as f64;
    let won: f64 = teams
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != mine)
        .map(|(_, u)| pair_score(my_place, place_of(u)))
        .sum();
    won / others
}

/// The score of one pair of places (lower is better): 1 for placing
/// ahead, ½ for a tie, 0 for placing behind.
pub fn pair_score(mine: u8, theirs: u8) -> f64 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

/// Elo difference for a score fraction (clamped away from 0 and 1).
pub fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The summary of a player's scores over many games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Games counted.
    pub games: usize,
    /// Sum of the game scores.
    pub total: f64,
    /// Games scored 1 (every pair won).
    pub wins: usize,
    /// Games scored strictly between 0 and 1.
    pub draws: usize,
    /// Games scored 0.
    pub losses: usize,
    /// Elo difference of the mean score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub elo_low: f64,
    /// Upper end of the 95% interval.
    pub elo_high: f64,
}

impl Summary {
    /// The summary of `scores` (each in `[0, 1]`); `None` without games.
    pub fn of(scores: &[f64]) -> Option<Summary> {
        if scores.is_empty() {
            return None;
        }
        let n = scores.len() as f64;
        let total: f64 = scores.iter().sum();
        let p = total / n;
        let var = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let wins = scores.iter().filter(|&&s| s > 0.99).count();
        let losses = scores.iter().filter(|&&s| s < 0.01).count();
        Some(Summary {
            games: scores.len(),
            total,
            wins,
            draws: scores.len() - wins - losses,
            losses,
            elo: elo(p),
            elo_low: elo(p - 1.96 * se),
            elo_high: elo(p + 1.96 * se),
        })
    }

    /// The mean score.
    pub fn fraction(&self) -> f64 {
        self.total / self.games as f64
    }

    /// The `score …` and `elo …` report lines for the player `name`.
    pub fn lines(&self, name: &str) -> String {
        format!(
            "score {name} {:.1}/{} ({:.1}%)  +{} ={} -{}\nelo {:+.0} (95% {:+.0} .. {:+.0})",
            self.total,
            self.games,
            100.0 * self.fraction(),
            self.wins,
            self.draws,
            self.losses,
            self.elo,
            self.elo_low,
            self.elo_high
        )
    }
}

/// How games ended, as `arrived 20, eliminated 4` (each reason once, in
/// order of first appearance).
pub fn ends_line<'a>(reasons: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for r in reasons {
        match counts.iter_mut().find(|(k, _)| *k == r) {
            Some(e) => e.1 += 1,
            None => counts.push((r, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::Variant;

    #[test]
    fn pairwise_score_counts_each_other_unit_once() {
        let teams = Variant::Classic3.teams();
        let seats = Variant::Classic3.seats();
        // The first seat second of three: beats one, loses to one.
        let places = vec![(seats[0], 2), (seats[1], 1), (seats[2], 3)];
        assert_eq!(pairwise_score(&places, &teams, 0), 0.5);
        assert_eq!(pairwise_score(&places, &teams, 1), 1.0);
        assert_eq!(pairwise_score(&places, &teams, 2), 0.0);
        // A tie is worth half a pair.
        let tied = vec![(seats[0], 1), (seats[1], 1), (seats[2], 3)];
        assert_eq!(pairwise_score(&tied, &teams, 0), 0.75);
    }

    #[test]
    fn partners_share_their_first_colours_place() {
        let teams = Variant::Pairs2x2.teams();
        let places: Vec<(Colour, u8)> = teams
            .iter()
            .enumerate()
            .flat_map(|(i, u)| u.iter().map(move |&c| (c, i as u8 + 1)))
            .collect();
        assert_eq!(pairwise_score(&places, &teams, 0), 1.0);
        assert_eq!(pairwise_score(&places, &teams, 1), 0.0);
    }

    #[test]
    fn summary_counts_results_and_brackets_the_elo() {
        let s = Summary::of(&[1.0, 1.0, 0.5, 0.0]).unwrap();
        assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
        assert!((s.fraction() - 0.625).abs() < 1e-12);
        assert!(s.elo_low < s.elo && s.elo < s.elo_high);
        assert!((s.elo - 88.7).abs() < 0.1, "{}", s.elo);
        assert!(s
            .lines("x")
            .starts_with("score x 2.5/4 (62.5%)  +2 =1 -1\nelo +89"));
        assert_eq!(Summary::of(&[]), None);
    }

    #[test]
    fn ends_are_counted_in_order_of_first_appearance() {
        let line = ends_line(["arrived", "eliminated", "arrived"]);
        assert_eq!(line, "arrived 2, eliminated 1");
    }
}
