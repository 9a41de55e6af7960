//! The packed board: the ring's hole counts held in registers ([`Wide`]), read as words by
//! the evaluation and the move scan ([`Words`]), the constant tables of each row length
//! ([`RingTables`], the sowing runs among them) and the one dispatch from a variant to its row
//! length ([`with_row_len`]).
//!
//! A run of `len` single stones from ring index `start` is `prefix[start + len] -
//! prefix[start]`, where `prefix[k]` holds, in byte `j`, how many of the ring indices `0..k`
//! (taken modulo 2N) equal `j`. No byte ever carries into the next (a hole holds at most 162
//! stones), so the byte lanes stay independent.

use super::Position;

/// Calls `$body` with the const `$n` bound to the row length of `$variant`, and with a third
/// name, the const `$mangala` bound to whether it is Mangala IV (whose relay sowing has a make
/// and a scan of its own, on rows of 7): the one place a variant's geometry becomes a
/// compile-time constant.
macro_rules! with_row_len {
    ($variant:expr, $n:ident => $body:expr) => {
        $crate::position::with_row_len!($variant, $n, _MANGALA => $body)
    };
    ($variant:expr, $n:ident, $mangala:ident => $body:expr) => {
        match $variant.family() {
            $crate::variant::Family::Togyz => {
                const $n: usize = 9;
                const $mangala: bool = false;
                $body
            }
            $crate::variant::Family::Kozdatu => {
                const $n: usize = 7;
                const $mangala: bool = false;
                $body
            }
            $crate::variant::Family::Bestemshchi => {
                const $n: usize = 5;
                const $mangala: bool = false;
                $body
            }
            // Mangala IV's make is position/mangala.rs's; the fast paths for row length N
            // route it there before using N.
            $crate::variant::Family::Mangala4 => {
                const $n: usize = 7;
                const $mangala: bool = true;
                $body
            }
        }
    };
}
pub(crate) use with_row_len;

/// The ring's hole counts in registers: ring index `i` is byte `i` (little-endian) of `lo` for
/// `i < 16` and byte `i - 16` of `hi` otherwise. Rings shorter than 17 holes leave `hi` 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide {
    lo: u128,
    hi: u16,
}

/// The ring's hole counts as three words: byte `i` of the ring is byte `i % 8` of word `i / 8`
/// (bytes past the ring are 0): the packed board as the evaluation and the move scan read it,
/// made from the make's only by [`ring_words`](super::gains::ring_words).
pub type Words = [u64; 3];

/// 0x01 in every byte of a word.
pub(crate) const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// 0x7f in every byte of a word.
const LOW7: u64 = u64::from_le_bytes([0x7f; 8]);

/// 1 in every byte of `x` that is 0, 0 in the others.
#[inline(always)]
pub(crate) const fn zero_bytes(x: u64) -> u64 {
    !((((x & LOW7) + LOW7) | x) >> 7) & ONES
}

/// [`LOW7`] and [`ONES`] over a [`Wide`]'s 16 low bytes.
const WIDE_LOW7: u128 = u128::from_le_bytes([0x7f; 16]);
const WIDE_ONES: u128 = u128::from_le_bytes([0x01; 16]);

impl Wide {
    const ZERO: Wide = Wide { lo: 0, hi: 0 };

    /// `value` in byte `index`, 0 elsewhere.
    const fn byte(index: usize, value: u8) -> Wide {
        if index < 16 {
            Wide {
                lo: (value as u128) << (8 * index),
                hi: 0,
            }
        } else {
            Wide {
                lo: 0,
                hi: (value as u16) << (8 * (index - 16)),
            }
        }
    }

    /// Lane-wise sum (no lane may overflow).
    #[inline(always)]
    pub(super) const fn add(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo.wrapping_add(other.lo),
            hi: self.hi.wrapping_add(other.hi),
        }
    }

    /// Lane-wise difference (no lane may underflow).
    #[inline(always)]
    pub(super) const fn sub(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo.wrapping_sub(other.lo),
            hi: self.hi.wrapping_sub(other.hi),
        }
    }

    /// Every lane times `k` (no lane may overflow).
    #[inline(always)]
    pub(super) const fn times(self, k: u8) -> Wide {
        Wide {
            lo: self.lo.wrapping_mul(k as u128),
            hi: self.hi.wrapping_mul(k as u16),
        }
    }

    /// Byte `index`.
    #[inline(always)]
    pub(super) const fn get(self, index: usize) -> u8 {
        if index < 16 {
            (self.lo >> (8 * index)) as u8
        } else {
            (self.hi >> (8 * (index - 16))) as u8
        }
    }

    /// `self` when `keep`, else 0 (without a branch).
    #[inline(always)]
    pub(super) const fn only_if(self, keep: bool) -> Wide {
        Wide {
            lo: self.lo & 0u128.wrapping_sub(keep as u128),
            hi: self.hi & 0u16.wrapping_sub(keep as u16),
        }
    }

    /// `self` with the bits of `mask` cleared.
    #[inline(always)]
    pub(super) const fn clear(self, mask: Wide) -> Wide {
        Wide {
            lo: self.lo & !mask.lo,
            hi: self.hi & !mask.hi,
        }
    }

    /// 1 in every byte that is not 0, 0 in the others.
    #[inline(always)]
    const fn nonzero(self) -> Wide {
        const LOW7_16: u16 = 0x7f7f;
        const ONES_16: u16 = 0x0101;
        Wide {
            lo: ((((self.lo & WIDE_LOW7).wrapping_add(WIDE_LOW7)) | self.lo) >> 7) & WIDE_ONES,
            hi: ((((self.hi & LOW7_16).wrapping_add(LOW7_16)) | self.hi) >> 7) & ONES_16,
        }
    }

    /// Bit `i` set when byte `i` is not 0.
    #[inline(always)]
    pub(super) const fn nonzero_bits(self) -> u32 {
        // Eight 0/1 bytes gather into eight bits with one multiplication: every partial
        // product lands on a bit of its own, so nothing carries.
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let flags = self.nonzero();
        let low = ((flags.lo as u64).wrapping_mul(GATHER) >> 56) as u32;
        let high = (((flags.lo >> 64) as u64).wrapping_mul(GATHER) >> 56) as u32;
        let top = (flags.hi as u32 & 1) | ((flags.hi as u32 >> 7) & 2);
        low | (high << 8) | (top << 16)
    }

    /// The same counts as [`Words`].
    #[inline(always)]
    pub(super) const fn words(self) -> Words {
        [self.lo as u64, (self.lo >> 64) as u64, self.hi as u64]
    }

    /// The sum of all bytes, each of which must be 0 or 1.
    #[inline(always)]
    const fn sum_of_flags(self) -> u32 {
        let folded = (self.lo as u64) + ((self.lo >> 64) as u64) + self.hi as u64;
        (folded.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }
}

/// Constant tables for one row length `N` (ring of `2N`).
pub(super) struct RingTables {
    /// `prefix[k]`, byte `j`: how many of `0..k` are `j` modulo the ring length (`k < 2R`).
    pub(super) prefix: [Wide; 2 * MAX_N * 2],
    /// 0xff in byte `i` (`i < 2R`).
    pub(super) byte: [Wide; 2 * MAX_N],
    /// 1 in every byte of South's row (`[0]`) or North's (`[1]`).
    pub(super) row: [Wide; 2],
    /// `runs[skip][origin][stones]`: the run of single stones sown from ring index `origin`
    /// holding `stones` (standard sowing, or skip-origin when `skip` is 1), packed as
    /// [`Run::unpack`] reads it, for the counts the fast make and the move scan take: up to
    /// 2N - 2 stones a sowing touches each hole at most once and never the origin twice, so
    /// the landing hole gets exactly one stone. Other counts (none, and longer sowings) are
    /// [`UNPREDICTED`].
    pub(super) runs: [[[u32; 2 * MAX_N]; 2 * MAX_N]; 2],
}

/// The longest row.
pub(super) const MAX_N: usize = 9;

const fn ring_tables(n: usize) -> RingTables {
    let ring = 2 * n;
    let mut g = RingTables {
        prefix: [Wide::ZERO; 2 * MAX_N * 2],
        byte: [Wide::ZERO; 2 * MAX_N],
        row: [Wide::ZERO; 2],
        runs: [[[NO_RUN; 2 * MAX_N]; 2 * MAX_N]; 2],
    };
    let mut k = 1;
    while k < 2 * MAX_N * 2 {
        g.prefix[k] = g.prefix[k - 1].add(Wide::byte((k - 1) % ring, 1));
        k += 1;
    }
    let mut i = 0;
    while i < ring {
        g.byte[i] = Wide::byte(i, 0xff);
        let side = i / n;
        g.row[side] = g.row[side].add(Wide::byte(i, 1));
        i += 1;
    }
    let mut skip = 0;
    while skip < 2 {
        let mut origin = 0;
        while origin < ring {
            let mut stones = 1;
            while stones + 1 < ring {
                // Standard sowing puts the first of several stones back into the origin; a
                // single stone, and every skip-origin sowing, starts at the next hole.
                let start = if stones == 1 || skip == 1 {
                    (origin + 1) % ring
                } else {
                    origin
                };
                let last = (start + stones - 1) % ring;
                let mut bits = 0u32;
                let mut k = 0;
                while k < stones {
                    bits |= 1 << ((start + k) % ring);
                    k += 1;
                }
                g.runs[skip][origin][stones] =
                    bits | ((last as u32) << RUN_LAST) | ((start as u32) << RUN_START);
                stones += 1;
            }
            origin += 1;
        }
        skip += 1;
    }
    g
}

/// Where a [`RingTables::runs`] entry keeps the last hole (5 bits) and the first; the holes
/// reached are its bits `0..RUN_LAST`.
pub(super) const RUN_LAST: u32 = 18;
const RUN_START: u32 = 23;
/// The flag of a [`RingTables::runs`] entry for no run: the move must be made another way.
pub(super) const UNPREDICTED: u32 = 1 << 31;
/// A [`RingTables::runs`] entry for no run: not predicted, and its last hole one past the ring,
/// so that what a landing there takes comes out 0 with no branch.
const NO_RUN: u32 = UNPREDICTED | 31 << RUN_LAST;

/// A run of single stones: `len` holes from ring index `start` (wrapping), the last stone in
/// `last`, the holes reached as ring-index bits.
#[derive(Clone, Copy)]
pub(super) struct Run {
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) last: usize,
    pub(super) bits: u32,
}

impl Run {
    #[inline(always)]
    pub(super) fn unpack(packed: u32, len: usize) -> Run {
        Run {
            start: (packed >> RUN_START) as usize & 31,
            len,
            last: (packed >> RUN_LAST) as usize & 31,
            bits: packed & ((1 << RUN_LAST) - 1),
        }
    }
}

static RING_TABLES_9: RingTables = ring_tables(9);
static RING_TABLES_7: RingTables = ring_tables(7);
static RING_TABLES_5: RingTables = ring_tables(5);

/// The tables for row length `N` (a constant choice once monomorphised).
#[inline(always)]
pub(super) fn tables<const N: usize>() -> &'static RingTables {
    match N {
        9 => &RING_TABLES_9,
        7 => &RING_TABLES_7,
        _ => &RING_TABLES_5,
    }
}

impl Position {
    /// The hole counts in registers (row length `N`).
    #[inline(always)]
    pub(crate) fn wide<const N: usize>(&self) -> Wide {
        let mut lo = [0u8; 16];
        lo.copy_from_slice(&self.holes[..16]);
        Wide {
            lo: u128::from_le_bytes(lo),
            hi: if 2 * N > 16 {
                u16::from_le_bytes([self.holes[16], self.holes[17]])
            } else {
                0
            },
        }
    }

    /// Writes hole counts back (row length `N`).
    #[inline(always)]
    pub(super) fn set_wide<const N: usize>(&mut self, ring: Wide) {
        self.holes[..16].copy_from_slice(&ring.lo.to_le_bytes());
        if 2 * N > 16 {
            self.holes[16..18].copy_from_slice(&ring.hi.to_le_bytes());
        }
    }

    /// Whether a kazan has passed the win line (rule 3a), for row length `N`.
    #[inline(always)]
    pub(crate) fn decided<const N: usize>(kazans: [u8; 2]) -> bool {
        Self::decided_biased(u16::from_le_bytes(kazans).wrapping_add(Self::kazan_bias::<N>()))
    }

    /// What [`decided_biased`](Self::decided_biased) adds to both kazans (as a `u16`, South's
    /// in the low byte): `128 - threshold` in each byte, so that a kazan has reached the
    /// threshold (half of the 2N * N stones, plus one) exactly when its byte's top bit is set.
    /// No byte overflows: a kazan holds at most 2N * N stones, and 2N * N + 128 - (N * N + 1)
    /// is below 256 for N <= 9.
    #[inline(always)]
    pub(crate) const fn kazan_bias<const N: usize>() -> u16 {
        let bias = (128 - (N * N + 1)) as u16;
        bias * 0x0101
    }

    /// Rule 3a on kazans already biased by [`kazan_bias`](Self::kazan_bias).
    #[inline(always)]
    pub(super) const fn decided_biased(biased: u16) -> bool {
        biased & 0x8080 != 0
    }

    /// Non-empty holes of `side`'s row in `ring` (a tuzdik holds 0, so it never counts).
    #[inline(always)]
    fn count_row<const N: usize>(ring: Wide, side: usize) -> u32 {
        let row = tables::<N>().row[side];
        let flags = ring.nonzero();
        Wide {
            lo: flags.lo & row.lo,
            hi: flags.hi & row.hi,
        }
        .sum_of_flags()
    }

    /// [`legal_count`](Self::legal_count) for row length `N`.
    #[inline(always)]
    pub(crate) fn legal_count_n<const N: usize>(&self) -> u32 {
        if Self::decided::<N>(self.kazans) {
            return 0;
        }
        Self::count_row::<N>(self.wide::<N>(), self.side.index())
    }

    /// [`legal_mask`](Self::legal_mask) for row length `N`.
    #[inline(always)]
    pub(crate) fn legal_mask_n<const N: usize>(&self) -> u16 {
        self.legal_mask_of::<N>(self.wide::<N>())
    }

    /// The legal moves, given the hole counts `ring` of this position already in registers.
    #[inline(always)]
    pub(super) fn legal_mask_of<const N: usize>(&self, ring: Wide) -> u16 {
        if Self::decided::<N>(self.kazans) {
            return 0;
        }
        Self::row_bits::<N>(ring, self.side.index())
    }

    /// Bit `h` set when hole `h + 1` of `side`'s row is not empty.
    #[inline(always)]
    fn row_bits<const N: usize>(ring: Wide, side: usize) -> u16 {
        ((ring.nonzero_bits() >> (side * N)) & ((1 << N) - 1)) as u16
    }
}
