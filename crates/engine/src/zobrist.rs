//! Zobrist keys for hashing positions (board and player to move).

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_marble_keys() -> [[u64; 121]; 6] {
    let mut out = [[0u64; 121]; 6];
    let mut c = 0;
    while c < 6 {
        let mut h = 0;
        while h < 121 {
            out[c][h] = splitmix(
                ((c * 121 + h) as u64)
                    .wrapping_mul(0x1234_5678_9ABC_DEF1)
                    .wrapping_add(7),
            );
            h += 1;
        }
        c += 1;
    }
    out
}

const fn build_turn_keys() -> [u64; 6] {
    let mut out = [0u64; 6];
    let mut c = 0;
    while c < 6 {
        out[c] = splitmix(
            (c as u64)
                .wrapping_mul(0x9E37)
                .wrapping_add(0xDEAD_BEEF_0000),
        );
        c += 1;
    }
    out
}

/// Key of a marble of colour index `c` on hole index `h`.
pub const MARBLE_KEYS: [[u64; 121]; 6] = build_marble_keys();
/// Key of colour index `c` being to move.
pub const TURN_KEYS: [u64; 6] = build_turn_keys();
