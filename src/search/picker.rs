//! Move ordering and the staged move picker: the table's move first, then the others in order
//! of predicted captures, unpredicted long sowings, killers and history, then the moves put
//! off because another thread was searching them.

use super::ordering::Scan;
use super::parameters::search as p;
use crate::moves::Move;
use crate::position::{Position, Side};

/// History entries per hole with [`p::HISTORY_BY_COUNT`]: one per stone count, the last for
/// every count from there on.
pub(super) const HISTORY_COUNT_BUCKETS: usize = 32;
/// History entries per hole.
pub(super) const HISTORY_BUCKETS: usize = if p::HISTORY_BY_COUNT {
    HISTORY_COUNT_BUCKETS
} else {
    1
};

/// The history bucket of a move whose hole holds `stones`: by the count (below
/// [`HISTORY_COUNT_BUCKETS`]) when [`p::HISTORY_BY_COUNT`] is on, else 0.
#[inline(always)]
pub(super) fn history_bucket_of(stones: u8) -> usize {
    if p::HISTORY_BY_COUNT {
        usize::from(stones).min(HISTORY_COUNT_BUCKETS - 1)
    } else {
        0
    }
}

/// A node's moves in search order, the highest order key first, ties in hole order.
///
/// The moves are put in order only when read: the first read selects the best move, and
/// only a read past it sorts the others. About a third of the lists end with a cutoff by
/// their first move and need no sort.
#[derive(Clone, Copy)]
pub(super) struct OrderedMoves {
    /// `key << 4 | (15 - offset)` for the move of hole `offset + 1`: these plain integers are
    /// all different, larger for a larger key, and of equal keys larger for the lower hole,
    /// so ordering them orders by key with ties in hole order, as a stable sort would.
    /// Unused entries are `i32::MIN`, below every move's; they may stand between moves until
    /// the list is ordered.
    entries: [i32; 9],
    /// The number of moves.
    len: usize,
    /// `entries[..ordered]` are the largest, in order (0, 1 or `len`).
    ordered: usize,
}

impl OrderedMoves {
    /// Entries past the length are below every real one, so that the rank sort can compare
    /// all nine without looking at the length.
    pub(super) const EMPTY: OrderedMoves = OrderedMoves {
        entries: [i32::MIN; 9],
        len: 0,
        ordered: 0,
    };

    /// The entry of the move of hole `offset + 1` with an order key below 2^27 in magnitude.
    #[inline(always)]
    pub(super) fn entry(offset: usize, key: i32) -> i32 {
        key << 4 | (15 - offset as i32)
    }

    /// Adds the move of hole `offset + 1`, with an order key below 2^27 in magnitude.
    #[inline(always)]
    pub(super) fn push(&mut self, offset: usize, key: i32) {
        self.entries[self.len] = Self::entry(offset, key);
        self.len += 1;
    }

    /// The hole offset of the `index`-th move (read in turn from the first).
    #[inline(always)]
    pub(super) fn get(&mut self, index: usize) -> Option<usize> {
        if index >= self.len {
            return None;
        }
        if self.ordered <= index {
            self.order_up_to(index);
        }
        Some(15 - (self.entries[index] & 15) as usize)
    }

    /// Orders the moves up to `index`: the best to the front for the first, all for later.
    #[inline(always)]
    pub(super) fn order_up_to(&mut self, index: usize) {
        if self.ordered == 0 {
            let (mut best, mut best_entry) = (0, self.entries[0]);
            for at in 1..self.entries.len() {
                let entry = self.entries[at];
                let better = entry > best_entry;
                best = if better { at } else { best };
                best_entry = if better { entry } else { best_entry };
            }
            self.entries[best] = self.entries[0];
            self.entries[0] = best_entry;
            self.ordered = 1;
        }
        if index > 0 {
            // The rest sorted by rank: each entry goes where the count of larger ones puts
            // it (moves' entries are all different; unused ones all rank `len`, past the
            // moves). Every comparison is made, none is branched on.
            // The counts are kept lane by lane (all entries' counts against one other entry
            // at a time), which the compiler turns into vector compares.
            let len = self.len;
            let mut ranks = [0u32; 9];
            for &other in &self.entries {
                for (rank, &entry) in ranks.iter_mut().zip(&self.entries) {
                    *rank += u32::from(other > entry);
                }
            }
            let mut sorted = self.entries;
            for (&rank, &entry) in ranks.iter().zip(&self.entries).skip(1) {
                sorted[rank as usize] = entry;
            }
            self.entries = sorted;
            self.ordered = len;
        }
    }
}

/// The order key of a move: a predicted capture by its size, else an unpredicted long sowing
/// (which may capture), else a killer (the first above the second), else its history. Chosen
/// by selects, not branches: which one applies is a coin toss.
#[inline(always)]
fn order_key(
    history: i32,
    first_killer: bool,
    second_killer: bool,
    gain: i32,
    unknown: bool,
) -> i32 {
    // Masks rather than `if`s: LLVM otherwise turns some of these selects into branches.
    let select = |condition: bool, value: i32, otherwise: i32| {
        let mask = -i32::from(condition);
        (value & mask) | (otherwise & !mask)
    };
    let mut key = history;
    key = select(second_killer, (1 << 22) - 1, key);
    key = select(first_killer, 1 << 22, key);
    key = select(gain > 0, (1 << 24) + gain * 1024, key);
    select(unknown, 1 << 23, key)
}

/// The history bucket of a move: by hole, and by the stones in it when
/// [`p::HISTORY_BY_COUNT`] is on. Mangala IV's pass (hole 16, no hole of the row) has
/// bucket 0.
#[inline(always)]
pub(super) fn history_bucket(pos: &Position, side: Side, hole: usize) -> usize {
    pos.row(side)
        .get(hole - 1)
        .map_or(0, |&stones| history_bucket_of(stones))
}

/// What orders a node's moves besides its scan: the mover's history and the ply's killers.
pub(super) struct MoveOrder<'a> {
    pub(super) history: &'a [[i32; HISTORY_BUCKETS]; 17],
    pub(super) killers: [Option<Move>; 2],
}

impl MoveOrder<'_> {
    /// The moves of `mask` in a list, by [`order_key`].
    ///
    /// Rows of up to nine holes get one lane per hole, every lane worked out whether or not
    /// its move is in `mask` (no loop over the moves, no branch: the compiler runs the lanes
    /// side by side).
    #[inline(always)]
    pub(super) fn lanes<const N: usize>(
        &self,
        pos: &Position,
        scan: &Scan,
        side: Side,
        mask: u16,
    ) -> OrderedMoves {
        let killer_bits = |killer: Option<Move>| killer.map_or(0, |mv| 1u32 << mv.mask_bit());
        let [first_killer, second_killer] = self.killers.map(killer_bits);
        let unknown = u32::from(scan.unknown());
        let row = &pos.ring_n::<N>()[side.index() * N..][..N];
        let mut entries = [i32::MIN; 9];
        for offset in 0..N {
            let lane = |bits: u32| (bits >> offset) & 1 != 0;
            let key = order_key(
                self.history[offset + 1][history_bucket_of(row[offset])],
                lane(first_killer),
                lane(second_killer),
                scan.exact_gain(offset),
                lane(unknown),
            );
            entries[offset] = if lane(u32::from(mask)) {
                OrderedMoves::entry(offset, key)
            } else {
                i32::MIN
            };
        }
        OrderedMoves {
            entries,
            len: mask.count_ones() as usize,
            ordered: 0,
        }
    }

    /// The same list built move by move: for Mangala IV, whose pass has mask bit 15 (no
    /// lane of a row).
    #[cold]
    pub(super) fn listed(
        &self,
        pos: &Position,
        scan: &Scan,
        side: Side,
        mut mask: u16,
    ) -> OrderedMoves {
        let mut list = OrderedMoves::EMPTY;
        let [first_killer, second_killer] = self.killers;
        while mask != 0 {
            let offset = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let hole = offset + 1;
            let mv = Some(Move::from_mask_bit(offset as u32));
            let key = order_key(
                self.history[hole][history_bucket(pos, side, hole)],
                mv == first_killer,
                mv == second_killer,
                scan.exact_gain(offset),
                scan.unknown() & (1 << offset) != 0,
            );
            list.push(offset, key);
        }
        list
    }
}

/// A move [`MovePicker::next`] hands out.
#[derive(Clone, Copy)]
pub(super) struct Picked {
    /// Its hole (1-based; Mangala IV's pass is 16).
    pub(super) hole: u8,
    /// Its number in the order, which its reduction follows: a move put off keeps the number
    /// it had (being busy elsewhere says nothing against a move).
    pub(super) number: usize,
    /// Whether it was put off once already (it is not put off again).
    pub(super) put_off_before: bool,
}

/// A node's moves in stages: the table's move, then the others in order (ordered only once
/// the table's move has been searched: a cutoff saves ordering them, and its subtree changes
/// the history), then the moves put off because another thread was searching them (see
/// `busy.rs`).
pub(super) struct MovePicker {
    tt_hole: Option<u8>,
    rest: Option<OrderedMoves>,
    next_in_rest: usize,
    /// The moves put off, each with its number in the order.
    deferred: [(u8, u8); 9],
    deferred_count: usize,
    next_deferred: usize,
}

impl MovePicker {
    /// A picker whose first move is the table's (`tt_hole`), if any.
    #[inline(always)]
    pub(super) fn new(tt_hole: Option<u8>) -> MovePicker {
        MovePicker {
            tt_hole,
            rest: None,
            next_in_rest: 0,
            deferred: [(0, 0); 9],
            deferred_count: 0,
            next_deferred: 0,
        }
    }

    /// The next move, `index` moves after the first (moves put off not counted); `order`
    /// makes the list of the moves other than the table's when it is first needed.
    #[inline(always)]
    pub(super) fn next(
        &mut self,
        index: usize,
        order: impl FnOnce() -> OrderedMoves,
    ) -> Option<Picked> {
        if let (0, Some(hole)) = (index, self.tt_hole) {
            return Some(Picked {
                hole,
                number: index,
                put_off_before: false,
            });
        }
        let list = self.rest.get_or_insert_with(order);
        if let Some(offset) = list.get(self.next_in_rest) {
            self.next_in_rest += 1;
            Some(Picked {
                hole: offset as u8 + 1,
                number: index,
                put_off_before: false,
            })
        } else if self.next_deferred < self.deferred_count {
            let (hole, number) = self.deferred[self.next_deferred];
            self.next_deferred += 1;
            Some(Picked {
                hole,
                number: usize::from(number),
                put_off_before: true,
            })
        } else {
            None
        }
    }

    /// Puts the move `hole`, number `index` in the order, off to the end.
    #[inline(always)]
    pub(super) fn defer(&mut self, hole: u8, index: usize) {
        self.deferred[self.deferred_count] = (hole, index as u8);
        self.deferred_count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{HISTORY_BUCKETS, MoveOrder, OrderedMoves};
    use crate::moves::Move;
    use crate::position::Position;
    use crate::search::TEST_SPECS as SPECS;
    use crate::search::{ordering, ordering::with_search_rows};
    use crate::variant::Variant;
    use proptest::prelude::*;

    proptest! {
        /// The move order's lanes (every hole worked out, the moves picked by mask) read the
        /// moves in the order the move-by-move list does, whatever the history, killers and
        /// left-out move, in every family with rows.
        #[test]
        fn move_order_lanes_match_the_list_built_move_by_move(
            spec in 0..SPECS.len() - 1,
            choices in prop::collection::vec(0usize..9, 0..120),
            history in prop::collection::vec(-20_000i32..20_000, 17 * HISTORY_BUCKETS),
            killers in prop::array::uniform2(prop::option::of(1u8..=9)),
            skip in 0u32..10,
        ) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut table = [[0; HISTORY_BUCKETS]; 17];
            for (slot, &value) in table.iter_mut().flatten().zip(&history) {
                *slot = value;
            }
            let order = MoveOrder { history: &table, killers: killers.map(|k| k.map(Move::hole)) };
            let mut pos = Position::start(variant);
            for choice in choices {
                let scan = ordering::Scan::new(&pos);
                let mask = pos.legal_mask() & !(1u16 << skip);
                let side = pos.side_to_move();
                let mut listed = order.listed(&pos, &scan, side, mask);
                let mut lanes = with_search_rows!(variant, N, _M => order.lanes::<N>(&pos, &scan, side, mask));
                let read = |list: &mut OrderedMoves| (0..10).map_while(|i| list.get(i)).collect::<Vec<_>>();
                prop_assert_eq!(read(&mut lanes), read(&mut listed), "{}", pos);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[choice % legal.len()]);
            }
        }

        /// The list reads the moves by key, highest first, ties in hole order (a stable
        /// sort), whether it is read to the end or only partly.
        #[test]
        fn move_list_reads_moves_in_stable_key_order(
            keys in prop::collection::vec(-40i32..40, 0..=9),
            reads in 0usize..=10,
        ) {
            let mut list = OrderedMoves::EMPTY;
            for (offset, &key) in keys.iter().enumerate() {
                list.push(offset, key);
            }
            let mut expected: Vec<usize> = (0..keys.len()).collect();
            expected.sort_by_key(|&offset| std::cmp::Reverse(keys[offset]));
            let read: Vec<usize> = (0..reads).map_while(|index| list.get(index)).collect();
            prop_assert_eq!(&read[..], &expected[..reads.min(keys.len())]);
        }
    }
}
