//! The whole game state and the rules that change it (docs/rules.md §2–§8).

use crate::bitboard::Bitboard;
use crate::colour::Colour;
use crate::error::{IllegalMove, SetupError};
use crate::geometry::{distance_to_home_of, neighbours};
use crate::movegen::{self, MoveContext};
use crate::moves::{Move, MovePath};
use crate::outcome::{EndReason, Outcome};
use crate::setup::Setup;
use crate::variant::Variant;
use crate::zobrist::{MARBLE_KEYS, TURN_KEYS};

/// The number of rounds after which a game ends (docs/rules.md §7).
pub const ROUND_LIMIT: u16 = 150;

/// A complete game state: marbles, player to move, round, moves made per seat
/// (for the home-leaving deadline), arrivals, eliminations and places.
///
/// Positions are built with [`Position::start`] or from a [`Setup`] (usually by
/// parsing a position string). They change only through legal moves and the
/// outside events resignation and running out of time.
///
/// ```
/// use stella_engine::{Position, Variant};
/// let pos = Position::start(Variant::Classic2);
/// assert_eq!(pos.legal_moves().len(), 14);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    variant: Variant,
    boards: [Bitboard; 6],
    occupied: Bitboard,
    turn: Colour,
    round: u16,
    made: [u16; 6],
    arrived: u8,
    out: u8,
    places: [u8; 6],
    ended: Option<EndReason>,
    hash: u64,
}

const fn bit(c: Colour) -> u8 {
    1 << c as u8
}

impl Position {
    /// The start of `variant`: every seat's marbles on its home, white to move, round 1.
    pub fn start(variant: Variant) -> Position {
        let mut setup = Setup::empty(variant);
        for &c in variant.seats() {
            setup.marbles[c.index()] = variant.home(c);
        }
        Position::from_setup(&setup).expect("the start position is valid")
    }

    /// Builds a checked position from a layout, with a precise error when it
    /// cannot be a game of its variant.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let variant = setup.variant;
        let mut occupied = Bitboard::EMPTY;
        for c in Colour::ALL {
            let b = setup.marbles[c.index()];
            if !variant.has_seat(c) {
                if !b.is_empty() {
                    return Err(SetupError::NotASeat(c));
                }
                continue;
            }
            if let Some(h) = (occupied & b).first() {
                return Err(SetupError::HoleTwice(h));
            }
            if b.count() as usize > variant.marbles() {
                return Err(SetupError::TooManyMarbles(c, b.count() as usize));
            }
            occupied |= b;
        }
        if !variant.has_seat(setup.turn) {
            return Err(SetupError::NotASeat(setup.turn));
        }
        let seats_mask: u8 = variant
            .seats()
            .iter()
            .map(|&c| bit(c))
            .fold(0, |a, b| a | b);
        if (setup.arrived | setup.out) & !seats_mask != 0 {
            return Err(SetupError::Invalid(
                "arrived or eliminated colour is not a seat".into(),
            ));
        }
        if setup.round == 0 || setup.round > ROUND_LIMIT {
            return Err(SetupError::Invalid(format!(
                "round {} is outside 1-{ROUND_LIMIT}",
                setup.round
            )));
        }
        for c in Colour::ALL {
            let p = setup.places[c.index()] as usize;
            if p > variant.unit_count() || (p > 0 && !variant.has_seat(c)) {
                return Err(SetupError::Invalid(format!(
                    "place {p} of {c} is impossible"
                )));
            }
        }
        let mut pos = Position {
            variant,
            boards: setup.marbles,
            occupied,
            turn: setup.turn,
            round: setup.round,
            made: setup.made,
            arrived: setup.arrived,
            out: setup.out,
            places: setup.places,
            ended: setup.ended,
            hash: 0,
        };
        if pos.ended.is_none() && !pos.is_active(pos.turn) {
            return Err(SetupError::TurnOfFinishedPlayer(pos.turn));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The plain layout of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            turn: self.turn,
            round: self.round,
            marbles: self.boards,
            made: self.made,
            arrived: self.arrived,
            out: self.out,
            places: self.places,
            ended: self.ended,
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = TURN_KEYS[self.turn.index()];
        for c in Colour::ALL {
            for hole in self.boards[c.index()] {
                h ^= MARBLE_KEYS[c.index()][hole.index()];
            }
        }
        h
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The colour to move (after the game ended: the one who would have).
    pub fn turn(&self) -> Colour {
        self.turn
    }

    /// The round number, from 1.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The marbles of `colour`.
    pub fn marbles(&self, colour: Colour) -> Bitboard {
        self.boards[colour.index()]
    }

    /// Every hole holding a marble.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The colour of the marble on `hole`, if any.
    pub fn colour_on(&self, hole: crate::Hole) -> Option<Colour> {
        if !self.occupied.contains(hole) {
            return None;
        }
        Colour::ALL
            .into_iter()
            .find(|c| self.boards[c.index()].contains(hole))
    }

    /// Moves made so far by `colour`.
    pub fn moves_made(&self, colour: Colour) -> u16 {
        self.made[colour.index()]
    }

    /// Whether `colour` has all its marbles home in its goal (or arrived by the
    /// anti-block rule).
    pub fn has_arrived(&self, colour: Colour) -> bool {
        self.arrived & bit(colour) != 0
    }

    /// Whether `colour` has been eliminated.
    pub fn is_eliminated(&self, colour: Colour) -> bool {
        self.out & bit(colour) != 0
    }

    /// Whether `colour` still plays: a seat, not arrived, not eliminated.
    pub fn is_active(&self, colour: Colour) -> bool {
        self.variant.has_seat(colour) && (self.arrived | self.out) & bit(colour) == 0
    }

    /// The place already decided for `colour` (0 = none yet).
    pub fn place(&self, colour: Colour) -> u8 {
        self.places[colour.index()]
    }

    /// A 64-bit hash of the board and the player to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// The result, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.map(|reason| Outcome {
            reason,
            places: self
                .variant
                .seats()
                .iter()
                .map(|&c| (c, self.places[c.index()]))
                .collect(),
        })
    }

    /// Number of `colour`'s marbles inside its goal.
    pub fn marbles_in_goal(&self, colour: Colour) -> u32 {
        (self.boards[colour.index()] & self.variant.goal(colour)).count()
    }

    /// Sum over `colour`'s marbles of the distance in steps to the nearest goal hole.
    pub fn distance_to_goal(&self, colour: Colour) -> u32 {
        let fifteen = self.variant.marbles() == 15;
        self.boards[colour.index()]
            .iter()
            .map(|h| distance_to_home_of(colour.opposite(), fifteen, h))
            .sum()
    }

    /// The move-generation context of `colour`.
    #[inline]
    pub fn context(&self, colour: Colour) -> MoveContext {
        let goal = self.variant.goal(colour);
        MoveContext {
            occupied: self.occupied,
            allowed: self.variant.allowed_ends(colour),
            goal,
            swap_targets: if self.variant.masters_swap() {
                goal & self.occupied & !self.boards[colour.index()]
            } else {
                Bitboard::EMPTY
            },
            rule: self.variant.jump_rule(),
        }
    }

    /// The legal moves of the player to move (none once the game has ended).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        if self.ended.is_none() {
            self.for_each_move_of(self.turn, |m| out.push(m));
        }
        out
    }

    /// Calls `f` with every move `colour` could make here, whoever is to move.
    pub fn for_each_move_of(&self, colour: Colour, mut f: impl FnMut(Move)) {
        let ctx = self.context(colour);
        for from in self.boards[colour.index()] {
            movegen::for_each_marble_move(&ctx, from, &mut f);
        }
    }

    /// Number of legal moves of the player to move.
    pub fn count_moves(&self) -> u64 {
        if self.ended.is_some() {
            return 0;
        }
        let ctx = self.context(self.turn);
        self.boards[self.turn.index()]
            .iter()
            .map(|from| movegen::count_marble_moves(&ctx, from) as u64)
            .sum()
    }

    /// Whether `colour` has at least one move.
    pub fn has_move(&self, colour: Colour) -> bool {
        let mine = self.boards[colour.index()];
        // A step of any marble answers without searching a jump flood,
        // nor making the whole move context: a marble may step to a free
        // hole where a move may end, inside its goal only if it is there.
        let goal = self.variant.goal(colour);
        let free = self.variant.allowed_ends(colour) & !self.occupied;
        if mine.any_hole(|from| movegen::has_step_to(from, free, goal)) {
            return true;
        }
        let ctx = self.context(colour);
        mine.any_hole(|from| movegen::marble_has_move(&ctx, from))
    }

    /// Whether `mv` is a legal move of the player to move.
    pub fn is_legal(&self, mv: &Move) -> bool {
        if self.ended.is_some() || !self.boards[self.turn.index()].contains(mv.from) {
            return false;
        }
        let mut found = false;
        let ctx = self.context(self.turn);
        movegen::for_each_marble_move(&ctx, mv.from, |m| found |= m == *mv);
        found
    }

    /// Whether playing `mv` would eliminate its player: after the deadline a
    /// move that brings a marble from outside its home back into it does
    /// (docs/rules.md §5). A table should ask for confirmation before playing it.
    ///
    /// A marble that starts the move inside its home after the deadline has
    /// never left it: the deadline check excused it because it was walled in
    /// (otherwise its player would already be out), and it may move inside the
    /// home while it works its way out.
    pub fn would_eliminate(&self, mv: &Move) -> bool {
        let c = self.turn;
        let home = self.variant.home(c);
        self.made[c.index()] >= self.variant.deadline()
            && home.contains(mv.to)
            && !home.contains(mv.from)
    }

    /// Checks a written path against this position and returns the move it
    /// makes, or why it is illegal. Accepts any valid path, not only the canonical one.
    pub fn resolve_path(&self, path: &MovePath) -> Result<Move, IllegalMove> {
        crate::path_check::resolve(self, path)
    }

    /// The canonical path of a legal move: the shortest, ties broken by the
    /// order the generator finds them.
    pub fn path_of(&self, mv: &Move) -> MovePath {
        crate::path_check::canonical_path(self, mv)
    }

    /// Plays a legal move after checking it.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether `mv` may be played now, and if not, why.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.ended.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.is_legal(mv) {
            return Ok(());
        }
        // Re-derive a precise reason from the direct path.
        self.resolve_path(&MovePath::new(vec![mv.from, mv.to]))?;
        Err(IllegalMove::NotAJump {
            from: mv.from,
            to: mv.to,
        })
    }

    /// Plays a written path after checking it; returns the move it made.
    pub fn play_path(&mut self, path: &MovePath) -> Result<Move, IllegalMove> {
        let mv = self.resolve_path(path)?;
        self.play_unchecked(&mv);
        Ok(mv)
    }

    #[inline]
    fn put(&mut self, c: Colour, h: crate::Hole) {
        self.boards[c.index()] = self.boards[c.index()].with(h);
        self.occupied = self.occupied.with(h);
        self.hash ^= MARBLE_KEYS[c.index()][h.index()];
    }

    #[inline]
    fn take(&mut self, c: Colour, h: crate::Hole) {
        self.boards[c.index()] = self.boards[c.index()].without(h);
        self.occupied = self.occupied.without(h);
        self.hash ^= MARBLE_KEYS[c.index()][h.index()];
    }

    fn set_turn(&mut self, c: Colour) {
        self.hash ^= TURN_KEYS[self.turn.index()] ^ TURN_KEYS[c.index()];
        self.turn = c;
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and
    /// applies every rule that follows it: deadline, elimination, arrivals,
    /// places, turn order, round limit, blocked players.
    pub fn play_unchecked(&mut self, mv: &Move) {
        let me = self.turn;
        let goes_back_home = self.would_eliminate(mv);
        if let Some(back) = mv.swap {
            let owner = self.colour_on(mv.to).expect("a swap target holds a marble");
            self.take(me, mv.from);
            self.take(owner, mv.to);
            self.put(owner, back);
            self.put(me, mv.to);
        } else {
            self.take(me, mv.from);
            self.put(me, mv.to);
        }
        let before = self.made[me.index()];
        self.made[me.index()] = before + 1;
        let eliminated =
            goes_back_home || (before + 1 == self.variant.deadline() && self.breaks_deadline(me));
        if eliminated {
            self.eliminate(me);
        }
        if self.ended.is_none() {
            self.record_arrivals(me);
        }
        if self.ended.is_none() {
            self.advance(me);
        }
    }

    /// Whether `colour` breaks the home-leaving deadline: a marble still at
    /// home that is not walled in. A marble is excused only when other marbles
    /// block every way out: no chain of steps over empty holes and no move of
    /// its own leads outside the home (docs/rules.md §5; see docs/rules.md).
    fn breaks_deadline(&self, colour: Colour) -> bool {
        let home = self.variant.home(colour);
        let ctx = self.context(colour);
        let empty = !self.occupied;
        (self.boards[colour.index()] & home).iter().any(|from| {
            let mut escapes = false;
            movegen::for_each_marble_move(&ctx, from, |m| escapes |= !home.contains(m.to));
            let mut seen = crate::Bitboard::from_hole(from);
            let mut todo = seen;
            while !escapes {
                let Some(p) = todo.first() else { break };
                todo = todo.without(p);
                for n in neighbours(p) & empty & !seen {
                    if !home.contains(n) {
                        escapes = true;
                    }
                    seen = seen.with(n);
                    todo = todo.with(n);
                }
            }
            escapes
        })
    }

    fn arrived_now(&self, c: Colour) -> bool {
        let goal = self.variant.goal(c);
        let mine = self.boards[c.index()];
        if mine.is_empty() {
            return false;
        }
        mine.is_subset(goal)
            || (self.made[c.index()] >= self.variant.deadline()
                && goal.is_subset(self.occupied)
                && !(mine & goal).is_empty())
    }

    fn unit_of(&self, c: Colour) -> Vec<Colour> {
        match self.variant.partner(c) {
            Some(p) => vec![c, p],
            None => vec![c],
        }
    }

    fn units(&self) -> Vec<Vec<Colour>> {
        self.variant.teams()
    }

    fn taken_places(&self) -> Vec<u8> {
        self.units()
            .iter()
            .map(|u| self.places[u[0].index()])
            .filter(|&p| p > 0)
            .collect()
    }

    fn best_free_place(&self) -> u8 {
        let taken = self.taken_places();
        (1..=self.variant.unit_count() as u8)
            .find(|p| !taken.contains(p))
            .unwrap_or(1)
    }

    fn worst_free_place(&self) -> u8 {
        let taken = self.taken_places();
        (1..=self.variant.unit_count() as u8)
            .rev()
            .find(|p| !taken.contains(p))
            .unwrap_or(1)
    }

    fn set_unit_place(&mut self, unit: &[Colour], place: u8) {
        for &c in unit {
            self.places[c.index()] = place;
        }
    }

    /// How many units have no place yet, as `unplaced_units().len()` but
    /// without building them: it is asked after every move. A team is
    /// counted by its first colour (white, red, blue: the lower indices).
    fn unplaced_unit_count(&self) -> usize {
        let seats = self.variant.seat_mask();
        let firsts = if self.variant.has_teams() {
            seats & 0b111
        } else {
            seats
        };
        // One bit per colour with a place, over the six at once.
        let placed = self
            .places
            .iter()
            .enumerate()
            .fold(0u8, |m, (i, &p)| m | u8::from(p != 0) << i);
        (firsts & !placed).count_ones() as usize
    }

    fn unplaced_units(&self) -> Vec<Vec<Colour>> {
        self.units()
            .into_iter()
            .filter(|u| self.places[u[0].index()] == 0)
            .collect()
    }

    fn eliminate(&mut self, c: Colour) {
        let unit = self.unit_of(c);
        let units = self.variant.unit_count();
        if units <= 2 {
            for &m in &unit {
                self.out |= bit(m);
            }
            let place = self.worst_free_place();
            self.set_unit_place(&unit, place);
            self.finish(EndReason::Eliminated);
            return;
        }
        let place = self.worst_free_place();
        for &m in &unit {
            self.out |= bit(m);
            for h in self.boards[m.index()] {
                self.take(m, h);
            }
        }
        self.set_unit_place(&unit, place);
        if self.unplaced_unit_count() <= 1 {
            self.finish(EndReason::Eliminated);
        }
    }

    fn record_arrivals(&mut self, mover: Colour) {
        let seats = self.variant.seats();
        // The colours still playing that arrive now, in any order: whether
        // one arrives does not depend on the others' arrivals.
        let playing = self.variant.seat_mask() & !(self.arrived | self.out);
        let mut newly = 0u8;
        for c in Colour::ALL {
            if playing & bit(c) != 0 && self.arrived_now(c) {
                newly |= bit(c);
            }
        }
        self.arrived |= newly;
        if seats.len() == 2 {
            // Two players: white's arrival waits for black's move of the round (§6).
            let (first, second) = (seats[0], seats[1]);
            let any = self.arrived & (bit(first) | bit(second)) != 0;
            if any && (mover == second || self.has_arrived(second)) {
                if self.has_arrived(first) && self.has_arrived(second) {
                    self.places[first.index()] = 1;
                    self.places[second.index()] = 1;
                } else if self.has_arrived(first) {
                    self.places[first.index()] = 1;
                    self.places[second.index()] = 2;
                } else {
                    self.places[second.index()] = 1;
                    self.places[first.index()] = 2;
                }
                self.ended = Some(EndReason::Arrived);
            }
            return;
        }
        if newly != 0 {
            self.place_arrived_units(mover, newly);
        }
        let unplaced = self.unplaced_unit_count();
        // The game ends when at most one unit is left to place (or, alone at
        // the board as in the solitaire, when that one has arrived).
        if unplaced == 0 || (unplaced == 1 && self.variant.unit_count() > 1) {
            if let Some(last) = self.unplaced_units().first() {
                let place = self.best_free_place();
                self.set_unit_place(last, place);
            }
            self.ended = Some(EndReason::Arrived);
        }
    }

    /// Gives the best free places to the units completed by the colours
    /// of `newly` (one bit per colour) that arrived with `mover`'s move,
    /// taken from the mover's seat on, wrapping round.
    fn place_arrived_units(&mut self, mover: Colour, newly: u8) {
        let seats = self.variant.seats();
        let i = seats.iter().position(|&c| c == mover).unwrap_or(0);
        for &c in seats[i..].iter().chain(&seats[..i]) {
            if newly & bit(c) == 0 {
                continue;
            }
            let unit = self.unit_of(c);
            if unit.iter().all(|&m| self.has_arrived(m)) && self.places[c.index()] == 0 {
                let place = self.best_free_place();
                self.set_unit_place(&unit, place);
            }
        }
    }

    /// Passes the turn to the next player who can move; ends the game at the
    /// round limit or when nobody can move.
    fn advance(&mut self, mover: Colour) {
        let seats = self.variant.seats();
        let n = seats.len();
        let mut i = seats.iter().position(|&c| c == mover).unwrap_or(0);
        let mut round = self.round;
        for _ in 0..n {
            i = if i + 1 == n { 0 } else { i + 1 };
            if i == 0 {
                round += 1;
                if round > ROUND_LIMIT {
                    self.round = ROUND_LIMIT;
                    self.finish(EndReason::RoundLimit);
                    return;
                }
            }
            let c = seats[i];
            if self.is_active(c) && self.has_move(c) {
                self.round = round;
                self.set_turn(c);
                return;
            }
        }
        self.round = round.min(ROUND_LIMIT);
        if n == 2 && self.arrived != 0 {
            // White arrived and black cannot make its equalising move.
            let first = seats[0];
            self.places[first.index()] = 1;
            self.places[seats[1].index()] = 2;
            self.ended = Some(EndReason::Arrived);
            return;
        }
        self.finish(EndReason::NoMoves);
    }

    /// Ends the game: units that arrived but have no place take the best
    /// places, the rest are placed by marbles in goal, then by distance (§7).
    fn finish(&mut self, reason: EndReason) {
        let mut unplaced = self.unplaced_units();
        unplaced.sort_by_key(|u| u.iter().any(|&c| !self.has_arrived(c)));
        let (arrived, rest): (Vec<_>, Vec<_>) = unplaced
            .into_iter()
            .partition(|u| u.iter().all(|&c| self.has_arrived(c)));
        for u in arrived {
            let p = self.best_free_place();
            self.set_unit_place(&u, p);
        }
        self.place_by_progress(rest);
        self.ended = Some(reason);
    }

    fn place_by_progress(&mut self, mut rest: Vec<Vec<Colour>>) {
        let score = |pos: &Position, u: &Vec<Colour>| {
            let in_goal: u32 = u.iter().map(|&c| pos.marbles_in_goal(c)).sum();
            let dist: u32 = u.iter().map(|&c| pos.distance_to_goal(c)).sum();
            (std::cmp::Reverse(in_goal), dist)
        };
        rest.sort_by_key(|u| score(self, u));
        let base = self.best_free_place();
        let mut prev = None;
        let mut prev_place = base;
        for (k, u) in rest.iter().enumerate() {
            let s = score(self, u);
            let place = if prev == Some(s) {
                prev_place
            } else {
                base + k as u8
            };
            prev = Some(s);
            prev_place = place;
            self.set_unit_place(u, place);
        }
    }

    /// `colour` resigns (or, with `timeout`, runs out of time): the game ends
    /// for everyone. The player's unit is last, arrived players keep their
    /// places, the others are placed by marbles in goal then distance (§8). Only a
    /// player still in the game can concede: an arrived or eliminated colour gets
    /// [`IllegalMove::NotInGame`] and nothing changes.
    pub fn concede(&mut self, colour: Colour, timeout: bool) -> Result<(), IllegalMove> {
        if self.ended.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.is_active(colour) {
            return Err(IllegalMove::NotInGame(colour));
        }
        let reason = if timeout {
            EndReason::TimeForfeit(colour)
        } else {
            EndReason::Resigned(colour)
        };
        let unit = self.unit_of(colour);
        if self.places[colour.index()] == 0 {
            let worst = self.worst_free_place();
            self.set_unit_place(&unit, worst);
        }
        self.finish(reason);
        Ok(())
    }

    /// Ends a game by threefold repetition, placing the unfinished players (§7).
    pub fn end_by_repetition(&mut self) {
        if self.ended.is_none() {
            self.finish(EndReason::Repetition);
        }
    }

    /// Whether `mv` moves a marble next door (a step) rather than jumping.
    pub fn is_step(&self, mv: &Move) -> bool {
        neighbours(mv.from).contains(mv.to) && (mv.swap.is_none() || mv.swap == Some(mv.from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nobody_can_move_ends_the_game() {
        // White's lone marble on red's tip e5 cannot move; black has none left.
        let mut p: Position = "classic-2 white 3 white:e5 black:".parse().unwrap();
        p.advance(Colour::White);
        assert_eq!(p.outcome().map(|o| o.reason), Some(EndReason::NoMoves));
    }

    #[test]
    fn unplaced_units_are_counted_as_they_are_built() {
        for variant in [
            Variant::Classic3,
            Variant::Classic6,
            Variant::Pairs3x2,
            Variant::Solo,
        ] {
            let mut p = Position::start(variant);
            assert_eq!(p.unplaced_unit_count(), p.unplaced_units().len());
            for (i, &c) in variant.seats().iter().enumerate() {
                let unit = p.unit_of(c);
                p.set_unit_place(&unit, i as u8 + 1);
                assert_eq!(
                    p.unplaced_unit_count(),
                    p.unplaced_units().len(),
                    "{variant}"
                );
            }
            assert_eq!(p.unplaced_unit_count(), 0);
        }
    }
}
