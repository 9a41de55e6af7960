//! The shared transposition table: lock-free, with entries every search thread reads and
//! writes at once.
//!
//! Each entry is two `AtomicU64`s, `data` and `check = key ^ data`. A reader accepts an entry
//! only when `check ^ data` equals its key, so an entry torn by two writers racing (one word
//! from each) is simply a miss: no lock is needed and a wrong move or score can only come from
//! a genuine 64-bit key collision.
//!
//! `data` packs, from the low bit:
//!
//! | bits  | field | |
//! |-------|-------|---|
//! | 0-15  | score | `i16`, mate scores stored relative to the node (see `score_to_tt`) |
//! | 16-31 | board score | `i16`: the static evaluation less its threat term |
//! | 32-35 | move  | source hole 1..9, 0 for none |
//! | 36-37 | bound | 1 upper, 2 lower, 3 exact (0 means an empty entry) |
//! | 38-45 | depth | plies, 0..255 |
//! | 46-51 | age   | the search generation that wrote it, modulo 64 |
//!
//! The key is any 64-bit hash of the position with well-mixed high bits (they pick the
//! bucket). The search uses one worked out from the hole counts alone (no key tables) right
//! after making a move, so that the bucket is on its way into the cache long before the child
//! reads it.
//!
//! Entries sit in buckets of two: the first is replaced only by a deeper or equally deep
//! result or one from a newer search (depth-preferred), and what it held moves to the second;
//! any other result goes to the second (so recent results are never lost). Buckets are 32
//! bytes, so two share a cache line. The buckets sit on 2 MiB pages where the system allows
//! (`pages.rs`): a probe is a random access to a table far larger than 4 KiB pages let the
//! address-translation cache cover.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::pages::{AllocError, Zeroable, ZeroedBuffer};
use crate::moves::Move;

/// How an entry's score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (a fail-low).
    Upper = 1,
    /// The true value is at least the score (a fail-high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The stored score (node-relative for mates: convert with `score_from_tt`).
    pub score: i16,
    /// The stored board score: the node's static evaluation less its threat term (a lower
    /// bound of the evaluation that needs no move scan). Nothing in the search reads it yet.
    pub eval: i16,
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// How the score bounds the value.
    pub bound: Bound,
    /// The depth it was searched to.
    pub depth: u8,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    entries: [Entry; 2],
}

// SAFETY: a bucket is four atomic integers; all zeros is an empty bucket.
unsafe impl Zeroable for Bucket {}

const AGE_BITS: u64 = 6;
const AGE_MASK: u64 = (1 << AGE_BITS) - 1;

fn pack(score: i16, eval: i16, mv: Option<Move>, bound: Bound, depth: u8, age: u8) -> u64 {
    let hole = mv.and_then(Move::source).unwrap_or(0) as u64 & 0xF;
    u64::from(score as u16)
        | u64::from(eval as u16) << 16
        | hole << 32
        | (bound as u64) << 36
        | u64::from(depth) << 38
        | (u64::from(age) & AGE_MASK) << 46
}

fn unpack(data: u64) -> Option<Hit> {
    let bound = Bound::from_bits((data >> 36) & 3)?;
    let hole = ((data >> 32) & 0xF) as u8;
    Some(Hit {
        score: data as u16 as i16,
        eval: (data >> 16) as u16 as i16,
        mv: (hole != 0).then(|| Move::hole(hole)),
        bound,
        depth: (data >> 38) as u8,
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 46) & AGE_MASK) as u8
}

/// The table. Shared by reference between search threads.
pub struct TranspositionTable {
    /// On large pages where the system allows (see `pages.rs`).
    buckets: ZeroedBuffer<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// Bytes per bucket (two entries).
    pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// A table of about `mib` MiB (at least one bucket), every page touched now so that page
    /// faults do not land in the first search.
    pub fn new(mib: usize) -> TranspositionTable {
        match Self::try_new(mib) {
            Ok(table) => table,
            Err(error) => panic!("cannot allocate a {mib} MiB transposition table: {error}"),
        }
    }

    /// The same, reporting a failed allocation instead of aborting.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, AllocError> {
        let count = (mib.saturating_mul(1 << 20) / Self::BUCKET_BYTES).max(1);
        Ok(TranspositionTable {
            buckets: ZeroedBuffer::new(count)?,
            age: AtomicU8::new(0),
        })
    }

    /// Empties every entry (and touches every page).
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for entry in &bucket.entries {
                entry.check.store(0, Ordering::Relaxed);
                entry.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * Self::BUCKET_BYTES
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK as u8;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the processor to fetch a key's bucket (as soon as the position is made).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let pointer = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint and never faults, even on a bad address; this one
            // points into the table anyway.
            unsafe { std::arch::x86_64::_mm_prefetch(pointer, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up by its key (any well-mixed 64-bit hash; see the module docs).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result. A missing move keeps the one already stored for the same position.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        score: i16,
        eval: i16,
        mv: Option<Move>,
        bound: Bound,
        depth: u8,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let [first, second] = &bucket.entries;
        let first_data = first.data.load(Ordering::Relaxed);
        let first_key = first.check.load(Ordering::Relaxed) ^ first_data;
        let same = first_key == key;
        let replace_first = same
            || unpack(first_data).is_none()
            || age_of(first_data) != age
            || u32::from(depth) >= (first_data >> 38) as u8 as u32;
        let (entry, old) = if replace_first {
            // The entry pushed out of the first slot is still worth more than whatever the
            // second holds: it moves down.
            if !same && unpack(first_data).is_some() {
                second.data.store(first_data, Ordering::Relaxed);
                second
                    .check
                    .store(first_key ^ first_data, Ordering::Relaxed);
            }
            (first, first_data)
        } else {
            (second, second.data.load(Ordering::Relaxed))
        };
        let old_key = entry.check.load(Ordering::Relaxed) ^ old;
        let mv = mv.or_else(|| {
            (old_key == key)
                .then(|| unpack(old).and_then(|hit| hit.mv))
                .flatten()
        });
        let data = pack(score, eval, mv, bound, depth, age);
        entry.data.store(data, Ordering::Relaxed);
        entry.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search, as UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(500);
        if sample == 0 {
            return 0;
        }
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|bucket| &bucket.entries)
            .filter(|entry| {
                let data = entry.data.load(Ordering::Relaxed);
                unpack(data).is_some() && age_of(data) == age
            })
            .count();
        (used * 1000 / (sample * 2)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, -1234, 77, Some(Move::hole(7)), Bound::Lower, 12);
        let hit = tt.probe(42).unwrap();
        assert_eq!(hit.score, -1234);
        assert_eq!(hit.eval, 77);
        assert_eq!(hit.mv, Some(Move::hole(7)));
        assert_eq!(hit.bound, Bound::Lower);
        assert_eq!(hit.depth, 12);
        assert_eq!(tt.probe(43), None);
    }

    #[test]
    fn a_store_without_a_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(1);
        tt.store(9, 5, 5, Some(Move::hole(3)), Bound::Exact, 4);
        tt.store(9, 6, 5, None, Bound::Upper, 5);
        assert_eq!(tt.probe(9).unwrap().mv, Some(Move::hole(3)));
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        tt.store(1000, 5, 5, Some(Move::hole(3)), Bound::Exact, 4);
        let entry = &tt.bucket(1000).entries[0];
        entry.data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(tt.probe(1000), None);
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for key in 0..100_000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                1,
                1,
                None,
                Bound::Exact,
                1,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn threads_share_it_without_locks() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..50_000u64 {
                        let key = (i * 2 + t).wrapping_mul(0xD6E8_FEB8_6659_FD93);
                        tt.store(
                            key,
                            (i % 1000) as i16,
                            0,
                            Some(Move::hole(1 + (i % 9) as u8)),
                            Bound::Exact,
                            3,
                        );
                        if let Some(hit) = tt.probe(key) {
                            assert_eq!(hit.score, (i % 1000) as i16);
                        }
                    }
                });
            }
        });
    }
}
