//! Rating changes at the end of a rated game.

use stella_engine::Variant;

use super::seat::Seat;
use crate::rating::{placement_deltas, two_player_deltas, Category, START};
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
    let mut users = Vec::new();
    for &(seat, place) in places {
        if let Some(user) = seats[seat].occupant.user_id() {
            let (rating, _) = storage.rating(user, category).await?;
            players.push(Rated {
                seat,
                place,
                rating,
            });
            users.push(user.to_owned());
        }
    }
    let deltas = rating_deltas(category, variant, seats, &players);
    Ok(players
        .into_iter()
        .zip(users)
        .zip(deltas)
        .map(|((p, user_id), delta)| RatingUpdate {
            seat: p.seat,
            user_id,
            category,
            before: p.rating,
            after: p.rating + delta,
        })
        .collect())
}

/// A rated player's seat, place and rating before the game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rated {
    pub(crate) seat: usize,
    pub(crate) place: u8,
    pub(crate) rating: f64,
}

/// The change of each player's rating, in the order of `players`.
pub(crate) fn rating_deltas(
    category: Category,
    variant: Variant,
    seats: &[Seat],
    players: &[Rated],
) -> Vec<f64> {
    match category {
        Category::Duel if players.len() == 2 => {
            let score = match players[0].place.cmp(&players[1].place) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            let (a, b) = two_player_deltas(players[0].rating, players[1].rating, score);
            vec![a, b]
        }
        Category::Teams => {
            let teams = variant.teams();
            let team_of = |seat: usize| teams.iter().position(|t| t.contains(&seats[seat].colour));
            let mut team_ratings = Vec::new();
            let mut team_places = Vec::new();
            for t in 0..teams.len() {
                let members: Vec<&Rated> = players
                    .iter()
                    .filter(|p| team_of(p.seat) == Some(t))
                    .collect();
                if members.is_empty() {
                    team_ratings.push(START);
                    team_places.push(u8::MAX);
                    continue;
                }
                team_ratings
                    .push(members.iter().map(|p| p.rating).sum::<f64>() / members.len() as f64);
                team_places.push(members.iter().map(|p| p.place).min().unwrap_or(u8::MAX));
            }
            let team_deltas = placement_deltas(&team_ratings, &team_places);
            players
                .iter()
                .map(|p| team_of(p.seat).map_or(0.0, |t| team_deltas[t]))
                .collect()
        }
        _ => {
            let ratings: Vec<f64> = players.iter().map(|p| p.rating).collect();
            let places: Vec<u8> = players.iter().map(|p| p.place).collect();
            placement_deltas(&ratings, &places)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Occupant;

    fn seats(variant: Variant) -> Vec<Seat> {
        variant
            .seats()
            .iter()
            .map(|&colour| Seat {
                colour,
                occupant: Occupant::Open,
            })
            .collect()
    }

    #[test]
    fn teams_are_rated_team_against_team() {
        // pairs-2x2: white+black against red+yellow.
        let v = Variant::from_id("pairs-2x2").unwrap();
        let s = seats(v);
        let seat = |name: &str| s.iter().position(|x| x.colour.to_string() == name).unwrap();
        let players = [
            Rated {
                seat: seat("white"),
                place: 1,
                rating: 1500.0,
            },
            Rated {
                seat: seat("black"),
                place: 1,
                rating: 1600.0,
            },
            Rated {
                seat: seat("red"),
                place: 2,
                rating: 1550.0,
            },
            Rated {
                seat: seat("yellow"),
                place: 2,
                rating: 1550.0,
            },
        ];
        let d = rating_deltas(Category::Teams, v, &s, &players);
        // Both teams average 1550: the winners gain 16 each, the losers lose 16 each.
        assert_eq!(d, vec![16.0, 16.0, -16.0, -16.0]);
    }

    #[test]
    fn duel_and_multi() {
        let v = Variant::Classic2;
        let s = seats(v);
        let players = [
            Rated {
                seat: 0,
                place: 2,
                rating: 1500.0,
            },
            Rated {
                seat: 1,
                place: 1,
                rating: 1500.0,
            },
        ];
        assert_eq!(
            rating_deltas(Category::Duel, v, &s, &players),
            vec![-16.0, 16.0]
        );
        let v = Variant::Classic3;
        let s = seats(v);
        let players = [
            Rated {
                seat: 0,
                place: 3,
                rating: 1500.0,
            },
            Rated {
                seat: 1,
                place: 1,
                rating: 1500.0,
            },
            Rated {
                seat: 2,
                place: 2,
                rating: 1500.0,
            },
        ];
        assert_eq!(
            rating_deltas(Category::Multi, v, &s, &players),
            vec![-16.0, 16.0, 0.0]
        );
    }
}
