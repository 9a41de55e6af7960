//! The fast make ([`Position::make`]), for every sowing of at most 2N - 2 stones (almost every
//! move of a real game), and the search's make, which takes longer standard sowings in
//! registers too ([`Position::make_unhashed_moves`]).
//!
//! The 2N hole counts are held in a [`Wide`] and the whole sowing is one subtraction and two
//! additions of [`RingTables::prefix`](super::packed::RingTables::prefix) entries. Captures and
//! tuzdik deposits are byte masks; the landing count is read from the position before the
//! move (the landing hole gets exactly one stone on this path), and whether it captures is
//! worked out with arithmetic rather than branches, because it is a coin toss. The Zobrist
//! key is updated with one table load per sown stone ([`zobrist::Tables::step`]).
//!
//! Stones are sown into tuzdik holes as if they were ordinary holes and then moved to the
//! owner's kazan; a tuzdik always holds 0 between moves, so that is exact. The sowings this
//! path leaves go to the general make (position/general.rs); both are checked against each
//! other, and against perft's leaf counter, by position/make_tests.rs.
//!
//! The paths are monomorphised by the row length `N` (9, 7 or 5), chosen once per call from
//! the variant (or once per perft, see [`with_row_len`](super::with_row_len)), so ring
//! arithmetic and table choice use constants; the rule switches are read from the variant
//! byte (predictable branches), or not at all when `STANDARD`.

use super::packed::{Run, Wide, tables};
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

/// The `STANDARD` parameter of the fast paths: read the sowing and capture switches from the
/// variant...
pub(crate) const READ_SWITCHES: bool = false;
/// ...or take both as standard (the caller has checked, with [`has_standard_switches`]): perft
/// is monomorphised both ways, since a switch test per leaf costs a tenth of its time.
pub(crate) const STANDARD_SWITCHES: bool = true;

/// Whether `variant` sows and captures the standard way (the tuzdik switch may be either).
#[inline(always)]
pub(crate) fn has_standard_switches(variant: crate::Variant) -> bool {
    variant.sowing() == Sowing::Standard && variant.capture() == Capture::Standard
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
    /// Whether sowing skips the origin: the variant's switch, or known to be standard when
    /// `STANDARD` ([`STANDARD_SWITCHES`]).
    #[inline(always)]
    fn skip_origin<const STANDARD: bool>(&self) -> bool {
        !STANDARD && self.variant.sowing() == Sowing::SkipOrigin
    }

    /// Whether captures need a lone stone, as [`skip_origin`](Self::skip_origin) for the
    /// capture switch.
    #[inline(always)]
    fn singleton<const STANDARD: bool>(&self) -> bool {
        !STANDARD && self.variant.capture() == Capture::Singleton
    }

    /// The run of single stones a move from ring index `origin` sows. `None` when the move
    /// needs another path: a sowing of 2N - 1 stones or more, or an empty origin.
    #[inline(always)]
    pub(super) fn run<const N: usize, const STANDARD: bool>(&self, origin: usize) -> Option<Run> {
        let stones = self.holes[origin] as usize;
        let skip = usize::from(self.skip_origin::<STANDARD>());
        // 1 <= stones <= 2N - 2: the run touches each hole at most once and never the origin a
        // second time, either way of sowing.
        if stones.wrapping_sub(1) >= 2 * N - 2 {
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
    pub(super) fn tuzdik_targets<const N: usize>(&self) -> u32 {
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
    pub(super) fn landing<const N: usize, const STANDARD: bool>(
        &self,
        last: usize,
        capturable: u32,
        targets: u32,
    ) -> (u8, bool) {
        self.landing_on::<N, STANDARD>(last, self.holes[last] + 1, capturable, targets)
    }

    /// [`landing`](Self::landing) given the landing hole's `count` after the sowing.
    #[inline(always)]
    fn landing_on<const N: usize, const STANDARD: bool>(
        &self,
        last: usize,
        count: u8,
        capturable: u32,
        targets: u32,
    ) -> (u8, bool) {
        let theirs = (capturable >> last) & 1 != 0;
        // 1 or 0.
        let captures = if self.singleton::<STANDARD>() {
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
    pub(super) fn capturable<const N: usize>(&self) -> u32 {
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
    pub(super) fn sow_wide<const N: usize, const STANDARD: bool>(
        &self,
        ring: Wide,
        origin: usize,
    ) -> Option<Sown> {
        let r = 2 * N;
        let Run {
            start, len, last, ..
        } = self.run::<N, STANDARD>(origin)?;
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
            self.landing::<N, STANDARD>(last, self.capturable::<N>(), self.tuzdik_targets::<N>());
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

    /// Plays ring index `origin` (row length `N`), keeping the key when `HASH`.
    #[inline(always)]
    pub(crate) fn make<const N: usize, const STANDARD: bool, const HASH: bool>(
        &mut self,
        origin: usize,
    ) -> Effect {
        let Some(sown) = self.sow_wide::<N, STANDARD>(self.wide::<N>(), origin) else {
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
    /// leaves: a long standard sowing is worked out in registers too (in the
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

    /// A standard sowing of at least 2N - 1 stones from ring index `origin`, in registers:
    /// every hole gets `stones / 2N` of them and the `stones % 2N` holes from the origin on one
    /// more (the first stone goes back into the emptied origin). `None` for any other move.
    ///
    /// The result's `start` and `len` describe only the last partial lap, so it must not be
    /// used to update the key (the search's make keeps none).
    #[inline(always)]
    fn sow_laps_wide<const N: usize>(&self, ring: Wide, origin: usize) -> Option<Sown> {
        let r = 2 * N;
        let stones = self.holes[origin] as usize;
        if stones + 1 < r || self.skip_origin::<READ_SWITCHES>() {
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
}
