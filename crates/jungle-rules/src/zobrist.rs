//! Random keys for Zobrist hashing, fixed at compile time so that hashes are stable across runs
//! and machines (an engine's opening book or a server's repetition table may store them).

use crate::{Animal, Side, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const PIECE_SQUARE_KEYS: [[[u64; Square::COUNT]; 8]; 2] = {
    let mut keys = [[[0; Square::COUNT]; 8]; 2];
    let mut state = 0x4a75_6e67_6c65_u64; // "Jungle"
    let mut side = 0;
    while side < 2 {
        let mut animal = 0;
        while animal < 8 {
            let mut sq = 0;
            while sq < Square::COUNT {
                let (next, key) = splitmix64(state);
                state = next;
                keys[side][animal][sq] = key;
                sq += 1;
            }
            animal += 1;
        }
        side += 1;
    }
    keys
};

/// Mixed in when Blue is to move.
pub(crate) const BLUE_TO_MOVE: u64 = splitmix64(0x5349_4445).1;

#[inline]
pub(crate) fn piece_key(side: Side, animal: Animal, sq: Square) -> u64 {
    PIECE_SQUARE_KEYS[side.index()][animal.index()][sq.index()]
}
