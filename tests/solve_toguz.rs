//! The Toguz table (`src/solve/toguz`) against deliberately plain solvers that share no code
//! with it: they play with the plain rules of `tests/plain/`, read positions from their
//! strings, and keep values in hash maps.
//!
//! 1. A game-tree search that follows the rules literally: the game's history is a list of
//!    the positions so far, and a line ends, as rule 3c says, when a position comes back. It
//!    asks "can the mover force at least t?" for a few t by plain AND/OR search. Its one
//!    shortcut is given by the rules: once a stone reaches a kazan, the kazans hold more than
//!    in every earlier position, so none of those can recur and the rest is a fresh game,
//!    whose value it memoizes.
//! 2. Value iteration: the value of the game cut off after n plies (a cut-off line scores 0)
//!    for n = 0, 1, 2, .. until a sweep changes nothing; with rule 3c scoring endless play 0
//!    this limit is the game's value (docs/solve-toguz.md), found without any un-move.
//! 3. The Bestemshchi table of `src/solve` (written separately, for boards without tuzdik):
//!    the same generic code run on 2x5 without tuzdik must give the same numbers.

mod plain;

use std::collections::HashMap;

use plain::{PlainPos, PlainRules, play, row_stones};
use proptest::prelude::*;
use tuzdik::solve::toguz::board::{Board, Geometry, MAX_RING, NONE, to_position};
use tuzdik::solve::toguz::index::{LevelIndex, level_size};
use tuzdik::solve::toguz::{MarginTable, ToguzTable, file};
use tuzdik::solve::{TableError, Tablebase};
use tuzdik::{Family, Position, Side, Variant};

fn geometry(variant: Variant) -> Geometry {
    Geometry::of(variant).unwrap()
}

/// Kazans that add up to the variant's stones with `k` on the board, below the win line.
fn kazans(variant: Variant, k: u32) -> [u32; 2] {
    let rest = variant.total_stones() - k;
    [rest / 2, rest - rest / 2]
}

/// The engine's position of a table board with `side` to move.
fn position(variant: Variant, board: &Board, side: Side) -> Position {
    let k = board.stones();
    to_position(geometry(variant), board, side, kazans(variant, k)).unwrap()
}

/// The plain rules' position of an engine position, read from its string, kazans 0-0.
fn plain_of(rules: &PlainRules, pos: &Position) -> PlainPos {
    let mut plain = plain::parse(rules, &pos.to_string()).unwrap();
    plain.kazan = [0, 0];
    plain
}

/// The game-tree search with explicit history.
struct HistorySearch {
    rules: PlainRules,
    fresh: HashMap<PlainPos, i32>,
    nodes: u64,
}

impl HistorySearch {
    fn new(spec: &str) -> HistorySearch {
        HistorySearch {
            rules: PlainRules::from_spec(spec).unwrap(),
            fresh: HashMap::new(),
            nodes: 0,
        }
    }

    /// The future margin of the side to move in a game that starts at `pos` (kazans 0-0).
    fn fresh_value(&mut self, pos: &PlainPos) -> i32 {
        if let Some(&value) = self.fresh.get(pos) {
            return value;
        }
        let stones: u32 = pos.holes.iter().sum();
        let (mut low, mut high) = (-(stones as i32), stones as i32);
        let mut history = Vec::new();
        while low < high {
            let mid = (low + high + 1).div_euclid(2);
            if self.at_least(pos, &mut history, mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        self.fresh.insert(pos.clone(), low);
        low
    }

    /// Whether the side to move of `pos`, reached after `history`, can force a future margin
    /// of at least `t`.
    fn at_least(&mut self, pos: &PlainPos, history: &mut Vec<PlainPos>, t: i32) -> bool {
        self.nodes += 1;
        let mover = pos.side;
        let opponent = 1 - mover;
        if row_stones(&self.rules, pos, mover) == 0 {
            // Rule 3b: every stone goes to its row's owner.
            return -(row_stones(&self.rules, pos, opponent) as i32) >= t;
        }
        if history.contains(pos) {
            // Rule 3c: the board is shared equally, the margin from here is 0.
            return 0 >= t;
        }
        let mut quiet = Vec::new();
        for hole in 1..=self.rules.n {
            if pos.holes[mover * self.rules.n + hole - 1] == 0 {
                continue;
            }
            let child = play(&self.rules, pos, hole);
            let own = (child.kazan[mover] - pos.kazan[mover]) as i32;
            let other = (child.kazan[opponent] - pos.kazan[opponent]) as i32;
            if own + other > 0 {
                let mut fresh = child.clone();
                fresh.kazan = [0, 0];
                if own - other - self.fresh_value(&fresh) >= t {
                    return true;
                }
            } else {
                quiet.push(child);
            }
        }
        // A quiet move reaches t when the opponent cannot force 1 - t.
        history.push(pos.clone());
        let mut found = false;
        for child in quiet {
            if !self.at_least(&child, history, 1 - t) {
                found = true;
                break;
            }
        }
        history.pop();
        found
    }
}

/// Checks every `step`-th board of level `k` (both sides to move) with the history search.
fn check_with_history_search(
    table: &ToguzTable,
    search: &mut HistorySearch,
    k: u32,
    step: u64,
) -> usize {
    let variant = table.variant();
    let index = LevelIndex::new(table.geometry(), k);
    let mut checked = 0;
    for i in (0..index.size()).step_by(step as usize) {
        let board = index.board(i);
        for side in Side::BOTH {
            let pos = position(variant, &board, side);
            let plain = search.fresh_value(&plain_of(&search.rules, &pos));
            assert_eq!(table.probe(&pos), Some(plain), "{pos}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_history_search_agrees_on_every_togyz_board_up_to_two_stones() {
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, 3).unwrap();
    let mut search = HistorySearch::new("togyz");
    let mut checked = 0;
    for k in 0..=2 {
        checked += check_with_history_search(&table, &mut search, k, 1);
    }
    assert_eq!(checked as u64, 2 * (73 + 1186 + 10235));
    // And a spread of the boards with three stones.
    let checked = check_with_history_search(&table, &mut search, 3, 97);
    assert!(checked > 1000);
}

#[test]
fn the_history_search_agrees_on_kozdatu_with_tuzdik() {
    let variant = Variant::new(Family::Kozdatu).with_tuzdik(true);
    let table = ToguzTable::build_in_memory(variant, 4).unwrap();
    let mut search = HistorySearch::new("kozdatu tuzdik=on");
    let mut checked = 0;
    for k in 0..=2 {
        checked += check_with_history_search(&table, &mut search, k, 1);
    }
    checked += check_with_history_search(&table, &mut search, 3, 7);
    checked += check_with_history_search(&table, &mut search, 4, 101);
    assert!(checked > 10_000, "{checked}");
}

/// Value iteration over one level at a time, lower levels first, over the plain positions
/// of both sides to move.
struct ValueIteration {
    rules: PlainRules,
    values: HashMap<PlainPos, i32>,
}

impl ValueIteration {
    fn solve_level(&mut self, variant: Variant, k: u32) {
        let index = LevelIndex::new(geometry(variant), k);
        let positions: Vec<PlainPos> = (0..index.size())
            .flat_map(|i| {
                let board = index.board(i);
                Side::BOTH.map(|side| plain_of(&self.rules, &position(variant, &board, side)))
            })
            .collect();
        let at: HashMap<PlainPos, usize> = positions
            .iter()
            .enumerate()
            .map(|(i, pos)| (pos.clone(), i))
            .collect();
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
                let own = child.kazan[mover] as i32;
                let other = child.kazan[1 - mover] as i32;
                child.kazan = [0, 0];
                if own + other > 0 {
                    exits[i] = exits[i].max(own - other - self.values[&child]);
                } else {
                    edges[i].push(at[&child]);
                }
            }
        }
        loop {
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
        self.values.extend(positions.into_iter().zip(current));
    }
}

#[test]
#[ignore = "slow: about 6 s in a debug build; .ci/run runs it in release"]
fn value_iteration_agrees_on_every_togyz_board_up_to_three_stones() {
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, 3).unwrap();
    let mut iteration = ValueIteration {
        rules: PlainRules::from_spec("togyz").unwrap(),
        values: HashMap::new(),
    };
    let mut checked = 0;
    let mut nonzero = 0;
    for k in 0..=3 {
        iteration.solve_level(Variant::TOGYZ, k);
        let index = LevelIndex::new(table.geometry(), k);
        for i in 0..index.size() {
            let board = index.board(i);
            for side in Side::BOTH {
                let pos = position(Variant::TOGYZ, &board, side);
                let value = iteration.values[&plain_of(&iteration.rules, &pos)];
                assert_eq!(table.probe(&pos), Some(value), "{pos}");
                checked += 1;
                nonzero += usize::from(value != 0);
            }
        }
    }
    assert_eq!(checked as u64, 2 * (73 + 1186 + 10235 + 62340));
    assert!(nonzero > checked / 2, "{nonzero} of {checked} nonzero");
}

#[test]
fn without_tuzdik_the_same_code_gives_the_bestemshchi_table() {
    let variant = Variant::new(Family::Bestemshchi);
    let table = ToguzTable::build_in_memory(variant, 8).unwrap();
    let reference = Tablebase::build_in_memory(8);
    let mut checked = 0;
    for k in 0..=8 {
        let index = LevelIndex::new(table.geometry(), k);
        for i in 0..index.size() {
            let pos = position(variant, &index.board(i), Side::South);
            let ours = table.probe(&pos);
            if k % 2 == 0 {
                assert_eq!(ours, reference.probe(&pos), "{pos}");
                checked += 1;
            } else {
                assert!(ours.is_some());
            }
        }
    }
    assert_eq!(checked, 1 + 55 + 715 + 5005 + 24310);
}

#[test]
fn probe_is_the_best_move_value_and_moves_follow_the_engine() {
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, 5).unwrap();
    let g = table.geometry();
    let mut checked = 0;
    for k in 0..=5 {
        let index = LevelIndex::new(g, k);
        let step = (index.size() / 400).max(1);
        for i in (0..index.size()).step_by(step as usize) {
            for side in Side::BOTH {
                let pos = position(Variant::TOGYZ, &index.board(i), side);
                let value = table.probe(&pos).unwrap();
                let moves = table.move_values(&pos).unwrap();
                let legal: Vec<_> = pos.legal_moves().to_vec();
                assert_eq!(moves.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), legal);
                if moves.is_empty() {
                    // Rule 3b: the opponent keeps what is on its row.
                    assert_eq!(value, -(k as i32), "{pos}");
                    continue;
                }
                assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(value), "{pos}");
                // Each move's value is what the engine's own move puts into the kazans
                // minus the child's value.
                for &(mv, v) in &moves {
                    let next = pos.after(mv).unwrap();
                    let mover = pos.side_to_move();
                    let gain = next.kazan(mover) as i32
                        - pos.kazan(mover) as i32
                        - (next.kazan(mover.opponent()) as i32
                            - pos.kazan(mover.opponent()) as i32);
                    assert_eq!(v, gain - table.probe(&next).unwrap(), "{pos} {mv}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "{checked}");
    // Other rules and too many stones: no answer.
    assert_eq!(table.probe(&Position::start(Variant::TOGYZ)), None);
    let six: Position = "0,0,0,0,0,0,0,3,3/0,0,0,0,0,0,0,0,0 78 78 w"
        .parse()
        .unwrap();
    assert_eq!(table.probe(&six), None);
    let five: Position = "0,0,0,0,0,0,0,2,3/0,0,0,0,0,0,0,0,0 79 78 w"
        .parse()
        .unwrap();
    assert!(table.probe(&five).is_some());
    let other = Position::parse_with(
        "0,0,0,0,0,0,0,2,3/0,0,0,0,0,0,0,0,0 79 78 w",
        Variant::TOGYZ.with_capture(tuzdik::Capture::Singleton),
    )
    .unwrap();
    assert_eq!(table.probe(&other), None);
    assert_eq!(MarginTable::max_stones(&table), 5);
    assert!(table.name().contains("togyz"));
}

#[test]
#[ignore = "slow: about 4 s in a debug build; .ci/run runs it in release"]
fn tuzdik_creation_and_rule_2c() {
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, 5).unwrap();
    // South sows three stones from hole 9 into 9, North 1 and North 2; North 2 held 2, so it
    // now holds 3: South's tuzdik and 3 stones.
    let make: Position = "0,0,0,0,0,0,0,0,3/0,2,0,0,0,0,0,0,0 78 79 w"
        .parse()
        .unwrap();
    let child = make.after(tuzdik::Move::hole(9)).unwrap();
    assert_eq!(child.tuzdik(Side::South), Some(2));
    let moves = table.move_values(&make).unwrap();
    assert_eq!(
        moves,
        vec![(tuzdik::Move::hole(9), 3 - table.probe(&child).unwrap())]
    );
    // Rule 2c: North's tuzdik on South's hole 2 forbids South's on North's hole 2.
    let forbidden: Position = "0,X,0,0,0,0,0,0,3/0,2,0,0,0,0,0,0,0 78 79 w"
        .parse()
        .unwrap();
    let child = forbidden.after(tuzdik::Move::hole(9)).unwrap();
    assert_eq!(child.tuzdik(Side::South), None);
    let moves = table.move_values(&forbidden).unwrap();
    assert_eq!(
        moves,
        vec![(tuzdik::Move::hole(9), -table.probe(&child).unwrap())]
    );
    // A stone sown into the opponent's tuzdik counts for the opponent: North's tuzdik on
    // South's hole 8 takes one of the two stones from South's hole 7.
    let feeding: Position = "0,0,0,0,0,0,2,X,0/0,0,0,0,0,0,0,0,1 79 80 w"
        .parse()
        .unwrap();
    let child = feeding.after(tuzdik::Move::hole(7)).unwrap();
    assert_eq!(child.kazan(Side::North), 81);
    let moves = table.move_values(&feeding).unwrap();
    assert_eq!(
        moves,
        vec![(tuzdik::Move::hole(7), -1 - table.probe(&child).unwrap())]
    );
}

fn arbitrary_board(g: Geometry) -> impl Strategy<Value = (Board, bool)> {
    let n = g.n;
    (
        proptest::collection::vec(0usize..2 * n, 0..=4),
        proptest::option::of(0..n as u8 - 1),
        proptest::option::of(0..n as u8 - 1),
        any::<bool>(),
    )
        .prop_map(move |(stones, mine, theirs, north)| {
            let mine = mine.unwrap_or(NONE);
            let mut theirs = theirs.unwrap_or(NONE);
            if theirs == mine {
                theirs = NONE;
            }
            let mut board = Board {
                holes: [0; MAX_RING],
                mine,
                theirs,
            };
            for hole in stones {
                if !board.is_tuzdik(g, hole) {
                    board.holes[hole] += 1;
                }
            }
            (board, north)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Toguz positions with up to four stones and any tuzdiks: the table's value is the
    /// plain history search's.
    #[test]
    fn random_positions_agree_with_the_history_search(
        (board, north) in arbitrary_board(geometry(Variant::TOGYZ))
    ) {
        thread_local! {
            static TABLE: ToguzTable = ToguzTable::build_in_memory(Variant::TOGYZ, 4).unwrap();
        }
        let side = if north { Side::North } else { Side::South };
        let pos = position(Variant::TOGYZ, &board, side);
        let mut search = HistorySearch::new("togyz");
        let plain = search.fresh_value(&plain_of(&search.rules, &pos));
        let ours = TABLE.with(|table| table.probe(&pos));
        prop_assert_eq!(ours, Some(plain), "{}", pos);
    }
}

#[test]
fn the_verification_passes_and_catches_a_wrong_entry() {
    let mut table = ToguzTable::build_in_memory(Variant::TOGYZ, 4).unwrap();
    for (k, check) in table.verify().iter().enumerate() {
        assert_eq!(check.mismatches, 0, "level {k}: {:?}", check.examples);
        assert_eq!(check.checked, level_size(table.geometry(), k as u32));
    }
    let entry = &mut table.levels_mut()[3][12_345];
    *entry = (*entry as i8 + 1) as u8;
    let checks = table.verify();
    assert!(checks[3].mismatches >= 1);
    assert!(checks[3].examples.iter().any(|m| m.rank == 12_345));
}

fn temporary_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tuzdik-toguz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn files_round_trip_and_damage_is_refused() {
    let dir = temporary_dir("files");
    assert!(
        ToguzTable::load(&dir).unwrap().is_none(),
        "no directory: no table"
    );
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, 3).unwrap();
    table.save(&dir).unwrap();
    // A Bestemshchi-style file does not count as a Toguz one.
    std::fs::write(dir.join("bestemshchi-k00.bin"), b"whatever").unwrap();
    let loaded = ToguzTable::load(&dir).unwrap().unwrap();
    assert_eq!(loaded.levels(), table.levels());
    assert_eq!(loaded.max_stones(), 3);
    assert!(
        ToguzTable::load_variant(&dir, Variant::new(Family::Kozdatu))
            .unwrap()
            .is_none()
    );

    let g = table.geometry();
    let path = file::level_path(&dir, g, 3);
    assert!(path.ends_with("togyz-03.tzt"));
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], why: &str| {
        std::fs::write(&path, bytes).unwrap();
        match ToguzTable::load(&dir) {
            Err(TableError::BadFile { why: found, .. }) => {
                assert!(found.contains(why), "expected '{why}', got '{found}'")
            }
            other => panic!("expected a bad file ({why}), got {other:?}"),
        }
    };
    let mut flipped = good.clone();
    flipped[file::HEADER_LEN + 100] ^= 4;
    refused(&flipped, "checksum");
    refused(&good[..file::HEADER_LEN + 10], "truncated");
    refused(&good[..20], "too short");
    let mut longer = good.clone();
    longer.push(0);
    refused(&longer, "trailing");
    let mut magic = good.clone();
    magic[0] = b'X';
    refused(&magic, "magic");
    let mut version = good.clone();
    version[8] = 9;
    refused(&version, "version 9");
    // A Kozdatu level renamed as a Toguz one.
    let kozdatu = ToguzTable::build_in_memory(Variant::new(Family::Kozdatu), 3).unwrap();
    let other = temporary_dir("kozdatu");
    kozdatu.save(&other).unwrap();
    let foreign = std::fs::read(file::level_path(&other, kozdatu.geometry(), 3)).unwrap();
    refused(&foreign, "variant 'kozdatu'");
    // A missing level below the highest.
    std::fs::write(&path, &good).unwrap();
    std::fs::remove_file(file::level_path(&dir, g, 1)).unwrap();
    let error = ToguzTable::load(&dir).unwrap_err();
    assert!(error.to_string().contains("level 1 is missing"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn limits_are_refused_clearly() {
    use tuzdik::solve::toguz::{LimitError, check_limit};
    assert!(matches!(
        check_limit(Variant::TOGYZ, 18),
        Err(LimitError::Laps { ring: 18, .. })
    ));
    assert!(matches!(
        check_limit(Variant::TOGYZ, 14),
        Err(LimitError::TooLarge { .. })
    ));
    let error = check_limit(Variant::new(Family::Mangala4), 3).unwrap_err();
    assert!(error.to_string().contains("no Toguz table"), "{error}");
    let error = check_limit(Variant::TOGYZ.with_sowing(tuzdik::Sowing::SkipOrigin), 3).unwrap_err();
    assert!(matches!(error, LimitError::Variant(_)));
    assert!(check_limit(Variant::TOGYZ, 13).is_ok());
}
