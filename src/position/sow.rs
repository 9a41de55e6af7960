//! Making a move: sowing, tuzdik deposits, captures and tuzdik creation (RULES.md 1-2).
//!
//! Three ways to the same result, each checked against the others by the tests below:
//!
//! - **The register path** ([`Position::make`]), for every sowing that does not lap the ring
//!   (fewer stones than holes: almost every move of a real game). The 2N hole counts are held
//!   in two integers ([`Wide`]: bytes 0..16 in a `u128`, bytes 16..18 in a `u16`) and the whole
//!   sowing is one subtraction and two additions: a run of `len` single stones from ring index
//!   `start` is `prefix[start + len] - prefix[start]`, where `prefix[k]` holds, in byte `j`, how
//!   many of the ring indices `0..k` (taken modulo 2N) equal `j`. No byte ever carries into the
//!   next (a hole holds at most 162 stones), so the byte lanes stay independent. Captures and
//!   tuzdik deposits are byte masks; the landing count is read from the position before the
//!   move (the landing hole gets exactly one stone on this path), and whether it captures is
//!   worked out with arithmetic rather than branches, because it is a coin toss. The Zobrist
//!   key is updated with one table load per sown stone ([`zobrist::Tables::step`]).
//! - **Perft's last two plies** ([`Position::count_after`]): the number of legal moves after a
//!   move, without making it, from bit sets of holes: the opponent will have the holes they
//!   have, plus the empty ones the run reaches, less a captured landing hole, unless a kazan
//!   passes the win line.
//! - **The general path** (`sow_general`), lap-wise and byte by byte: `c` stones over a ring
//!   of `r` holes put `c / r` into every hole and one more into the next `c % r`, so even a
//!   100-stone hole costs one pass over the ring. It takes the sowings that lap the ring.
//!
//! All sow stones into tuzdik holes as if they were ordinary holes and then move them to the
//! owner's kazan; a tuzdik always holds 0 between moves, so that is exact.
//!
//! The fast paths are monomorphised by the row length `N` (9, 7 or 5), chosen once per call
//! from the variant (or once per perft, see [`with_row_len`]), so ring arithmetic and table
//! choice use constants; the rule switches are read from the variant byte (predictable
//! branches).

use super::{NO_TUZDIK, Position, Side, zobrist};
use crate::variant::{Capture, Sowing};

/// What a move did, as PlayOK long notation and records need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// The row the last stone fell on.
    pub landing_side: Side,
    /// The hole (1..N, in its owner's numbering) the last stone fell into.
    pub landing_hole: u8,
    /// Stones taken from the landing hole (an even capture, or the 3 of a new tuzdik).
    pub captured: u8,
    /// Whether the landing hole became the mover's tuzdik.
    pub made_tuzdik: bool,
}

/// The `S` parameter of the fast paths: read the sowing and capture switches from the
/// variant...
pub(crate) const READ_SWITCHES: u8 = 0;
/// ...or take both as standard (the caller has checked, with [`has_standard_switches`]): perft
/// is monomorphised both ways, since a switch test per leaf costs a tenth of its time.
pub(crate) const STANDARD_SWITCHES: u8 = 1;

/// Whether `variant` sows and captures the standard way (the tuzdik switch may be either).
#[inline(always)]
pub(crate) fn has_standard_switches(variant: crate::Variant) -> bool {
    variant.sowing() == Sowing::Standard && variant.capture() == Capture::Standard
}

/// Calls `$body` with the const `$n` bound to the row length of `$variant`: the one place a
/// variant's geometry becomes a compile-time constant.
macro_rules! with_row_len {
    ($variant:expr, $n:ident => $body:expr) => {
        match $variant.family() {
            $crate::variant::Family::Togyz => {
                const $n: usize = 9;
                $body
            }
            $crate::variant::Family::Kozdatu => {
                const $n: usize = 7;
                $body
            }
            $crate::variant::Family::Bestemshchi => {
                const $n: usize = 5;
                $body
            }
            // Mangala IV has its own make (position/mangala.rs); every public entry point
            // routes it there before reaching this macro. The arm keeps the match total.
            $crate::variant::Family::Mangala4 => {
                const $n: usize = 7;
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

/// 0x7f in every byte.
const LOW7: u128 = u128::from_le_bytes([0x7f; 16]);
/// 0x01 in every byte.
const ONES: u128 = u128::from_le_bytes([0x01; 16]);

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
    const fn add(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo.wrapping_add(other.lo),
            hi: self.hi.wrapping_add(other.hi),
        }
    }

    /// Lane-wise difference (no lane may underflow).
    #[inline(always)]
    const fn sub(self, other: Wide) -> Wide {
        Wide {
            lo: self.lo.wrapping_sub(other.lo),
            hi: self.hi.wrapping_sub(other.hi),
        }
    }

    /// Every lane times `k` (no lane may overflow).
    #[inline(always)]
    const fn times(self, k: u8) -> Wide {
        Wide {
            lo: self.lo.wrapping_mul(k as u128),
            hi: self.hi.wrapping_mul(k as u16),
        }
    }

    /// Byte `index`.
    #[inline(always)]
    const fn get(self, index: usize) -> u8 {
        if index < 16 {
            (self.lo >> (8 * index)) as u8
        } else {
            (self.hi >> (8 * (index - 16))) as u8
        }
    }

    /// `self` when `keep`, else 0 (without a branch).
    #[inline(always)]
    const fn only_if(self, keep: bool) -> Wide {
        Wide {
            lo: self.lo & 0u128.wrapping_sub(keep as u128),
            hi: self.hi & 0u16.wrapping_sub(keep as u16),
        }
    }

    /// `self` with the bits of `mask` cleared.
    #[inline(always)]
    const fn clear(self, mask: Wide) -> Wide {
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
            lo: ((((self.lo & LOW7).wrapping_add(LOW7)) | self.lo) >> 7) & ONES,
            hi: ((((self.hi & LOW7_16).wrapping_add(LOW7_16)) | self.hi) >> 7) & ONES_16,
        }
    }

    /// Bit `i` set when byte `i` is not 0.
    #[inline(always)]
    const fn nonzero_bits(self) -> u32 {
        // Eight 0/1 bytes gather into eight bits with one multiplication: every partial
        // product lands on a bit of its own, so nothing carries.
        const GATHER: u64 = 0x0102_0408_1020_4080;
        let flags = self.nonzero();
        let low = ((flags.lo as u64).wrapping_mul(GATHER) >> 56) as u32;
        let high = (((flags.lo >> 64) as u64).wrapping_mul(GATHER) >> 56) as u32;
        let top = (flags.hi as u32 & 1) | ((flags.hi as u32 >> 7) & 2);
        low | (high << 8) | (top << 16)
    }

    /// The sum of all bytes, each of which must be 0 or 1.
    #[inline(always)]
    const fn sum_of_flags(self) -> u32 {
        let folded = (self.lo as u64) + ((self.lo >> 64) as u64) + self.hi as u64;
        (folded.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }
}

/// Constant tables for one row length `N` (ring of `2N`).
struct Geometry {
    /// `prefix[k]`, byte `j`: how many of `0..k` are `j` modulo the ring length (`k < 2R`).
    prefix: [Wide; 2 * MAX_N * 2],
    /// 0xff in byte `i` (`i < 2R`).
    byte: [Wide; 2 * MAX_N],
    /// 1 in every byte of South's row (`[0]`) or North's (`[1]`).
    row: [Wide; 2],
    /// `runs[skip][origin][stones]`: the run of single stones sown from ring index `origin`
    /// holding `stones` (standard sowing, or skip-origin when `skip` is 1), for every count
    /// the register path takes, packed as [`Run::unpack`] reads it.
    runs: [[[u32; 2 * MAX_N]; 2 * MAX_N]; 2],
}

const MAX_N: usize = 9;

const fn geometry(n: usize) -> Geometry {
    let ring = 2 * n;
    let mut g = Geometry {
        prefix: [Wide::ZERO; 2 * MAX_N * 2],
        byte: [Wide::ZERO; 2 * MAX_N],
        row: [Wide::ZERO; 2],
        runs: [[[0; 2 * MAX_N]; 2 * MAX_N]; 2],
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
            while stones < ring - skip {
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

/// Where [`Geometry::runs`] keeps the last hole and the first.
const RUN_LAST: u32 = 18;
const RUN_START: u32 = 23;

/// A run of single stones: `len` holes from ring index `start` (wrapping), the last stone in
/// `last`, the holes reached as ring-index bits.
#[derive(Clone, Copy)]
struct Run {
    start: usize,
    len: usize,
    last: usize,
    bits: u32,
}

impl Run {
    #[inline(always)]
    fn unpack(packed: u32, len: usize) -> Run {
        Run {
            start: (packed >> RUN_START) as usize & 31,
            len,
            last: (packed >> RUN_LAST) as usize & 31,
            bits: packed & ((1 << RUN_LAST) - 1),
        }
    }
}

static GEOMETRY_9: Geometry = geometry(9);
static GEOMETRY_7: Geometry = geometry(7);
static GEOMETRY_5: Geometry = geometry(5);

/// The tables for row length `N` (a constant choice once monomorphised).
#[inline(always)]
fn tables<const N: usize>() -> &'static Geometry {
    match N {
        9 => &GEOMETRY_9,
        7 => &GEOMETRY_7,
        _ => &GEOMETRY_5,
    }
}

/// A move worked out in registers, not yet written back.
#[derive(Clone, Copy)]
pub(crate) struct Sown {
    /// The hole counts right after sowing (see [`Position::sow_wide`]).
    ring: Wide,
    /// The kazans after the move, South's in the low byte.
    kazans: u16,
    /// The run of single stones: `len` holes from ring index `start` (wrapping).
    start: usize,
    len: usize,
    /// Ring index of the hole the last stone fell into.
    last: usize,
    /// Stones taken from the landing hole.
    captured: u8,
    /// Whether the landing hole became the mover's tuzdik.
    made_tuzdik: bool,
    /// Stones that fell into each player's tuzdik (0 or 1 unless the sowing laps the ring).
    fallen: [u8; 2],
}

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

impl Sown {
    /// The ring after the move: `ring` less the stones that went on from a tuzdik to its
    /// owner's kazan and the captured landing hole. `tuzdiks` are those before the move.
    #[inline(always)]
    fn settled<const N: usize>(&self, tuzdiks: [u8; 2]) -> Wide {
        let g = tables::<N>();
        let mut ring = self.ring;
        // A tuzdik holds 0 before the move, so clearing it whether or not a stone fell in is
        // exact (and whether one did is not worth a branch).
        if tuzdiks != [NO_TUZDIK; 2] {
            for square in tuzdiks {
                if square != NO_TUZDIK {
                    ring = ring.clear(g.byte[square as usize]);
                }
            }
        }
        // Whether the landing captured is a coin toss: mask, don't branch.
        ring.clear(g.byte[self.last].only_if(self.captured != 0))
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
    fn set_wide<const N: usize>(&mut self, ring: Wide) {
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
    const fn decided_biased(biased: u16) -> bool {
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
    fn legal_mask_of<const N: usize>(&self, ring: Wide) -> u16 {
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

    /// Whether sowing skips the origin: the variant's switch, or known to be standard when
    /// `S` is [`STANDARD_SWITCHES`].
    #[inline(always)]
    fn skip_origin<const S: u8>(&self) -> bool {
        S == READ_SWITCHES && self.variant.sowing() == Sowing::SkipOrigin
    }

    /// Whether captures need a lone stone, as [`skip_origin`](Self::skip_origin) for the
    /// capture switch.
    #[inline(always)]
    fn singleton<const S: u8>(&self) -> bool {
        S == READ_SWITCHES && self.variant.capture() == Capture::Singleton
    }

    /// The run of single stones a move from ring index `origin` sows. `None` when the move
    /// needs the general path: a sowing that reaches every hole (or, for skip-origin, every
    /// hole but the origin), or an empty origin.
    #[inline(always)]
    fn run<const N: usize, const S: u8>(&self, origin: usize) -> Option<Run> {
        let stones = self.holes[origin] as usize;
        let skip = usize::from(self.skip_origin::<S>());
        // 1 <= stones < 2N (less one for skip-origin): the run touches each hole at most once
        // and never the origin a second time.
        if stones.wrapping_sub(1) >= 2 * N - 1 - skip {
            return None;
        }
        Some(Run::unpack(
            tables::<N>().runs[skip][origin][stones],
            stones,
        ))
    }

    /// Ring-index bits of the holes where the mover would make a tuzdik by landing on 3 (rule
    /// 2's exceptions applied): none if the variant has no tuzdik or the mover has one
    /// already, else the opponent's holes 1..N-1 less the one numbered like the opponent's
    /// tuzdik.
    #[inline(always)]
    fn tuzdik_targets<const N: usize>(&self) -> u32 {
        let mover = self.side.index();
        if !self.variant.tuzdik() || self.tuzdiks[mover] != NO_TUZDIK {
            return 0;
        }
        let mut holes: u32 = (1 << (N - 1)) - 1;
        let theirs = self.tuzdiks[1 - mover];
        if theirs != NO_TUZDIK {
            holes &= !(1 << (theirs as usize % N));
        }
        holes << ((1 - mover) * N)
    }

    /// What the last stone of a run does in ring index `last` (RULES.md 2): the stones
    /// captured (0, an even count, or 3 for a new tuzdik) and whether a tuzdik is made.
    /// `capturable` is [`capturable`](Self::capturable) and `targets`
    /// [`tuzdik_targets`](Self::tuzdik_targets). On the register path the landing
    /// hole got exactly one stone and is not the origin, so its count is one more than before
    /// the move.
    ///
    /// Whether a landing captures is a coin toss, so this is all arithmetic, no branch.
    #[inline(always)]
    fn landing<const N: usize, const S: u8>(
        &self,
        last: usize,
        capturable: u32,
        targets: u32,
    ) -> (u8, bool) {
        self.landing_on::<N, S>(last, self.holes[last] + 1, capturable, targets)
    }

    /// [`landing`](Self::landing) given the landing hole's `count` after the sowing.
    #[inline(always)]
    fn landing_on<const N: usize, const S: u8>(
        &self,
        last: usize,
        count: u8,
        capturable: u32,
        targets: u32,
    ) -> (u8, bool) {
        let theirs = (capturable >> last) & 1 != 0;
        // 1 or 0.
        let captures = if self.singleton::<S>() {
            u8::from(count == 2)
        } else {
            (count & 1) ^ 1
        } & u8::from(theirs);
        // A count of 3 is never captured (it is odd, and not 2), so the two cases combine.
        let made_tuzdik = (count == 3) & ((targets >> last) & 1 != 0);
        let captured =
            (count & 0u8.wrapping_sub(captures)) | (3 & 0u8.wrapping_sub(u8::from(made_tuzdik)));
        (captured, made_tuzdik)
    }

    /// Ring-index bits of the holes where a landing may capture: the opponent's row less the
    /// mover's tuzdik.
    #[inline(always)]
    fn capturable<const N: usize>(&self) -> u32 {
        let mover = self.side.index();
        let row = ((1u32 << N) - 1) << ((1 - mover) * N);
        let tuzdik = self.tuzdiks[mover];
        if tuzdik == NO_TUZDIK {
            row
        } else {
            row & !(1 << tuzdik)
        }
    }

    /// Sows ring index `origin` in registers; `None` when the move needs the general path
    /// (see [`run`](Self::run)).
    ///
    /// The returned ring is the ring right after sowing: stones that fell into a tuzdik and a
    /// captured landing hole are still in it ([`Sown::settled`] takes them out).
    #[inline(always)]
    pub(crate) fn sow_wide<const N: usize, const S: u8>(
        &self,
        ring: Wide,
        origin: usize,
    ) -> Option<Sown> {
        let r = 2 * N;
        let Run {
            start, len, last, ..
        } = self.run::<N, S>(origin)?;
        let g = tables::<N>();
        let ring = ring
            .clear(g.byte[origin])
            .add(g.prefix[start + len].sub(g.prefix[start]));

        // Both kazans in one register (byte `p` is player `p`'s): no byte stores and reloads.
        let mut kazans = u16::from_le_bytes(self.kazans);
        let mut fallen = [0u8; 2];
        if self.tuzdiks != [NO_TUZDIK; 2] {
            for (owner, fell) in fallen.iter_mut().enumerate() {
                let square = self.tuzdiks[owner] as usize;
                let distance = if square >= start {
                    square - start
                } else {
                    square + r - start
                };
                // NO_TUZDIK (255) is never within the run.
                *fell = u8::from(distance < len);
                kazans += u16::from(*fell) << (8 * owner);
            }
        }
        let (captured, made_tuzdik) =
            self.landing::<N, S>(last, self.capturable::<N>(), self.tuzdik_targets::<N>());
        kazans += u16::from(captured) << (8 * self.side.index());
        Some(Sown {
            ring,
            kazans,
            start,
            len,
            last,
            captured,
            made_tuzdik,
            fallen,
        })
    }

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
    pub(crate) fn count_after<const N: usize, const S: u8>(
        &self,
        leaves: &Leaves,
        origin: usize,
    ) -> u32 {
        let Some(Run {
            last, bits: run, ..
        }) = self.run::<N, S>(origin)
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
        let (captured, _) = self.landing::<N, S>(last, leaves.capturable, leaves.tuzdik_targets);
        kazans += u16::from(captured) << (8 * (1 - theirs));
        if Self::decided_biased(kazans) {
            return 0;
        }
        leaves.occupied + u32::from(POPCOUNT_9[reached as usize & 511]) - u32::from(captured != 0)
    }

    /// Plays ring index `origin` (row length `N`), keeping the key when `HASH`.
    #[inline(always)]
    pub(crate) fn make<const N: usize, const S: u8, const HASH: bool>(
        &mut self,
        origin: usize,
    ) -> Effect {
        let Some(sown) = self.sow_wide::<N, S>(self.wide::<N>(), origin) else {
            return self.sow_general::<HASH>(origin);
        };
        self.apply::<N, HASH>(origin, &sown);
        let landing_side = if sown.last < N {
            Side::South
        } else {
            Side::North
        };
        Effect {
            landing_side,
            landing_hole: (sown.last - landing_side.index() * N) as u8 + 1,
            captured: sown.captured,
            made_tuzdik: sown.made_tuzdik,
        }
    }

    /// Plays ring index `origin` (row length `N`) without maintaining the key, as
    /// [`make`](Self::make) does, and returns the legal moves after it (what
    /// [`legal_mask_n`](Self::legal_mask_n) would): the search asks for them at once, and the
    /// hole counts are still in registers here.
    #[inline(always)]
    pub(crate) fn make_unhashed_moves<const N: usize>(&mut self, origin: usize) -> u16 {
        let Some(sown) = self.sow_wide::<N, READ_SWITCHES>(self.wide::<N>(), origin) else {
            return self.make_long_unhashed_moves::<N>(origin);
        };
        let ring = self.apply::<N, false>(origin, &sown);
        self.legal_mask_of::<N>(ring)
    }

    /// [`make_unhashed_moves`](Self::make_unhashed_moves) for the moves the register path
    /// leaves: a standard sowing that laps the ring is worked out in registers too (in the
    /// search one make in eight is one, nearly all of them in positions with a few heavy
    /// holes), the rest (skip-origin laps, an empty origin) on the general path.
    #[inline(never)]
    fn make_long_unhashed_moves<const N: usize>(&mut self, origin: usize) -> u16 {
        let Some(sown) = self.sow_laps_wide::<N>(self.wide::<N>(), origin) else {
            self.sow_general::<false>(origin);
            return self.legal_mask_n::<N>();
        };
        let ring = self.apply::<N, false>(origin, &sown);
        self.legal_mask_of::<N>(ring)
    }

    /// A standard sowing of at least 2N stones from ring index `origin`, in registers: every
    /// hole gets `stones / 2N` of them and the `stones % 2N` holes from the origin on one more
    /// (the first stone goes back into the emptied origin). `None` for any other move.
    ///
    /// The result's `start` and `len` describe only the last partial lap, so it must not be
    /// used to update the key (the search's make keeps none).
    #[inline(always)]
    fn sow_laps_wide<const N: usize>(&self, ring: Wide, origin: usize) -> Option<Sown> {
        let r = 2 * N;
        let stones = self.holes[origin] as usize;
        if stones < r || self.skip_origin::<READ_SWITCHES>() {
            return None;
        }
        let (laps, rest) = (stones / r, stones % r);
        let g = tables::<N>();
        // No lane overflows: every hole ends with at most all the stones there are (162).
        let ring = ring
            .clear(g.byte[origin])
            .add(g.prefix[r].times(laps as u8))
            .add(g.prefix[origin + rest].sub(g.prefix[origin]));
        let last = (origin + stones - 1) % r;

        let mut kazans = u16::from_le_bytes(self.kazans);
        let mut fallen = [0u8; 2];
        for (owner, fell) in fallen.iter_mut().enumerate() {
            let square = self.tuzdiks[owner];
            if square != NO_TUZDIK {
                // A tuzdik held 0, so all it holds now fell in.
                *fell = ring.get(square as usize);
                kazans += u16::from(*fell) << (8 * owner);
            }
        }
        let (captured, made_tuzdik) = self.landing_on::<N, READ_SWITCHES>(
            last,
            ring.get(last),
            self.capturable::<N>(),
            self.tuzdik_targets::<N>(),
        );
        kazans += u16::from(captured) << (8 * self.side.index());
        Some(Sown {
            ring,
            kazans,
            start: origin,
            len: rest,
            last,
            captured,
            made_tuzdik,
            fallen,
        })
    }

    /// Writes a move worked out in registers back, keeping the key when `HASH`, and passes
    /// the move; returns the hole counts written.
    #[inline(always)]
    fn apply<const N: usize, const HASH: bool>(&mut self, origin: usize, sown: &Sown) -> Wide {
        let mover = self.side.index();
        if HASH {
            self.key = self.key_after::<N>(origin, sown);
        }
        let ring = sown.settled::<N>(self.tuzdiks);
        self.set_wide::<N>(ring);
        self.kazans = sown.kazans.to_le_bytes();
        if sown.made_tuzdik {
            self.tuzdiks[mover] = sown.last as u8;
        }
        self.side = self.side.opponent();
        ring
    }

    /// The key after `sown`, from the key and the hole counts before it.
    #[inline(always)]
    fn key_after<const N: usize>(&self, origin: usize, sown: &Sown) -> u64 {
        let r = 2 * N;
        let z = &zobrist::TABLES;
        let stones = self.holes[origin] as usize;
        // The origin ends with 1 stone when the first stone went back into it, else with 0
        // (whose key is 0). No branch: which case it is, is a coin toss in real games.
        let back = usize::from(sown.start == origin);
        let mut key = self.key ^ z.hole[origin][stones] ^ z.hole[origin][back];
        // The rest of the run starts at the next hole either way.
        let start = if origin + 1 == r { 0 } else { origin + 1 };
        let len = sown.len - back;
        let first = len.min(r - start);
        for index in start..start + first {
            key ^= z.step[index][self.holes[index] as usize];
        }
        for index in 0..len - first {
            key ^= z.step[index][self.holes[index] as usize];
        }
        // A stone that fell into a tuzdik went on to the kazan: undo its 0 -> 1 (hole keys of
        // count 0 are 0, so a tuzdik nothing fell into changes nothing).
        if self.tuzdiks != [NO_TUZDIK; 2] {
            for owner in 0..2 {
                let square = self.tuzdiks[owner];
                if square != NO_TUZDIK {
                    key ^= z.hole[square as usize][sown.fallen[owner] as usize];
                }
            }
        }
        // The captured landing hole is emptied (a count of 0 has key 0: no branch needed).
        key ^= z.hole[sown.last][sown.captured as usize];
        if sown.made_tuzdik {
            key ^= z.tuzdik[self.side.index()][sown.last];
        }
        for player in 0..2 {
            key ^= zobrist::kazan(player, self.kazans[player])
                ^ zobrist::kazan(player, sown.kazans.to_le_bytes()[player]);
        }
        key ^ z.north_to_move
    }

    /// Adds `stones` to hole `index`, keeping the key when `HASH`.
    #[inline(always)]
    fn add<const HASH: bool>(&mut self, index: usize, stones: u8) {
        let old = self.holes[index];
        let new = old.wrapping_add(stones);
        self.holes[index] = new;
        if HASH {
            self.key ^= zobrist::hole(index, old) ^ zobrist::hole(index, new);
        }
    }

    /// Adds one stone to each of `count` consecutive holes from `start`, wrapping at `ring`.
    /// `count < ring`.
    #[inline(always)]
    fn add_run<const HASH: bool>(&mut self, start: usize, count: usize, ring: usize) {
        let first_end = (start + count).min(ring);
        for index in start..first_end {
            self.add::<HASH>(index, 1);
        }
        for index in 0..(start + count - first_end) {
            self.add::<HASH>(index, 1);
        }
    }

    /// Sows the stones of ring index `origin` (which must hold stones and belong to the side
    /// to move), applies the capture rules and passes the move: the general path, stone runs
    /// written byte by byte, for every sowing the register path [`make`](Self::make) leaves
    /// (sowings that lap the ring, and an empty origin).
    #[inline(never)]
    #[cold]
    pub(super) fn sow_general<const HASH: bool>(&mut self, origin: usize) -> Effect {
        let variant = self.variant;
        let n = variant.holes_per_side();
        let ring = variant.ring_len();
        let mover = self.side.index();
        let stones = self.holes[origin] as usize;
        let old_kazans = self.kazans;

        if HASH {
            self.key ^= zobrist::hole(origin, stones as u8);
        }
        self.holes[origin] = 0;

        let last = if stones == 1 {
            let next = if origin + 1 == ring { 0 } else { origin + 1 };
            self.add::<HASH>(next, 1);
            next
        } else {
            match variant.sowing() {
                Sowing::Standard => {
                    let laps = stones / ring;
                    if laps > 0 {
                        for index in 0..ring {
                            self.add::<HASH>(index, laps as u8);
                        }
                    }
                    self.add_run::<HASH>(origin, stones % ring, ring);
                    (origin + stones - 1) % ring
                }
                Sowing::SkipOrigin => {
                    let others = ring - 1;
                    let laps = stones / others;
                    if laps > 0 {
                        for index in (0..ring).filter(|&index| index != origin) {
                            self.add::<HASH>(index, laps as u8);
                        }
                    }
                    let rest = stones % others;
                    let start = if origin + 1 == ring { 0 } else { origin + 1 };
                    self.add_run::<HASH>(start, rest, ring);
                    // With no remainder the last stone of the last lap fell just before the
                    // origin.
                    (origin + if rest == 0 { others } else { rest }) % ring
                }
            }
        };

        for owner in 0..2 {
            let square = self.tuzdiks[owner];
            if square != NO_TUZDIK {
                let fallen = self.holes[square as usize];
                if fallen != 0 {
                    self.holes[square as usize] = 0;
                    self.kazans[owner] += fallen;
                    if HASH {
                        self.key ^= zobrist::hole(square as usize, fallen);
                    }
                }
            }
        }

        let landing_side = if last < n { Side::South } else { Side::North };
        let landing_hole = (last - landing_side.index() * n) as u8 + 1;
        let mut effect = Effect {
            landing_side,
            landing_hole,
            captured: 0,
            made_tuzdik: false,
        };

        if landing_side.index() != mover && last as u8 != self.tuzdiks[mover] {
            let count = self.holes[last];
            let captures = match variant.capture() {
                Capture::Standard => count.is_multiple_of(2),
                Capture::Singleton => count == 2,
            };
            if captures {
                effect.captured = count;
            } else if count == 3 && self.may_make_tuzdik(mover, landing_hole, n) {
                effect.captured = 3;
                effect.made_tuzdik = true;
                self.tuzdiks[mover] = last as u8;
                if HASH {
                    self.key ^= zobrist::TABLES.tuzdik[mover][last];
                }
            }
            if effect.captured != 0 {
                self.holes[last] = 0;
                self.kazans[mover] += count;
                if HASH {
                    self.key ^= zobrist::hole(last, count);
                }
            }
        }

        if HASH {
            for (player, &old) in old_kazans.iter().enumerate() {
                if old != self.kazans[player] {
                    self.key ^=
                        zobrist::kazan(player, old) ^ zobrist::kazan(player, self.kazans[player]);
                }
            }
            self.key ^= zobrist::TABLES.north_to_move;
        }
        self.side = self.side.opponent();
        effect
    }

    /// Rule 2's three exceptions: one tuzdik per player, never on hole N, never opposite-equal
    /// to the opponent's.
    #[inline(always)]
    fn may_make_tuzdik(&self, mover: usize, landing_hole: u8, n: usize) -> bool {
        if !self.variant.tuzdik() || self.tuzdiks[mover] != NO_TUZDIK {
            return false;
        }
        if landing_hole as usize == n {
            return false;
        }
        let theirs = self.tuzdiks[1 - mover];
        theirs == NO_TUZDIK || (theirs as usize % n) as u8 + 1 != landing_hole
    }
}

#[cfg(test)]
mod tests {
    use crate::{Capture, Move, Position, Side, Sowing, Variant};

    fn play(fen: &str, variant: Variant, hole: u8) -> (Position, super::Effect) {
        let mut pos = Position::parse_with(fen, variant).unwrap();
        let effect = pos.try_play(Move::hole(hole)).unwrap();
        assert_eq!(pos.key(), pos.compute_key());
        (pos, effect)
    }

    #[test]
    fn first_stone_goes_back_into_the_origin() {
        let (pos, effect) = play(
            &Position::start(Variant::TOGYZ).to_string(),
            Variant::TOGYZ,
            1,
        );
        assert_eq!(pos.row(Side::South), &[1, 10, 10, 10, 10, 10, 10, 10, 10]);
        assert_eq!(pos.row(Side::North), &[9; 9]);
        assert_eq!((effect.landing_side, effect.landing_hole), (Side::South, 9));
    }

    #[test]
    fn a_single_stone_moves_on() {
        let fen = "1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 80 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 1);
        assert_eq!(pos.row(Side::South)[..2], [0, 1]);
        assert_eq!(effect.landing_hole, 2);
    }

    #[test]
    fn even_landing_captures_and_odd_does_not() {
        let (pos, effect) = play(
            &Position::start(Variant::TOGYZ).to_string(),
            Variant::TOGYZ,
            8,
        );
        assert_eq!(effect.captured, 10);
        assert_eq!(pos.kazan(Side::South), 10);
        assert_eq!(pos.stones(Side::North, 7), 0);
        // Hole 1's nine stones end on South's own hole 9: nothing happens.
        let (pos, effect) = play(
            &Position::start(Variant::TOGYZ).to_string(),
            Variant::TOGYZ,
            1,
        );
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.kazan(Side::South), 0);
        // Landing on the opponent's side on an odd count captures nothing either.
        let (pos, effect) = play(
            "0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w",
            Variant::TOGYZ.with_tuzdik(false),
            9,
        );
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.stones(Side::North, 1), 3);
    }

    #[test]
    fn landing_on_three_makes_a_tuzdik() {
        // Hole 9 with 2 stones lands on North's hole 1, which then holds 3.
        let fen = "0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(effect.made_tuzdik);
        assert_eq!(pos.tuzdik(Side::South), Some(1));
        assert_eq!(pos.kazan(Side::South), 82);
        assert!(pos.is_tuzdik(Side::North, 1));
    }

    #[test]
    fn tuzdik_exceptions_hold() {
        // Landing on North's hole 9 with 3 never makes a tuzdik.
        let fen = "0,0,0,0,0,0,0,0,10/0,0,0,0,0,0,0,0,2 70 80 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!((effect.landing_hole, effect.made_tuzdik), (9, false));
        assert_eq!(pos.stones(Side::North, 9), 3);
        // North's tuzdik on South's hole 1 forbids South's on North's hole 1.
        let fen = "X,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(!effect.made_tuzdik);
        assert_eq!(pos.stones(Side::North, 1), 3);
        // A second tuzdik is never made.
        let fen = "0,0,0,0,0,0,0,0,2/2,X,0,0,0,0,0,0,0 79 79 w";
        let (_, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(!effect.made_tuzdik);
        // Without the switch nothing happens either.
        let variant = Variant::new(crate::Family::Bestemshchi);
        let (pos, effect) = play("0,0,0,0,2/2,0,0,0,0 23 23 w", variant, 5);
        assert!(!effect.made_tuzdik);
        assert_eq!(pos.stones(Side::North, 1), 3);
    }

    #[test]
    fn stones_falling_into_a_tuzdik_go_to_its_owner() {
        // South owns a tuzdik on North's hole 2; South's hole 9 sows into it.
        let fen = "0,0,0,0,0,0,0,0,4/0,X,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!(pos.kazan(Side::South), 80);
        assert_eq!(pos.row(Side::North)[..3], [1, 0, 1]);
        assert_eq!((effect.landing_hole, effect.captured), (3, 0));
    }

    #[test]
    fn long_sowings_lap_without_skipping_the_origin() {
        // 20 stones: 18 fill one lap, the 19th goes back into the origin, the 20th lands on the
        // next hole.
        let fen = "20,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 71 71 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 1);
        assert_eq!(pos.row(Side::South), &[2, 2, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(effect.landing_hole, 2);
        let (pos, _) = play(fen, Variant::TOGYZ.with_sowing(Sowing::SkipOrigin), 1);
        // Skip-origin: 17 holes, 20 stones = one lap plus 3.
        assert_eq!(pos.row(Side::South), &[0, 2, 2, 2, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn singleton_capture_needs_a_lone_stone() {
        let singleton = Variant::TOGYZ.with_capture(Capture::Singleton);
        let fen = "0,0,0,0,0,0,0,0,2/3,0,0,0,0,0,0,0,0 78 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!(effect.captured, 4);
        assert_eq!(pos.kazan(Side::South), 82);
        let (pos, effect) = play(fen, singleton, 9);
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.stones(Side::North, 1), 4);
    }

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn every_variant() -> Vec<Variant> {
        let mut all = Vec::new();
        for family in crate::Family::TOGUZ_FAMILY {
            for tuzdik in [false, true] {
                for sowing in [Sowing::Standard, Sowing::SkipOrigin] {
                    for capture in [Capture::Standard, Capture::Singleton] {
                        all.push(
                            Variant::new(family)
                                .with_tuzdik(tuzdik)
                                .with_sowing(sowing)
                                .with_capture(capture),
                        );
                    }
                }
            }
        }
        all
    }

    /// A random valid position: stones thrown unevenly into the holes (so that long, lapping
    /// sowings occur), random kazans below the win line or just over it, and, where the
    /// variant has them, random tuzdiks.
    fn scrambled(variant: Variant, rng: &mut Rng) -> Option<Position> {
        let n = variant.holes_per_side();
        let total = variant.total_stones();
        let mut kazans = [0u32; 2];
        let mut left = total;
        for kazan in &mut kazans {
            *kazan = rng
                .below(variant.win_threshold() as usize + 2)
                .min(left as usize) as u32;
            left -= *kazan;
        }
        let mut tuzdiks = [None, None];
        if variant.tuzdik() {
            for tuzdik in &mut tuzdiks {
                if rng.below(2) == 0 {
                    *tuzdik = Some(rng.below(n - 1) as u8 + 1);
                }
            }
        }
        let mut rows = [vec![0u8; n], vec![0u8; n]];
        let open: Vec<(usize, usize)> = (0..2)
            .flat_map(|side| (0..n).map(move |hole| (side, hole)))
            .filter(|&(side, hole)| tuzdiks[1 - side] != Some(hole as u8 + 1))
            .collect();
        // A few holes take most of the stones.
        let heavy = [open[rng.below(open.len())], open[rng.below(open.len())]];
        while left > 0 {
            let (side, hole) = if rng.below(3) == 0 {
                heavy[rng.below(2)]
            } else {
                open[rng.below(open.len())]
            };
            rows[side][hole] += 1;
            left -= 1;
        }
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        Position::from_parts(variant, &rows, kazans, tuzdiks, side).ok()
    }

    /// The legal moves counted hole by hole, for comparison.
    fn naive_mask(pos: &Position) -> u16 {
        if pos.kazan(Side::South) >= pos.variant().win_threshold()
            || pos.kazan(Side::North) >= pos.variant().win_threshold()
        {
            return 0;
        }
        let mut mask = 0;
        for (bit, &count) in pos.row(pos.side_to_move()).iter().enumerate() {
            if count != 0 {
                mask |= 1 << bit;
            }
        }
        mask
    }

    /// Every shortcut of the register path against the general path, for every legal move.
    fn check_all_moves(pos: &Position) {
        super::super::with_row_len!(pos.variant(), N => check_moves_n::<N>(pos));
    }

    fn check_moves_n<const N: usize>(pos: &Position) {
        let mask = pos.legal_mask();
        assert_eq!(mask, naive_mask(pos), "{pos:?}");
        assert_eq!(pos.legal_count(), mask.count_ones(), "{pos:?}");
        let leaves = pos.leaves::<N>();
        let mut bits = mask;
        while bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let origin = pos.side_to_move().index() * N + bit;
            let mut general = *pos;
            let expected = general.sow_general::<true>(origin);
            let mut fast = *pos;
            assert_eq!(
                fast.make::<N, { super::READ_SWITCHES }, true>(origin),
                expected,
                "{pos:?} hole {}",
                bit + 1
            );
            assert_eq!(fast, general, "{pos:?} hole {}", bit + 1);
            assert_eq!(fast.key(), fast.compute_key(), "{pos:?} hole {}", bit + 1);
            let mut unhashed = *pos;
            assert_eq!(
                unhashed.make::<N, { super::READ_SWITCHES }, false>(origin),
                expected
            );
            assert_eq!(unhashed.to_string(), general.to_string());
            let mut searched = *pos;
            assert_eq!(
                searched.make_unhashed_moves::<N>(origin),
                general.legal_mask(),
                "{pos:?} hole {}",
                bit + 1
            );
            assert_eq!(searched.to_string(), general.to_string());
            assert_eq!(
                pos.count_after::<N, { super::READ_SWITCHES }>(&leaves, origin),
                general.legal_count(),
                "{pos:?} hole {}",
                bit + 1
            );
            assert_eq!(general.legal_mask(), naive_mask(&general));
            if super::has_standard_switches(pos.variant()) {
                let mut standard = *pos;
                assert_eq!(
                    standard.make::<N, { super::STANDARD_SWITCHES }, true>(origin),
                    expected
                );
                assert_eq!(standard, general);
                assert_eq!(
                    pos.count_after::<N, { super::STANDARD_SWITCHES }>(&leaves, origin),
                    general.legal_count()
                );
            }
        }
    }

    #[test]
    #[ignore = "slow: about 12 s in a debug build; .ci/run runs it in release"]
    fn register_path_matches_the_general_path() {
        let mut rng = Rng(0x5EED_1234_ABCD_0001);
        for variant in every_variant() {
            // Positions from random games.
            for _ in 0..40 {
                let mut pos = Position::start(variant);
                for _ in 0..200 {
                    check_all_moves(&pos);
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
            // Scrambled positions, with long sowings and kazans near the line.
            let mut made = 0;
            while made < 400 {
                if let Some(pos) = scrambled(variant, &mut rng) {
                    check_all_moves(&pos);
                    made += 1;
                }
            }
        }
    }
}
