//! A small seeded pseudo-random generator (SplitMix64): the same seed gives
//! the same sequence on every platform, so play is deterministic given a seed.

/// SplitMix64's increment of the state per draw.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function of a state.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64's first output from the state `x`: a well-mixed 64-bit hash
/// of `x`, for keys and tie-breaks that need no generator.
#[inline]
pub(crate) fn hash64(x: u64) -> u64 {
    mix(x.wrapping_add(GAMMA))
}

/// Seeded noise of the position (or position and unit) hashed to `hash`: a
/// number in `-amplitude..=amplitude`, the same for the same hash and seed,
/// added to evaluations to weaken the lower levels; 0 when `amplitude` is 0.
pub(crate) fn seeded_noise(hash: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude == 0 {
        return 0;
    }
    let mut z = hash ^ seed.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^= z >> 29;
    (z % (2 * amplitude as u64 + 1)) as i32 - amplitude
}

/// SplitMix64: 64-bit state, one multiply-xorshift mix per output.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5EED_5EED_1234_5678)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_fixes_the_sequence_and_another_seed_changes_it() {
        let draws = |seed| {
            let mut rng = Rng::new(seed);
            (0..10).map(|_| rng.next_u64()).collect::<Vec<u64>>()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
        let mut rng = Rng::new(4);
        for _ in 0..1000 {
            assert!(rng.below(10) < 10);
            assert!((0.0..1.0).contains(&rng.unit()));
        }
    }

    #[test]
    fn the_hash_is_the_first_draw_from_its_state() {
        for x in [0, 1, 0x5EED_5EED_1234_5678, u64::MAX] {
            let mut rng = Rng(x);
            assert_eq!(hash64(x), rng.next_u64());
        }
    }
}
