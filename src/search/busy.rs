//! The moves some search thread is searching right now, for ABDADA-style deferral.
//!
//! Lazy SMP threads walk the same tree in the same order, so once they are in the same
//! iteration they tend to search the same subtrees side by side, one of them wasting its time.
//! Before a thread searches a move other than a node's first, it looks the move up here; if
//! another thread is in that move's subtree, it searches the node's other moves first and
//! comes back to it last, when the other thread's result is likely in the shared table.
//!
//! Each slot holds the 64-bit tag of one (position, move) pair, 0 for none. Two pairs that
//! share a slot just overwrite each other: a lost mark costs a duplicated search, a stale one
//! a needless deferral, neither a wrong result (the deferred move is still searched).

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table: a power of two, far more than the deep nodes on a few threads' paths.
const SLOTS: usize = 1 << 13;

/// Odd constants that spread the holes' tags across the hash space.
const HOLE_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// The moves in progress, shared by every thread of a search.
pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyMoves {
    fn default() -> Self {
        BusyMoves::new()
    }
}

impl BusyMoves {
    /// An empty table.
    pub fn new() -> BusyMoves {
        BusyMoves {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The tag of playing `hole` in the position with search hash `key` (never 0).
    #[inline(always)]
    fn tag(key: u64, hole: u8) -> u64 {
        (key ^ u64::from(hole).wrapping_mul(HOLE_MIX)) | 1
    }

    /// The slot of a tag, from its top bits.
    #[inline(always)]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 51) as usize & (SLOTS - 1)]
    }

    /// Whether some thread is searching `hole` in the position `key`.
    #[inline]
    pub fn is_busy(&self, key: u64, hole: u8) -> bool {
        let tag = Self::tag(key, hole);
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// Marks `hole` in `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64, hole: u8) {
        let tag = Self::tag(key, hole);
        self.slot(tag).store(tag, Ordering::Relaxed);
    }

    /// Clears the mark of `hole` in `key`, unless another pair has taken the slot since.
    #[inline]
    pub fn leave(&self, key: u64, hole: u8) {
        let tag = Self::tag(key, hole);
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_busy_between_enter_and_leave() {
        let busy = BusyMoves::new();
        let key = 0x1234_5678_9abc_def0;
        assert!(!busy.is_busy(key, 3));
        busy.enter(key, 3);
        assert!(busy.is_busy(key, 3));
        assert!(!busy.is_busy(key, 4));
        assert!(!busy.is_busy(key ^ 1 << 40, 3));
        busy.leave(key, 3);
        assert!(!busy.is_busy(key, 3));
    }

    #[test]
    fn leaving_keeps_a_mark_that_took_the_slot_over() {
        let busy = BusyMoves::new();
        // Same top bits (same slot), different tags.
        let (a, b) = (0xabcd_0000_0000_0010, 0xabcd_0000_0000_0100);
        busy.enter(a, 1);
        busy.enter(b, 1);
        busy.leave(a, 1);
        assert!(busy.is_busy(b, 1));
        assert!(!busy.is_busy(a, 1));
    }
}
