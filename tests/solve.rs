//! The Bestemshchi table against two deliberately plain solvers that share no code with
//! `src/solve` (they play with the plain rules of `tests/plain/` and index boards with hash
//! maps):
//!
//! 1. a game-tree search that follows the rules literally: the game's history is a list of
//!    the positions so far, and a line ends, as rule 3c says, when a position comes back. It
//!    knows nothing of levels, attractors or thresholds of a graph; it finds a value by
//!    asking "can the mover force at least t?" for a few t (each question a plain AND/OR
//!    search over the tree). The one shortcut it takes is given by the rules: after a capture
//!    the kazans hold more stones than in every earlier position, so none of those can come
//!    back and the game from there is a fresh game, whose value it memoizes.
//! 2. value iteration: the value of the game cut off after n plies (a cut-off line scores 0)
//!    for n = 0, 1, 2, .. until nothing changes. This is exactly the value of the game where
//!    endless play scores 0 (docs/solve.md), found without any retrograde step.

mod plain;

use std::collections::HashMap;

use plain::{PlainPos, PlainRules, play, row_stones};
use tuzdik::solve::Tablebase;
use tuzdik::solve::bestemshchi::board::to_position;
use tuzdik::{Side, Variant};

const HOLES: usize = 10;
const ROW: usize = 5;

fn rules() -> PlainRules {
    PlainRules::from_spec("bestemshchi").unwrap()
}

/// The game-tree search with explicit history.
struct HistorySearch {
    rules: PlainRules,
    /// Values of fresh games (empty history), by position with kazans 0-0.
    fresh: HashMap<PlainPos, i32>,
    /// Positions visited.
    nodes: u64,
}

impl HistorySearch {
    fn new() -> HistorySearch {
        HistorySearch {
            rules: rules(),
            fresh: HashMap::new(),
            nodes: 0,
        }
    }

    /// The future margin of the side to move in a game that starts at `pos` (kazans 0-0).
    fn fresh_value(&mut self, pos: &PlainPos) -> i32 {
        if let Some(&value) = self.fresh.get(pos) {
            return value;
        }
        let mut history = Vec::new();
        let value = self.value(pos, &mut history);
        self.fresh.insert(pos.clone(), value);
        value
    }

    /// The future margin of the side to move of `pos` reached after the positions `history`:
    /// the largest even `t` it can force (margins are even: captures are even and so is the
    /// board).
    fn value(&mut self, pos: &PlainPos, history: &mut Vec<PlainPos>) -> i32 {
        let stones: u32 = pos.holes.iter().sum();
        let (mut low, mut high) = (-(stones as i32), stones as i32);
        while low < high {
            let mid = ((low + high + 2).div_euclid(4) * 2).max(low + 2);
            if self.at_least(pos, history, mid) {
                low = mid;
            } else {
                high = mid - 2;
            }
        }
        low
    }

    /// Whether the side to move of `pos`, reached after `history`, can force a future
    /// margin of at least `t`.
    fn at_least(&mut self, pos: &PlainPos, history: &mut Vec<PlainPos>, t: i32) -> bool {
        self.nodes += 1;
        let mover = pos.side;
        let opponent = 1 - mover;
        // Rule 3a cannot apply: the kazans start at 0 and the boards here are small.
        assert!(pos.kazan[0] < self.rules.win_threshold());
        assert!(pos.kazan[1] < self.rules.win_threshold());
        // Rule 3b: every stone goes to its row's owner.
        if row_stones(&self.rules, pos, mover) == 0 {
            return -(row_stones(&self.rules, pos, opponent) as i32) >= t;
        }
        // Rule 3c: the board is shared equally, so the margin from here is 0.
        if history.contains(pos) {
            return 0 >= t;
        }
        let mut quiet = Vec::new();
        for hole in 1..=self.rules.n {
            if pos.holes[mover * self.rules.n + hole - 1] == 0 {
                continue;
            }
            let child = play(&self.rules, pos, hole);
            let gained = (child.kazan[mover] - pos.kazan[mover]) as i32;
            if gained > 0 {
                let mut fresh = child.clone();
                fresh.kazan = [0, 0];
                if gained - self.fresh_value(&fresh) >= t {
                    return true;
                }
            } else {
                quiet.push(child);
            }
        }
        // A quiet move reaches t when the opponent cannot force more than -t, that is at
        // least -t + 2.
        history.push(pos.clone());
        let mut found = false;
        for child in quiet {
            if !self.at_least(&child, history, 2 - t) {
                found = true;
                break;
            }
        }
        history.pop();
        found
    }
}

/// Every board with `k` stones, in the plain layout (mover's row first, as South).
fn boards(k: u32) -> Vec<Vec<u32>> {
    fn fill(prefix: &mut Vec<u32>, left: u32, out: &mut Vec<Vec<u32>>) {
        if prefix.len() == HOLES - 1 {
            prefix.push(left);
            out.push(prefix.clone());
            prefix.pop();
            return;
        }
        for here in 0..=left {
            prefix.push(here);
            fill(prefix, left - here, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    fill(&mut Vec::new(), k, &mut out);
    out
}

/// The plain position of a board (mover's row first) with `side` (0 South, 1 North) to move.
fn plain_position(board: &[u32], side: usize) -> PlainPos {
    let mut holes = vec![0u32; HOLES];
    for (i, &count) in board.iter().enumerate() {
        let ring = if side == 0 { i } else { (i + ROW) % HOLES };
        holes[ring] = count;
    }
    PlainPos {
        holes,
        kazan: [0, 0],
        tuzdik: [None, None],
        side,
    }
}

/// The table's answer for the same board through the engine's `Position` and `probe`.
fn probe(table: &Tablebase, board: &[u32], side: usize) -> Option<i32> {
    let k: u32 = board.iter().sum();
    let bytes: Vec<u8> = board.iter().map(|&c| c as u8).collect();
    let kazan = (50 - k) / 2;
    let engine_side = if side == 0 { Side::South } else { Side::North };
    let pos = to_position(
        &bytes.try_into().unwrap(),
        engine_side,
        [kazan, 50 - k - kazan],
    )?;
    assert_eq!(pos.variant(), Variant::new(tuzdik::Family::Bestemshchi));
    table.probe(&pos)
}

/// Checks every `step`-th board of level `k` (both sides to move) with the history search.
fn check_with_history_search(
    table: &Tablebase,
    search: &mut HistorySearch,
    k: u32,
    step: usize,
) -> usize {
    let mut checked = 0;
    for board in boards(k).into_iter().step_by(step) {
        for side in 0..2 {
            let plain = search.fresh_value(&plain_position(&board, side));
            assert_eq!(
                probe(table, &board, side),
                Some(plain),
                "{board:?} side {side}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_history_search_agrees_on_every_board_up_to_four_stones() {
    let table = Tablebase::build_in_memory(4);
    let mut search = HistorySearch::new();
    let mut checked = 0;
    for k in [0, 2, 4] {
        checked += check_with_history_search(&table, &mut search, k, 1);
    }
    assert_eq!(checked, 2 * (1 + 55 + 715));
}

#[test]
fn the_history_search_agrees_on_sampled_boards_with_six_stones() {
    let table = Tablebase::build_in_memory(6);
    let mut search = HistorySearch::new();
    let checked = check_with_history_search(&table, &mut search, 6, 23);
    assert!(checked > 400);
}

/// Slow in a debug build: `cargo test --release --test solve -- --ignored`.
#[test]
#[ignore]
fn the_history_search_agrees_on_every_board_with_six_and_eight_stones() {
    let table = Tablebase::build_in_memory(8);
    let mut search = HistorySearch::new();
    let started = std::time::Instant::now();
    let checked = check_with_history_search(&table, &mut search, 6, 1);
    assert_eq!(checked, 2 * 5005);
    eprintln!(
        "level 6: {checked} boards, {} nodes, {:?}",
        search.nodes,
        started.elapsed()
    );
    let checked = check_with_history_search(&table, &mut search, 8, 1);
    assert_eq!(checked, 2 * 24310);
    eprintln!(
        "level 8: {checked} boards, {} nodes, {:?}",
        search.nodes,
        started.elapsed()
    );
}

/// Value iteration over one level at a time, lower levels first.
struct ValueIteration {
    rules: PlainRules,
    values: HashMap<PlainPos, i32>,
    /// Sweeps the last level needed before nothing changed.
    sweeps: usize,
}

impl ValueIteration {
    fn new() -> ValueIteration {
        ValueIteration {
            rules: rules(),
            values: HashMap::new(),
            sweeps: 0,
        }
    }

    /// Solves level `k`; the lower levels must be solved.
    fn solve_level(&mut self, k: u32) {
        let positions: Vec<PlainPos> = boards(k)
            .iter()
            .flat_map(|board| [plain_position(board, 0), plain_position(board, 1)])
            .collect();
        let index: HashMap<PlainPos, usize> = positions
            .iter()
            .enumerate()
            .map(|(i, pos)| (pos.clone(), i))
            .collect();
        // For each position: the best value of its moves that leave the level or end the
        // game, and the positions its other moves lead to.
        let mut exits = vec![i32::MIN; positions.len()];
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
        let mut current = vec![0; positions.len()];
        let mut fixed = vec![false; positions.len()];
        for (i, pos) in positions.iter().enumerate() {
            let mover = pos.side;
            if row_stones(&self.rules, pos, mover) == 0 {
                current[i] = -(row_stones(&self.rules, pos, 1 - mover) as i32);
                fixed[i] = true;
                continue;
            }
            for hole in 1..=self.rules.n {
                if pos.holes[mover * self.rules.n + hole - 1] == 0 {
                    continue;
                }
                let mut child = play(&self.rules, pos, hole);
                let gained = (child.kazan[mover] - pos.kazan[mover]) as i32;
                child.kazan = [0, 0];
                if gained > 0 {
                    exits[i] = exits[i].max(gained - self.values[&child]);
                } else {
                    edges[i].push(index[&child]);
                }
            }
        }
        // V_0 = 0; V_{n+1}(p) = max(exits, -V_n(child)). Once a sweep changes nothing, no
        // later one will.
        self.sweeps = 0;
        loop {
            self.sweeps += 1;
            let next: Vec<i32> = (0..positions.len())
                .map(|i| {
                    if fixed[i] {
                        return current[i];
                    }
                    edges[i]
                        .iter()
                        .map(|&child| -current[child])
                        .fold(exits[i], i32::max)
                })
                .collect();
            if next == current {
                break;
            }
            current = next;
        }
        for (pos, value) in positions.into_iter().zip(current) {
            self.values.insert(pos, value);
        }
    }
}

#[test]
fn value_iteration_agrees_on_every_board_up_to_eight_stones() {
    let table = Tablebase::build_in_memory(8);
    let mut iteration = ValueIteration::new();
    let mut checked = 0;
    let mut nonzero = 0;
    for k in (0..=8).step_by(2) {
        iteration.solve_level(k);
        for board in boards(k) {
            for side in 0..2 {
                let value = iteration.values[&plain_position(&board, side)];
                assert_eq!(
                    probe(&table, &board, side),
                    Some(value),
                    "{board:?} side {side}"
                );
                checked += 1;
                nonzero += usize::from(value != 0);
            }
        }
        eprintln!("level {k}: {} sweeps", iteration.sweeps);
    }
    assert_eq!(checked, 2 * (1 + 55 + 715 + 5005 + 24310));
    assert!(nonzero > checked / 2, "{nonzero} of {checked} nonzero");
}

/// `tuzdik solve` with the real binary.
fn solve_command(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .arg("solve")
        .args(args)
        .output()
        .unwrap()
}

/// Bad arguments are refused before any level is built: no line of progress, no file.
#[test]
fn bad_probes_and_outputs_are_refused_before_any_work() {
    let dir = std::env::temp_dir().join(format!("tuzdik-solve-args-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    for variant in ["bestemshchi", "togyz"] {
        let stones = if variant == "togyz" { "3" } else { "12" };
        let run = solve_command(&[
            variant,
            "--max-stones",
            stones,
            "--out",
            out,
            "--probe",
            "garbage",
        ]);
        let error = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{variant}: {error}");
        assert!(error.contains("--probe garbage"), "{variant}: {error}");
        assert!(run.stdout.is_empty(), "{variant} built before refusing");
        assert!(!dir.exists(), "{variant}: files were written");
    }
    // A file where the output directory should be: nothing can be written under it.
    std::fs::write(&dir, b"not a directory").unwrap();
    let inside = dir.join("tables");
    for variant in ["bestemshchi", "togyz"] {
        let run = solve_command(&[
            variant,
            "--max-stones",
            "2",
            "--out",
            inside.to_str().unwrap(),
        ]);
        let error = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{variant}: {error}");
        assert!(error.contains("--out"), "{variant}: {error}");
        assert!(run.stdout.is_empty(), "{variant} built before refusing");
    }
    std::fs::remove_file(&dir).unwrap();
}

/// Level files written by the first version of the file formats (before the two solvers
/// became one, `tests/data/tables-v1/`) load unchanged, hold what a build gives today, and a
/// build today writes them byte for byte.
#[test]
fn tables_written_by_the_first_format_still_load() {
    use tuzdik::solve::toguz::ToguzTable;
    let old = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tables-v1");
    let bestemshchi = Tablebase::load(&old, None).unwrap();
    assert_eq!(bestemshchi.max_stones(), 4);
    assert_eq!(bestemshchi.levels(), Tablebase::build_in_memory(4).levels());
    let togyz = ToguzTable::load(&old).unwrap().unwrap();
    assert_eq!(togyz.max_stones(), 1);
    let fresh = ToguzTable::build_in_memory(Variant::TOGYZ, 1).unwrap();
    assert_eq!(togyz.levels(), fresh.levels());

    let dir = std::env::temp_dir().join(format!("tuzdik-format-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Tablebase::build_in_memory(4).save(&dir).unwrap();
    fresh.save(&dir).unwrap();
    for name in [
        "bestemshchi-k00.bin",
        "bestemshchi-k02.bin",
        "bestemshchi-k04.bin",
        "togyz-00.tzt",
        "togyz-01.tzt",
    ] {
        let written = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(written, std::fs::read(old.join(name)).unwrap(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
