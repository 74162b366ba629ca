//! The two passes over a node's children that choose one: the bounds of
//! their means, then the best score. Each pass keeps two running results,
//! one over the even places and one over the odd, so that two chains of
//! comparisons run side by side.

use super::node::Node;

/// The lowest and the highest mean in `block`, or the place of its first
/// unvisited node. Two running pairs, one over the even places and one
/// over the odd, halve the chain of dependent comparisons; the bounds are
/// those of one pass, since the least and the greatest do not depend on
/// the order.
pub(super) fn mean_bounds(block: &[Node]) -> Result<(f64, f64), usize> {
    let (mut lo0, mut hi0) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut lo1, mut hi1) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut pairs = block.chunks_exact(2);
    for (k, pair) in pairs.by_ref().enumerate() {
        let (a, b) = (&pair[0], &pair[1]);
        if a.visits == 0 {
            return Err(2 * k);
        }
        if b.visits == 0 {
            return Err(2 * k + 1);
        }
        // Means are never NaN: plain comparisons keep the bounds in
        // registers where `f64::min` would test for NaN.
        lo0 = if a.mean < lo0 { a.mean } else { lo0 };
        hi0 = if a.mean > hi0 { a.mean } else { hi0 };
        lo1 = if b.mean < lo1 { b.mean } else { lo1 };
        hi1 = if b.mean > hi1 { b.mean } else { hi1 };
    }
    if let [n] = pairs.remainder() {
        if n.visits == 0 {
            return Err(block.len() - 1);
        }
        lo0 = if n.mean < lo0 { n.mean } else { lo0 };
        hi0 = if n.mean > hi0 { n.mean } else { hi0 };
    }
    Ok((
        if lo1 < lo0 { lo1 } else { lo0 },
        if hi1 > hi0 { hi1 } else { hi0 },
    ))
}

/// The place in `block` of the first node with the highest `score`
/// (`None` when the block is empty or no score is a number). The even and
/// the odd places keep their own best, merged at the end (a tie to the
/// earlier place), so that two chains of comparisons run side by side;
/// the result is that of one pass in order.
pub(super) fn best_scored(block: &[Node], score: impl Fn(&Node) -> f64) -> Option<usize> {
    let (mut even, mut even_score) = (usize::MAX, f64::NEG_INFINITY);
    let (mut odd, mut odd_score) = (usize::MAX, f64::NEG_INFINITY);
    let mut pairs = block.chunks_exact(2);
    for (k, pair) in pairs.by_ref().enumerate() {
        let (a, b) = (score(&pair[0]), score(&pair[1]));
        if a > even_score {
            (even, even_score) = (2 * k, a);
        }
        if b > odd_score {
            (odd, odd_score) = (2 * k + 1, b);
        }
    }
    if let [n] = pairs.remainder() {
        let s = score(n);
        if s > even_score {
            (even, even_score) = (block.len() - 1, s);
        }
    }
    let best = if odd_score > even_score || (odd_score == even_score && odd < even) {
        odd
    } else {
        even
    };
    (best != usize::MAX).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use stella_engine::{Colour, Hole, Move};

    /// Blocks of every length up to 9 with means and visits drawn from a
    /// few values, so that ties and unvisited children occur.
    fn random_blocks() -> Vec<Vec<Node>> {
        let mut rng = Rng::new(5);
        let any = Hole::all().next().unwrap();
        let mut blocks = Vec::new();
        for len in 0..10 {
            for _ in 0..300 {
                let block = (0..len)
                    .map(|_| {
                        let mut n = Node::new(Move::new(any, any), Colour::ALL[0], 0);
                        n.visits = rng.below(6) as u32;
                        n.mean = rng.below(4) as f64 / 4.0;
                        n.inv_sqrt_visits = (rng.below(3) as f32 + 1.0).recip();
                        n
                    })
                    .collect();
                blocks.push(block);
            }
        }
        blocks
    }

    #[test]
    fn the_two_lane_passes_agree_with_one_pass_in_order() {
        for block in random_blocks() {
            let first_unvisited = block.iter().position(|n| n.visits == 0);
            let lo = block.iter().map(|n| n.mean).fold(f64::INFINITY, f64::min);
            let hi = block
                .iter()
                .map(|n| n.mean)
                .fold(f64::NEG_INFINITY, f64::max);
            let expected = first_unvisited.map_or(Ok((lo, hi)), Err);
            assert_eq!(mean_bounds(&block), expected, "{block:?}");

            let score = |n: &Node| n.mean + 0.5 * f64::from(n.inv_sqrt_visits);
            let mut best: Option<(usize, f64)> = None;
            for (k, n) in block.iter().enumerate() {
                if best.is_none_or(|(_, s)| score(n) > s) {
                    best = Some((k, score(n)));
                }
            }
            assert_eq!(best_scored(&block, score), best.map(|b| b.0), "{block:?}");
        }
    }
}
