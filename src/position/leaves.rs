//! Perft's last two plies ([`Position::count_after`]): the number of legal moves after a move,
//! without making it, from bit sets of holes: the opponent will have the holes they have, plus
//! the empty ones the run reaches, less a captured landing hole, unless a kazan passes the win
//! line.

use super::packed::Run;
use super::{NO_TUZDIK, Position};

/// Perft's view of a position for its last two plies (see [`Position::leaves`]).
pub(crate) struct Leaves {
    /// The legal moves ([`Position::legal_mask`]).
    pub moves: u16,
    /// Ring-index bits of the opponent's empty holes, less the mover's tuzdik.
    empty_theirs: u32,
    /// The opponent's non-empty holes.
    occupied: u32,
    /// Ring-index bit of each player's tuzdik (0 for none).
    tuzdik_bits: [u32; 2],
    /// [`Position::tuzdik_targets`].
    tuzdik_targets: u32,
    /// [`Position::capturable`].
    capturable: u32,
    /// The kazans biased for [`Position::decided_biased`].
    kazans_biased: u16,
}

/// Set bits of every 9-bit number (x86-64's baseline has no popcount instruction).
static POPCOUNT_9: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        table[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    table
};

impl Position {
    /// What perft's last two plies need to know about this position, worked out once for all
    /// its moves.
    #[inline(always)]
    pub(crate) fn leaves<const N: usize>(&self) -> Leaves {
        let mover = self.side.index();
        let theirs = 1 - mover;
        let bits = self.wide::<N>().nonzero_bits();
        let row = (1 << N) - 1;
        let occupied = (bits >> (theirs * N)) & row;
        let moves = if Self::decided::<N>(self.kazans) {
            0
        } else {
            ((bits >> (mover * N)) & row) as u16
        };
        let mut tuzdik_bits = [0u32; 2];
        for (owner, bit) in tuzdik_bits.iter_mut().enumerate() {
            let square = self.tuzdiks[owner];
            if square != NO_TUZDIK {
                *bit = 1 << square;
            }
        }
        // The mover's tuzdik is on the opponent's row, empty, and stays so.
        let empty = !occupied & row;
        Leaves {
            moves,
            tuzdik_targets: self.tuzdik_targets::<N>(),
            capturable: self.capturable::<N>(),
            kazans_biased: u16::from_le_bytes(self.kazans).wrapping_add(Self::kazan_bias::<N>()),
            empty_theirs: (empty << (theirs * N)) & !tuzdik_bits[mover],
            occupied: POPCOUNT_9[occupied as usize].into(),
            tuzdik_bits,
        }
    }

    /// The number of legal moves after playing ring index `origin` (a legal move), without
    /// making the move: perft's last two plies. `leaves` is [`leaves`](Self::leaves).
    ///
    /// Works on bit sets of holes rather than on counts: the opponent then has the holes they
    /// had, plus the empty ones the run reached, less a captured landing hole.
    #[inline(always)]
    pub(crate) fn count_after<const N: usize, const STANDARD: bool>(
        &self,
        leaves: &Leaves,
        origin: usize,
    ) -> u32 {
        let Some(Run {
            last, bits: run, ..
        }) = self.run::<N, STANDARD>(origin)
        else {
            let mut child = *self;
            child.sow_general::<false>(origin);
            return child.legal_count_n::<N>();
        };
        let theirs = 1 - self.side.index();
        let reached = (leaves.empty_theirs & run) >> (theirs * N);

        let mut kazans = leaves.kazans_biased;
        for owner in 0..2 {
            kazans += u16::from(run & leaves.tuzdik_bits[owner] != 0) << (8 * owner);
        }
        let (captured, _) =
            self.landing::<N, STANDARD>(last, leaves.capturable, leaves.tuzdik_targets);
        kazans += u16::from(captured) << (8 * (1 - theirs));
        if Self::decided_biased(kazans) {
            return 0;
        }
        leaves.occupied + u32::from(POPCOUNT_9[reached as usize & 511]) - u32::from(captured != 0)
    }
}
