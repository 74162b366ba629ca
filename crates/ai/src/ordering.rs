//! The alpha-beta search's move-ordering key: the transposition table's
//! move first, then the two killers, then rows gained, the rearmost marble
//! first, and the history heuristic. What a key reads that is the same for
//! every move of a node (the special moves, each mover's tables and history
//! rows) is looked up once per node ([`NodeOrder`]), not once per move.

use crate::tables::{tables, ColourTables};
use crate::tt::PackedMove;
use stella_engine::{Colour, Move};

/// Entries of the history table per colour: one per (from, to) pair.
pub(crate) const HISTORY_PER_COLOUR: usize = 121 * 121;

/// The history table's index of `m` played by `c`.
pub(crate) fn hist_index(c: Colour, m: &Move) -> usize {
    c.index() * HISTORY_PER_COLOUR + m.from.index() * 121 + m.to.index()
}

/// The ordering of one node's moves: its transposition-table move and
/// killers as packed codes.
pub(crate) struct NodeOrder {
    tt: u32,
    killers: [u32; 2],
    /// The starting holes of the table move and the killers, as two words
    /// of a board: a move from elsewhere is none of them.
    special_from: [u64; 2],
}

/// One mover's part of the ordering: its tables and its history row.
pub(crate) struct MoverOrder<'a> {
    tables: &'static ColourTables,
    history: &'a [i32],
}

impl<'a> MoverOrder<'a> {
    /// The part of `c`, whose history is in `history` (the whole table).
    pub(crate) fn of(c: Colour, history: &'a [i32]) -> MoverOrder<'a> {
        let start = c.index() * HISTORY_PER_COLOUR;
        MoverOrder {
            tables: tables(c),
            history: &history[start..start + HISTORY_PER_COLOUR],
        }
    }
}

impl NodeOrder {
    /// The ordering of a node whose table move is `tt_move` and whose
    /// killers are `killers`.
    pub(crate) fn new(tt_move: PackedMove, killers: [PackedMove; 2]) -> NodeOrder {
        let mut special_from = [0u64; 2];
        for m in [tt_move, killers[0], killers[1]] {
            if let Some(m) = m.unpack() {
                let i = m.from.index();
                special_from[i >> 6] |= 1 << (i & 63);
            }
        }
        NodeOrder {
            tt: tt_move.code(),
            killers: killers.map(PackedMove::code),
            special_from,
        }
    }

    /// The key of `m` (higher first): 2^28 for the table move, 2^26 and
    /// 2^26 − 1 for the killers, else 4096 per row gained plus 16 per row
    /// the marble still has to go plus its history (clamped to ±2000).
    #[inline]
    pub(crate) fn key(&self, mover: &MoverOrder, m: &Move) -> i32 {
        let (from, to) = (m.from.index(), m.to.index());
        if self.special_from[(from >> 6) & 1] >> (from & 63) & 1 != 0 {
            let p = PackedMove::pack(m).code();
            if p == self.tt {
                return 1 << 28;
            }
            if p == self.killers[0] {
                return 1 << 26;
            }
            if p == self.killers[1] {
                return (1 << 26) - 1;
            }
        }
        let rows = &mover.tables.rows_to_go;
        let gain = rows[from] as i32 - rows[to] as i32;
        gain * 4096 + rows[from] as i32 * 16 + mover.history[from * 121 + to].clamp(-2000, 2000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stella_engine::{Position, Variant};

    #[test]
    fn table_move_then_killers_then_rows_gained_then_history() {
        let pos = Position::start(Variant::Classic2);
        let moves = pos.legal_moves();
        let c = pos.turn();
        let mut history = vec![0; 6 * HISTORY_PER_COLOUR];
        let (a, b, k) = (moves[0], moves[1], moves[2]);
        history[hist_index(c, &moves[3])] = 5_000;
        let order = NodeOrder::new(
            PackedMove::pack(&a),
            [PackedMove::pack(&b), PackedMove::pack(&k)],
        );
        let mover = MoverOrder::of(c, &history);
        assert_eq!(order.key(&mover, &a), 1 << 28);
        assert_eq!(order.key(&mover, &b), 1 << 26);
        assert_eq!(order.key(&mover, &k), (1 << 26) - 1);
        let t = tables(c);
        let m = moves[3];
        let gain = t.rows_to_go[m.from.index()] as i32 - t.rows_to_go[m.to.index()] as i32;
        let expected = gain * 4096 + t.rows_to_go[m.from.index()] as i32 * 16 + 2000;
        assert_eq!(order.key(&mover, &m), expected);
        // Another move from a special move's hole gets its plain key.
        let specials = [a, b, k];
        let other = moves
            .iter()
            .find(|o| specials.iter().any(|s| s.from == o.from) && !specials.contains(o))
            .expect("a marble with several moves");
        assert!(order.key(&mover, other) < (1 << 26) - 1);
        // No table move and no killers: every move gets its plain key.
        let none = NodeOrder::new(PackedMove::NONE, [PackedMove::NONE; 2]);
        assert!(moves.iter().all(|m| none.key(&mover, m) < (1 << 26) - 1));
    }
}
