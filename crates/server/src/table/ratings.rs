//! Rating changes at the end of a rated game.

use stella_engine::Variant;

use super::seat::Seat;
use crate::rating::{placement_deltas, two_player_deltas, Category};
use crate::storage::{RatingUpdate, Storage, StorageResult};

/// The rating changes of a finished rated game: Elo for two players, placement for
/// three to six, and team against team (each partner receives the team's change) for
/// team variants. Seats without an account are skipped.
pub(crate) async fn rating_updates(
    storage: &Storage,
    variant: Variant,
    seats: &[Seat],
    places: &[(usize, u8)],
) -> StorageResult<Vec<RatingUpdate>> {
    let category = Category::of(seats.len(), variant.has_teams());
    let mut players = Vec::new();
    for &(seat, place) in places {
        if let Some(user) = seats[seat].occupant.user_id() {
            let (rating, _) = storage.rating(user, category).await?;
            players.push((seat, user.to_owned(), place, rating));
        }
    }
    let deltas: Vec<f64> = match category {
        Category::Duel if players.len() == 2 => {
            let score = match players[0].2.cmp(&players[1].2) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            let (a, b) = two_player_deltas(players[0].3, players[1].3, score);
            vec![a, b]
        }
        Category::Teams => {
            let teams = variant.teams();
            let team_of = |seat: usize| teams.iter().position(|t| t.contains(&seats[seat].colour));
            let mut team_ratings = Vec::new();
            let mut team_places = Vec::new();
            for t in 0..teams.len() {
                let members: Vec<_> = players.iter().filter(|p| team_of(p.0) == Some(t)).collect();
                if members.is_empty() {
                    team_ratings.push(crate::rating::START);
                    team_places.push(u8::MAX);
                    continue;
                }
                team_ratings.push(members.iter().map(|p| p.3).sum::<f64>() / members.len() as f64);
                team_places.push(members.iter().map(|p| p.2).min().unwrap_or(u8::MAX));
            }
            let team_deltas = placement_deltas(&team_ratings, &team_places);
            players
                .iter()
                .map(|p| team_of(p.0).map_or(0.0, |t| team_deltas[t]))
                .collect()
        }
        _ => {
            let ratings: Vec<f64> = players.iter().map(|p| p.3).collect();
            let places: Vec<u8> = players.iter().map(|p| p.2).collect();
            placement_deltas(&ratings, &places)
        }
    };
    Ok(players
        .into_iter()
        .zip(deltas)
        .map(|((seat, user_id, _, before), delta)| RatingUpdate {
            seat,
            user_id,
            category,
            before,
            after: before + delta,
        })
        .collect())
}
