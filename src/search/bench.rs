//! `bench`: fixed-depth searches over `positions/bench.txt` on one thread with a fresh 16 MiB
//! table per position. The node total depends only on the code, so it is the search's
//! signature: any change to it shows up there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Engine, Limits, StopHandle};
use crate::game::Game;
use crate::nnue::Network;
use crate::variant::Variant;

/// The built-in bench list (one `<variant spec> ; <position string>` per line).
pub const BENCH_POSITIONS: &str = include_str!("../../positions/bench.txt");

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 13;

/// The bench's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
    /// Positions searched.
    pub positions: usize,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Parses the bench list.
pub fn positions() -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (number, line) in BENCH_POSITIONS.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (spec, fen) = line.split_once(';').ok_or_else(|| {
            format!(
                "bench.txt line {}: expected '<variant> ; <position>'",
                number + 1
            )
        })?;
        let variant: Variant = spec
            .trim()
            .parse()
            .map_err(|e| format!("bench.txt line {}: {e}", number + 1))?;
        let game = Game::from_fen(fen.trim(), variant)
            .map_err(|e| format!("bench.txt line {}: {e}", number + 1))?;
        games.push(game);
    }
    Ok(games)
}

/// Runs the bench at `depth`, calling `each` after every position with its index and nodes.
/// `stop` can stop it early (the result then covers the positions finished before). With a
/// `network`, the Toguz Kumalak positions are evaluated by it: another node count, as
/// deterministic.
pub fn run(
    depth: u32,
    network: Option<Arc<Network>>,
    stop: &StopHandle,
    mut each: impl FnMut(usize, u64),
) -> Result<BenchResult, String> {
    let games = positions()?;
    let mut engine = Engine::new();
    engine.set_network(network);
    engine
        .set_hash_mib(16)
        .map_err(|error| format!("bench: {error}"))?;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut result = BenchResult {
        nodes: 0,
        time: Duration::ZERO,
        positions: 0,
    };
    for (index, game) in games.iter().enumerate() {
        if stop.stopped() {
            break;
        }
        engine.clear();
        let started = Instant::now();
        let outcome = engine.search_with(game, &limits, stop, |_| {});
        // A position the stop cut short is not counted: its nodes are no bench figure.
        if stop.stopped() {
            break;
        }
        result.time += started.elapsed();
        result.nodes += outcome.nodes;
        result.positions += 1;
        each(index, outcome.nodes);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench's node count is the search's signature: a change that alters it must record
    /// the new count in the CHANGELOG.
    #[test]
    fn the_bench_signature_is_recorded_in_the_changelog() {
        // The engine's default evaluation: the embedded net for Toguz Kumalak.
        let network = Some(crate::nnue::embedded());
        let result = run(DEFAULT_DEPTH, network, &StopHandle::new(), |_, _| {}).unwrap();
        assert_eq!(result.positions, positions().unwrap().len());
        let signature = format!("{} nodes", result.nodes);
        assert!(
            include_str!("../../CHANGELOG.md").contains(&signature),
            "the bench signature ({signature}) is not in CHANGELOG.md: record it in the \
             entry of the change that made it"
        );
    }

    /// With a net the bench is as deterministic (its signature with that net), the net is
    /// used (the Toguz Kumalak positions' counts change) and only there (the other
    /// families' counts stay).
    #[test]
    fn the_bench_with_a_net_is_deterministic_and_uses_it_for_toguz_kumalak_only() {
        let depth = 5;
        let counts = |network: Option<Arc<Network>>| {
            let mut counts = Vec::new();
            run(depth, network, &StopHandle::new(), |_, nodes| {
                counts.push(nodes)
            })
            .unwrap();
            counts
        };
        let network = Some(Arc::new(Network::seeded(11)));
        let with_net = counts(network.clone());
        assert_eq!(with_net, counts(network));
        let without = counts(None);
        let games = positions().unwrap();
        let mut togyz_differ = 0;
        for ((game, with_net), without) in games.iter().zip(&with_net).zip(&without) {
            if crate::nnue::supports(game.position().variant()) {
                togyz_differ += usize::from(with_net != without);
            } else {
                assert_eq!(with_net, without, "{}", game.fen());
            }
        }
        assert!(togyz_differ > 0);
    }
}
