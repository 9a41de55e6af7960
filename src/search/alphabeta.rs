//! The alpha-beta core: the principal-variation search of a node's moves with its pruning,
//! reductions and extensions, and the quiescence search of captures below the horizon.

use super::MAX_PLY;
use super::eval;
use super::node::{FirstTests, Node, hash_n, kazan_total, make_child, position_hash, scan_n};
use super::ordering::{self, Gain};
use super::parameters::search as p;
use super::picker::{MovePicker, OrderedMoves, Picked};
use super::score::{
    INFINITY, MATE, MATE_BOUND, outcome_score, score_from_tt, score_to_tt, take_score,
    terminal_score,
};
use super::tt::Bound;
use super::worker::Worker;
use crate::moves::Move;
use crate::nnue::{self, Network};
use crate::position::Position;

/// While above 0, every node's accumulator is checked against a refresh (tests raise it).
#[cfg(test)]
pub(super) static VERIFYING_ACCUMULATORS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

impl Worker<'_> {
    /// The evaluation of the node at `ply` less its threat term: the net's, when one is set
    /// (it is only for Toguz Kumalak's standard rules, whose row length is [`nnue::HOLES`]:
    /// the test compiles away for the others), else the hand-crafted board score.
    #[inline(always)]
    pub(super) fn board_score<const N: usize, const MANGALA: bool>(
        &mut self,
        pos: &Position,
        words: &ordering::Words,
        ply: usize,
    ) -> i32 {
        if N == nnue::HOLES
            && !MANGALA
            && let Some(network) = self.network
        {
            return self.network_score(network, pos, ply);
        }
        eval::board_score_n::<N>(pos, words)
    }

    /// The net's evaluation of the node at `ply`: its accumulator is its parent's (the one
    /// evaluated last at `ply - 1`) updated by the slots whose holes, kazans or tuzdiks the
    /// move changed, copied and updated in one pass. Whatever position the parent's
    /// accumulator holds, the update diffs against it, so a stale one costs time, never
    /// correctness.
    #[inline(never)]
    fn network_score(&mut self, network: &Network, pos: &Position, ply: usize) -> i32 {
        // The stack starts with the root's alone and grows with the depth reached: hundreds
        // of helpers in a short search would otherwise each copy a whole stack first.
        if self.accumulators.len() <= ply {
            let root = self.accumulators[0].clone();
            self.accumulators.resize(ply + 1, root);
        }
        let (parents, rest) = self.accumulators.split_at_mut(ply);
        let accumulator = &mut rest[0];
        match parents.last() {
            Some(parent) => accumulator.update_from(parent, network, pos),
            None => accumulator.update(network, pos),
        };
        // Checked at every node while a test asks for it: the incremental sums are the sums
        // from scratch. (Not always: a refresh a node made every other test of a search with
        // the built-in net, and the debug binary, several times slower.)
        #[cfg(test)]
        if VERIFYING_ACCUMULATORS.load(std::sync::atomic::Ordering::Relaxed) > 0 {
            assert_eq!(
                accumulator.values,
                nnue::Accumulator::refresh(network, pos).values,
                "{pos}"
            );
        }
        network
            .evaluate(accumulator, pos)
            .clamp(-eval::BOARD_LIMIT, eval::BOARD_LIMIT)
    }

    /// Captures only, below the horizon. `moves` is `pos.legal_mask()`.
    ///
    /// Most calls end at the first test, so it is inlined into its callers and the rest is
    /// a function of its own ([`quiescence_moves`](Self::quiescence_moves)).
    #[inline(always)]
    pub(super) fn quiescence<const N: usize, const MANGALA: bool>(
        &mut self,
        pos: &Position,
        moves: u16,
        alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if moves == 0 {
            return terminal_score(pos, ply);
        }
        let words = ordering::ring_words_n::<N>(pos);
        let board = self.board_score::<N, MANGALA>(pos, &words, ply);
        // The threat term only adds: when the rest of the evaluation stands pat already, the
        // moves need no scan.
        if board >= beta {
            return board;
        }
        self.quiescence_moves::<N, MANGALA>(pos, moves, alpha, beta, ply, qdepth, &words, board)
    }

    /// The part of [`quiescence`](Self::quiescence) after the board score failed to stand
    /// pat: the scan, the threat term and the captures.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn quiescence_moves<const N: usize, const MANGALA: bool>(
        &mut self,
        pos: &Position,
        moves: u16,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        words: &ordering::Words,
        board: i32,
    ) -> i32 {
        let scan = scan_n::<N, MANGALA>(pos, moves, words);
        let stand_pat = board + eval::threat_score(&scan);
        if stand_pat >= beta || ply >= MAX_PLY || qdepth >= p::QUIESCENCE_MAX_PLY {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        // Predicted captures by size, then the long sowings that may capture (key 1).
        let mut captures = OrderedMoves::EMPTY;
        let mut bits = moves;
        while bits != 0 {
            let offset = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            match scan.gain(offset) {
                Gain::Exact(gain) if gain >= 2 => captures.push(offset, gain),
                Gain::Exact(_) => {}
                Gain::Unknown => captures.push(offset, 1),
            }
        }
        let side = pos.side_to_move();
        let before = pos.kazan(side);
        let mut index = 0;
        while let Some(offset) = captures.get(index) {
            index += 1;
            let mut child = *pos;
            let child_moves = make_child::<N, MANGALA>(&mut child, offset);
            if child.kazan(side) < before + 2 {
                continue;
            }
            let score = -self.quiescence::<N, MANGALA>(
                &child,
                child_moves,
                -beta,
                -alpha,
                ply + 1,
                qdepth + 1,
            );
            if self.stopped {
                return 0;
            }
            if take_score(score, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The score of a node that ends before its moves are looked at for a reason other than
    /// its evaluation: the end of the game, a repetition or a table hit. `None` for the
    /// others. Such nodes are rare, so [`negamax`](Self::negamax) rules them out with three
    /// comparisons and leaves the rest to this.
    #[cold]
    #[inline(never)]
    pub(super) fn settled_score(&mut self, node: &Node, ply: usize, total: u32) -> Option<i32> {
        let Node {
            ref pos,
            moves,
            hash,
        } = *node;
        if moves == 0 {
            // Counted as every node is, so that a node limit stays exact.
            self.tick();
            return Some(terminal_score(pos, ply));
        }
        let repeated = self.may_repeat(ply, total) && {
            let hash = hash.unwrap_or_else(|| position_hash(pos));
            self.is_repetition(ply, hash, total)
        };
        if repeated {
            self.tick();
            let shared = pos.shared_scores();
            let us = pos.side_to_move().index();
            return Some(outcome_score(shared[us], shared[1 - us], ply));
        }
        if total >= self.probe_from_kazans
            && let Some(score) = self.probe_table(pos, ply, total)
        {
            self.tick();
            return Some(score);
        }
        None
    }

    /// The main search. The node's hash may be left out (`None`): it is worked out here when
    /// a repetition check that the kazans do not rule out or the table needs it.
    ///
    /// Most nodes end within the first few tests, on their evaluation alone: those tests are
    /// inlined into the callers, and the search of the moves is a function of its own
    /// ([`search_moves`](Self::search_moves)), so that a node that ends early costs no call.
    #[inline(always)]
    pub(super) fn negamax<const N: usize, const MANGALA: bool>(
        &mut self,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let pos = &node.pos;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        let total = kazan_total(pos);
        if (node.moves == 0 || self.may_repeat(ply, total) || total >= self.probe_from_kazans)
            && let Some(score) = self.settled_score(node, ply, total)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence::<N, MANGALA>(pos, node.moves, alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // A win cannot come sooner than the next ply, nor a loss.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Reverse futility: far above beta near the horizon, a quiet position will stay there.
        // Decided before the table is read: most nodes near the horizon end here, and the
        // probe is a cache miss. The evaluation less its threat term is a lower bound of it,
        // and often enough on its own: then the moves need no scan either.
        let futile = !pv_node && depth <= p::RFP_MAX_DEPTH && beta.abs() < MATE_BOUND;
        let words = ordering::ring_words_n::<N>(pos);
        let board = self.board_score::<N, MANGALA>(pos, &words, ply);
        self.board_scores[ply] = board;
        let improving = ply >= 2 && board > self.board_scores[ply - 2];
        let margin = p::RFP_MARGIN * (depth - i32::from(p::IMPROVING_RFP && improving));
        if futile && board - margin >= beta {
            return board;
        }
        let first = FirstTests {
            pv_node,
            futile,
            improving,
            margin,
            total,
            words,
            board,
        };
        // Frontier nodes get a search of their own, compiled for depth 1: their children are
        // all quiescence nodes, so the horizon test a child would make (a branch the
        // predictor misses often, after the parent's own work) is decided when compiling.
        if depth == 1 {
            self.search_moves::<N, MANGALA, true>(node, 1, alpha, beta, ply, &first)
        } else {
            self.search_moves::<N, MANGALA, false>(node, depth, alpha, beta, ply, &first)
        }
    }

    /// The part of [`negamax`](Self::negamax) after the node's first tests (`first`), with
    /// `alpha` and `beta` narrowed by the mate distance. `FRONTIER` compiles it for depth 1,
    /// where `depth` must be 1.
    #[inline(never)]
    pub(super) fn search_moves<const N: usize, const MANGALA: bool, const FRONTIER: bool>(
        &mut self,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        first: &FirstTests,
    ) -> i32 {
        let Node {
            ref pos,
            moves,
            hash,
        } = *node;
        let FirstTests {
            pv_node,
            futile,
            improving,
            margin,
            total,
            ref words,
            board,
        } = *first;
        debug_assert!(!FRONTIER || depth == 1);
        let depth = if FRONTIER { 1 } else { depth };
        // Frontier nodes are most of the tree and their entries save little: skipping the
        // table there saves a cache miss per node.
        let use_table = depth >= 2;
        let tt = &*self.shared.tt;
        // A hash the parent did not work out (it fetches its children's buckets only where
        // they read the table) is worked out now, and its bucket fetched during the scan.
        let hash = hash.unwrap_or_else(|| {
            let hash = hash_n::<N>(pos);
            if use_table {
                tt.prefetch(hash);
            }
            hash
        });
        // The moves are scanned only when something reads the scan: the full evaluation here
        // for a futile node, else the move order, made after the table's cutoff and its move.
        let scan_moves = || scan_n::<N, MANGALA>(pos, moves, words);
        let mut scan = None;
        if futile {
            let static_eval = board + eval::threat_score(scan.insert(scan_moves()));
            if static_eval - margin >= beta {
                return static_eval;
            }
        }
        // The path up to here, for the repetition checks of the nodes below.
        self.path[self.base + ply] = (hash, total);

        let excluded = self.excluded[ply];
        let hit = if use_table && excluded.is_none() {
            tt.probe(hash)
        } else {
            None
        };
        let tt_hole = hit
            .and_then(|h| h.mv)
            .and_then(Move::source)
            .filter(|&hole| moves & (1 << (hole - 1)) != 0);
        if let Some(hit) = hit
            && !pv_node
            && i32::from(hit.depth) >= depth
        {
            let score = score_from_tt(hit.score, ply);
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        let mut tt_extension = 0;
        if p::SINGULAR_MIN_DEPTH > 0
            && depth >= p::SINGULAR_MIN_DEPTH
            && excluded.is_none()
            && ply < 2 * self.depth as usize
            && let (Some(hit), Some(hole)) = (hit, tt_hole)
            && hit.bound != Bound::Upper
            && i32::from(hit.depth) >= depth - 3
        {
            let tt_score = score_from_tt(hit.score, ply);
            if tt_score.abs() < MATE_BOUND {
                match self
                    .singular_extension::<N, MANGALA>(node, depth, beta, ply, first, hole, tt_score)
                {
                    Ok(extension) => tt_extension = extension,
                    Err(score) => return score,
                }
            }
        }

        let depth = if p::IIR_MIN_DEPTH > 0 && depth >= p::IIR_MIN_DEPTH && tt_hole.is_none() {
            depth - 1
        } else {
            depth
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut index = 0;
        let mover = pos.side_to_move();
        let kazan_before = pos.kazan(mover);
        // Children that may read their entries get their buckets fetched as soon as they are
        // made. Children at depth 0 get their hashes only if their repetition check needs
        // them.
        let prefetch = depth >= 3;
        let make = |slot: &mut Node, offset: usize| {
            slot.pos = *pos;
            slot.moves = make_child::<N, MANGALA>(&mut slot.pos, offset);
            slot.hash = prefetch.then(|| hash_n::<N>(&slot.pos));
            if let Some(hash) = slot.hash {
                tt.prefetch(hash);
            }
        };
        // The child being searched, made in place: copying a position just written field by
        // field would stall on store forwarding.
        let mut child = Node {
            pos: *pos,
            moves: 0,
            hash: None,
        };
        let mut picker = MovePicker::new(tt_hole);
        // With several threads, moves another thread is searching when their turn comes are
        // put off to the end (see `busy.rs`).
        let busy = self
            .shared
            .busy
            .as_ref()
            .filter(|_| depth >= p::DEFER_MIN_DEPTH);
        while let Some(Picked {
            hole,
            number,
            put_off_before,
        }) = picker.next(index, || {
            let scan = scan.get_or_insert_with(scan_moves);
            self.ordered_moves::<N, MANGALA>(pos, scan, mover, ply, tt_hole.or(excluded))
        }) {
            // Bitwise rather than short-circuit: each test alone is a coin toss to the branch
            // predictor, their conjunction seldom holds.
            let prunable = (index > 0) & !pv_node & (best > -MATE_BOUND);
            let late = prunable
                & (depth <= p::LMP_MAX_DEPTH)
                & (index >= p::LMP_BASE + (depth * depth) as usize);
            // A late move the scan predicts to be quiet is pruned before it is made.
            if late
                && scan
                    .as_ref()
                    .is_some_and(|scan| scan.predicts_quiet(usize::from(hole - 1)))
            {
                index += 1;
                continue;
            }
            make(&mut child, usize::from(hole - 1));
            let child = &child;
            let mv = Move::from_mask_bit(u32::from(hole) - 1);
            let quiet = child.pos.kazan(mover) == kazan_before;
            if late & quiet {
                index += 1;
                continue;
            }
            if let Some(busy) = busy {
                if index > 0 && !put_off_before && busy.is_busy(hash, hole) {
                    picker.defer(hole, index);
                    continue;
                }
                busy.enter(hash, hole);
            }
            let mut score;
            if index == 0 {
                let extension = if Some(hole) == tt_hole {
                    tt_extension
                } else {
                    0
                };
                score = -self.negamax::<N, MANGALA>(
                    child,
                    depth - 1 + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                );
            } else {
                let mut reduction = 0;
                if depth >= p::LMR_MIN_DEPTH && number >= p::LMR_MIN_MOVE && quiet {
                    reduction = self.lmr.get(depth, number) - i32::from(pv_node)
                        + i32::from(p::IMPROVING_LMR && !improving);
                    if self.killers[ply][0] == Some(mv) || self.killers[ply][1] == Some(mv) {
                        reduction -= 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                score = -self.negamax::<N, MANGALA>(
                    child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                );
                // A stop inside a search leaves its score meaningless: no re-search.
                if score > alpha && reduction > 0 && !self.stopped {
                    score =
                        -self.negamax::<N, MANGALA>(child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax::<N, MANGALA>(child, depth - 1, -beta, -alpha, ply + 1);
                }
            }
            if let Some(busy) = busy {
                busy.leave(hash, hole);
            }
            index += 1;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.pv[ply][ply] = mv;
                    for next in ply + 1..self.pv_len[ply + 1] {
                        self.pv[ply][next] = self.pv[ply + 1][next];
                    }
                    self.pv_len[ply] = self.pv_len[ply + 1].max(ply + 1);
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_table && excluded.is_none() {
            self.shared.tt.store(
                hash,
                score_to_tt(best, ply),
                board.clamp(-INFINITY, INFINITY) as i16,
                best_move,
                bound,
                depth.clamp(0, 255) as u8,
            );
        }
        best
    }

    /// Singular extension of the table move (hole `hole`, table score `tt_score`) at a node
    /// of `depth`: when it beats every other move by a margin (a null-window search of the
    /// others, at half depth, fails low below its score less the margin), it is searched one
    /// ply deeper (`Ok(1)`). When the others reach even that bound and it is at least beta,
    /// the node fails high at once with it (multi-cut: `Err(bound)`); when only the table's
    /// score is at least beta, the table move is searched one ply shallower (`Ok(-1)`: other
    /// moves are likely to cut as well). A stop is `Err(0)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn singular_extension<const N: usize, const MANGALA: bool>(
        &mut self,
        node: &Node,
        depth: i32,
        beta: i32,
        ply: usize,
        first: &FirstTests,
        hole: u8,
        tt_score: i32,
    ) -> Result<i32, i32> {
        let singular_beta = tt_score - p::SINGULAR_MARGIN * depth;
        let others = FirstTests {
            pv_node: false,
            futile: false,
            ..*first
        };
        self.excluded[ply] = Some(hole);
        let score = self.search_moves::<N, MANGALA, false>(
            node,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            &others,
        );
        self.excluded[ply] = None;
        self.pv_len[ply] = ply;
        if self.stopped {
            Err(0)
        } else if score < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }
}
