//! The bare search: fixed-depth alpha-beta on the engine's own make and board score, and
//! nothing else (no table, no move order, no quiescence, no pruning, no time checks).
//!
//! It answers one question on a machine whose speed changes from hour to hour: how fast
//! could any search built on these rules and this evaluation go here, right now? Its nodes
//! per second are a ceiling for the real search's (every node of the real search does at
//! least what a bare node does), and the ratio of the two, measured side by side, is a
//! figure of the search's own overhead that the machine's spell cancels out of
//! (`tuzdik bench --bare`).

use std::time::{Duration, Instant};

use super::bench::{BenchResult, positions};
use super::ordering::ring_words;
use super::score::{INFINITY, take_score, terminal_score};
use super::{StopHandle, eval};
use crate::position::Position;

/// The default depth of `tuzdik bench --bare`: about as many nodes as the real bench.
pub const DEFAULT_DEPTH: u32 = 8;

/// The score of `pos` by plain alpha-beta to `depth` plies, with the board score
/// ([`eval::board_score`]) at the horizon and the final result at a finished game, and the
/// nodes visited (the root counts as one).
///
/// ```
/// use tuzdik::search::bare::alpha_beta;
/// use tuzdik::{Position, Variant};
///
/// let (_, nodes) = alpha_beta(&Position::start(Variant::TOGYZ), 1);
/// assert_eq!(nodes, 10); // the root and its nine children
/// ```
pub fn alpha_beta(pos: &Position, depth: u32) -> (i32, u64) {
    let mut nodes = 0;
    let score = negamax(
        pos,
        pos.legal_mask(),
        depth,
        -INFINITY,
        INFINITY,
        0,
        &mut nodes,
    );
    (score, nodes)
}

fn negamax(
    pos: &Position,
    moves: u16,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if moves == 0 {
        return terminal_score(pos, ply);
    }
    if depth == 0 {
        return eval::board_score(pos, &ring_words(pos));
    }
    let mut best = -INFINITY;
    let mut bits = moves;
    while bits != 0 {
        let bit = bits.trailing_zeros();
        bits &= bits - 1;
        let mut child = *pos;
        let child_moves = child.play_unhashed_moves(bit);
        let score = -negamax(
            &child,
            child_moves,
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
            nodes,
        );
        if take_score(score, &mut best, &mut alpha, beta) {
            break;
        }
    }
    best
}

/// Runs the bare search over the bench positions at `depth`, calling `each` after every
/// position with its index and nodes; `control` can stop it between positions.
pub fn run(
    depth: u32,
    control: &StopHandle,
    mut each: impl FnMut(usize, u64),
) -> Result<BenchResult, String> {
    let games = positions()?;
    let mut result = BenchResult {
        nodes: 0,
        time: Duration::ZERO,
        positions: 0,
    };
    for (index, game) in games.iter().enumerate() {
        if control.stopped() {
            break;
        }
        let started = Instant::now();
        let (_, nodes) = alpha_beta(game.position(), depth);
        result.time += started.elapsed();
        result.nodes += nodes;
        result.positions += 1;
        each(index, nodes);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use proptest::prelude::*;

    /// Minimax without pruning, on the public API: what alpha-beta must agree with.
    fn minimax(pos: &Position, depth: u32, ply: usize) -> (i32, u64) {
        if pos.legal_mask() == 0 {
            return (terminal_score(pos, ply), 1);
        }
        if depth == 0 {
            return (eval::board_score(pos, &ring_words(pos)), 1);
        }
        let mut best = -INFINITY;
        let mut nodes = 1;
        for mv in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let (score, below) = minimax(&child, depth - 1, ply + 1);
            best = best.max(-score);
            nodes += below;
        }
        (best, nodes)
    }

    fn family(index: usize) -> Variant {
        [
            Variant::TOGYZ,
            Variant::new(crate::Family::Kozdatu),
            Variant::new(crate::Family::Bestemshchi),
            Variant::new(crate::Family::Mangala4),
        ][index]
    }

    proptest! {
        #[test]
        fn alpha_beta_scores_as_minimax_with_fewer_nodes(
            moves in prop::collection::vec(0usize..9, 0..80),
            which in 0usize..4,
            depth in 0u32..4,
        ) {
            let mut pos = Position::start(family(which));
            for choice in moves {
                let legal = pos.legal_moves();
                if legal.is_empty() { break; }
                pos.play_unchecked(legal[choice % legal.len()]);
            }
            let (score, nodes) = alpha_beta(&pos, depth);
            let (expected, all) = minimax(&pos, depth, 0);
            prop_assert_eq!(score, expected);
            prop_assert!(nodes <= all, "{} nodes, minimax {}", nodes, all);
        }
    }

    #[test]
    fn a_finished_game_is_one_node_with_its_result() {
        // South has 82 stones: over the win line, so the game is over and South has won.
        let pos: Position = "0,0,1,1,0,0,1,0,0/0,0,0,0,0,0,1,2,0 82 74 b"
            .parse()
            .unwrap();
        assert_eq!(alpha_beta(&pos, 6), (-super::super::MATE, 1));
    }

    #[test]
    fn the_run_covers_every_bench_position_and_can_be_stopped() {
        let control = StopHandle::new();
        let mut seen = Vec::new();
        let result = run(2, &control, |index, nodes| seen.push((index, nodes))).unwrap();
        assert_eq!(result.positions, positions().unwrap().len());
        assert_eq!(result.nodes, seen.iter().map(|&(_, n)| n).sum::<u64>());
        control.stop();
        assert_eq!(run(2, &control, |_, _| {}).unwrap().positions, 0);
    }
}
