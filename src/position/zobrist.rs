//! Zobrist keys: one random number for every (hole, count), (kazan, count), tuzdik square,
//! variant and side to move, generated at compile time from a fixed seed so that keys are the
//! same in every build and on every machine.
//!
//! The hole tables have 256 entries so that a `u8` count indexes them without a bounds check.

use crate::rng::splitmix64;

/// Holes in the largest ring (Toguz Kumalak, 2x9).
pub(crate) const MAX_RING: usize = 18;

pub(crate) struct Tables {
    pub hole: [[u64; 256]; MAX_RING],
    /// `step[i][c] = hole[i][c] ^ hole[i][c + 1]`: the key change of one stone falling into
    /// hole `i` that held `c` (one load per sown stone instead of two). `step[i][255]` is 0.
    pub step: [[u64; 256]; MAX_RING],
    pub kazan: [[u64; 256]; 2],
    pub tuzdik: [[u64; MAX_RING]; 2],
    /// By [`Variant`](crate::Variant) code (six bits).
    pub variant: [u64; 64],
    pub north_to_move: u64,
}

const fn build() -> Tables {
    let mut tables = Tables {
        hole: [[0; 256]; MAX_RING],
        step: [[0; 256]; MAX_RING],
        kazan: [[0; 256]; 2],
        tuzdik: [[0; MAX_RING]; 2],
        variant: [0; 64],
        north_to_move: 0,
    };
    let mut state = 0x7475_7A64_696B_u64; // "tuzdik"
    let mut hole = 0;
    while hole < MAX_RING {
        // Count 0 keeps key 0 so that an empty board hashes like "nothing there".
        let mut count = 1;
        while count < 256 {
            let (next, value) = splitmix64(state);
            state = next;
            tables.hole[hole][count] = value;
            count += 1;
        }
        hole += 1;
    }
    let mut player = 0;
    while player < 2 {
        let mut count = 1;
        while count < 256 {
            let (next, value) = splitmix64(state);
            state = next;
            tables.kazan[player][count] = value;
            count += 1;
        }
        let mut square = 0;
        while square < MAX_RING {
            let (next, value) = splitmix64(state);
            state = next;
            tables.tuzdik[player][square] = value;
            square += 1;
        }
        player += 1;
    }
    let mut code = 0;
    while code < 32 {
        let (next, value) = splitmix64(state);
        state = next;
        tables.variant[code] = value;
        code += 1;
    }
    let (next, value) = splitmix64(state);
    state = next;
    tables.north_to_move = value;
    // Codes 32..64 (Mangala IV's free-choice switch) were added later: drawn after everything
    // else so that no earlier key changed.
    while code < 64 {
        let (next, value) = splitmix64(state);
        state = next;
        tables.variant[code] = value;
        code += 1;
    }
    let mut hole = 0;
    while hole < MAX_RING {
        let mut count = 0;
        while count < 255 {
            tables.step[hole][count] = tables.hole[hole][count] ^ tables.hole[hole][count + 1];
            count += 1;
        }
        hole += 1;
    }
    tables
}

pub(crate) static TABLES: Tables = build();

#[inline(always)]
pub(crate) fn hole(index: usize, count: u8) -> u64 {
    TABLES.hole[index][count as usize]
}

#[inline(always)]
pub(crate) fn kazan(player: usize, count: u8) -> u64 {
    TABLES.kazan[player][count as usize]
}
