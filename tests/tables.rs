//! Tables in play: the `TablePath` option of the real binary, table hits, root moves and
//! scores against the table, and the library's search with a table against the table.

mod common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use common::{Engine, field, last_info};
use proptest::prelude::*;
use tuzdik::game::Game;
use tuzdik::search::{self, Limits, Score, TABLE_WIN};
use tuzdik::solve::Tablebase;
use tuzdik::solve::bestemshchi::board::to_position;
use tuzdik::solve::bestemshchi::file;
use tuzdik::solve::tables::Tables;
use tuzdik::{Family, Move, Position, Side, Variant};

const LONG: Duration = Duration::from_secs(60);
/// The small table the tests use: every board with up to this many stones.
const STONES: u32 = 10;

/// A table of up to [`STONES`] stones written to a fresh directory.
fn table_dir(name: &str) -> (PathBuf, Tables) {
    let dir = std::env::temp_dir().join(format!("tuzdik-tables-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let table = Tablebase::build_in_memory(STONES);
    for k in (0..=STONES).step_by(2) {
        file::save_level(&dir, k, &table.levels()[k as usize]).unwrap();
    }
    (dir, Tables::with_bestemshchi(table))
}

fn bestemshchi() -> Variant {
    Variant::new(Family::Bestemshchi)
}

/// The searches' final info line and the move played.
fn search_lines(engine: &mut Engine, go: &str) -> (String, String) {
    engine.send(go);
    let lines = engine.until("bestmove", LONG);
    let info = last_info(&lines).to_string();
    let best = field(lines.last().unwrap(), "bestmove")
        .unwrap()
        .to_string();
    (info, best)
}

/// Whether a reported score agrees with a proven final margin.
fn score_agrees(info: &str, margin: i32) -> bool {
    if let Some(cp) = field(info, "cp") {
        let cp: i32 = cp.parse().unwrap();
        return cp == search::table_score(margin);
    }
    let mate: i32 = field(info, "mate").unwrap().parse().unwrap();
    mate.signum() == margin.signum() && margin != 0
}

const POSITIONS: [&str; 4] = [
    "0,1,0,2,0/1,0,3,0,1 20 22 w",
    "1,0,2,0,1/0,3,0,1,0 20 22 b",
    "0,0,0,4,0/0,2,0,0,2 22 20 w",
    "2,0,0,0,0/0,0,1,0,1 24 22 b",
];

#[test]
fn table_path_loads_probes_and_errors_keep_the_tables() {
    let (dir, tables) = table_dir("protocol");
    let mut engine = Engine::start();
    engine.send("uci");
    let handshake = engine.until("uciok", LONG);
    assert!(
        handshake
            .iter()
            .any(|l| l == "option name TablePath type string default <empty>"),
        "{handshake:#?}"
    );
    engine.send("setoption name UCI_Variant value bestemshchi");
    // Without tables: no tbhits.
    engine.send(&format!("position fen {}", POSITIONS[0]));
    let (info, _) = search_lines(&mut engine, "go depth 4");
    assert_eq!(field(&info, "tbhits"), None, "{info}");

    engine.send(&format!("setoption name TablePath value {}", dir.display()));
    let loaded = engine.until("info string", LONG);
    assert!(
        loaded
            .last()
            .unwrap()
            .contains(&format!("bestemshchi levels 0..={STONES}")),
        "{loaded:#?}"
    );
    // A missing directory and a damaged file are errors and the tables stay.
    engine.send("setoption name TablePath value /no/such/tuzdik/dir");
    let error = engine.until("info string", LONG);
    assert!(
        error.last().unwrap().starts_with("info string error: ")
            && error
                .last()
                .unwrap()
                .contains("keeping the previous tables"),
        "{error:#?}"
    );
    let (damaged, _) = table_dir("damaged");
    let path = file::level_path(&damaged, 6);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[file::HEADER_LEN + 3] ^= 2;
    std::fs::write(&path, bytes).unwrap();
    engine.send(&format!(
        "setoption name TablePath value {}",
        damaged.display()
    ));
    let error = engine.until("info string", LONG);
    assert!(
        error.last().unwrap().starts_with("info string error: ")
            && error.last().unwrap().contains("checksum"),
        "{error:#?}"
    );

    for text in POSITIONS {
        let pos = Position::parse_with(text, bestemshchi()).unwrap();
        let values = tables.move_values(&pos).unwrap();
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let mover = pos.side_to_move();
        let margin = pos.kazan(mover) as i32 - pos.kazan(mover.opponent()) as i32 + best;
        engine.send(&format!("position fen {text}"));
        let (info, played) = search_lines(&mut engine, "go depth 6");
        let played: Move = pos.parse_move(&played).unwrap();
        let value = values.iter().find(|&&(mv, _)| mv == played).unwrap().1;
        assert_eq!(
            value, best,
            "{text}: played {played} worth {value}, best {best}"
        );
        assert!(
            score_agrees(&info, margin),
            "{text}: margin {margin}: {info}"
        );
        let hits: u64 = field(&info, "tbhits").unwrap().parse().unwrap();
        assert!(hits > 0, "{text}: {info}");
        assert_eq!(
            field(&info, "pv"),
            Some(played.to_string().as_str()),
            "{info}"
        );
    }

    // Empty unloads: no tbhits again.
    engine.send("setoption name TablePath value <empty>");
    let cleared = engine.until("info string", LONG);
    assert!(
        cleared.last().unwrap().contains("no tables"),
        "{cleared:#?}"
    );
    engine.send(&format!("position fen {}", POSITIONS[0]));
    let (info, _) = search_lines(&mut engine, "go depth 4");
    assert_eq!(field(&info, "tbhits"), None, "{info}");
    engine.quit();
    for d in [&dir, &damaged] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn positions_beyond_the_table_still_count_hits_inside_it() {
    // Twelve stones on the board: the root is not covered, but its captures lead into the
    // table. Two threads: the hits of both are added.
    let (dir, _) = table_dir("beyond");
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value bestemshchi");
    engine.send("setoption name Threads value 2");
    engine.send(&format!("setoption name TablePath value {}", dir.display()));
    engine.until("info string", LONG);
    engine.send("position fen 2,1,2,0,1/1,2,0,2,1 18 20 w");
    let (info, _) = search_lines(&mut engine, "go depth 8");
    let hits: u64 = field(&info, "tbhits").unwrap().parse().unwrap();
    assert!(hits > 0, "{info}");
    // Another variant is never probed.
    engine.send("setoption name UCI_Variant value togyz");
    engine.send("position startpos");
    let (info, _) = search_lines(&mut engine, "go depth 4");
    assert_eq!(field(&info, "tbhits"), None, "{info}");
    engine.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

fn small_tables() -> &'static Arc<Tables> {
    static TABLES: std::sync::OnceLock<Arc<Tables>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| Arc::new(Tables::with_bestemshchi(Tablebase::build_in_memory(8))))
}

/// A Bestemshchi position with `board` (mover's row first, at most 8 stones) and kazans
/// that add up to 50, both below the win line.
fn covered(board: [u8; 10], south_moves: bool, split: u32) -> Option<Position> {
    let k: u32 = board.iter().map(|&c| u32::from(c)).sum();
    if k % 2 == 1 || k > 8 || board[..5].iter().all(|&c| c == 0) {
        return None;
    }
    let rest = 50 - k;
    let low = rest - 25;
    let south = low + split % (25 - low + 1);
    let side = if south_moves {
        Side::South
    } else {
        Side::North
    };
    let kazans = [south, rest - south];
    if kazans.iter().any(|&c| c >= 26) {
        return None;
    }
    to_position(&board, side, kazans)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_search_with_a_table_plays_a_best_table_move(
        board in proptest::array::uniform10(0u8..3),
        south_moves in any::<bool>(),
        split in 0u32..64,
        depth in 1u32..5,
    ) {
        let Some(pos) = covered(board, south_moves, split) else { return Ok(()) };
        let tables = small_tables();
        let values = tables.move_values(&pos).unwrap();
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut engine = tuzdik::Engine::new();
        engine.set_hash_mib(1).unwrap();
        engine.set_tables(Some(Arc::clone(tables)));
        let game = Game::from_position(pos, 1);
        let outcome = engine.search(&game, &limits, |_| {});
        let played = outcome.best.unwrap();
        let value = values.iter().find(|&&(mv, _)| mv == played).unwrap().1;
        prop_assert_eq!(value, best, "{}: played {}", pos, played);
        let mover = pos.side_to_move();
        let margin = pos.kazan(mover) as i32 - pos.kazan(mover.opponent()) as i32 + best;
        let report = outcome.last.unwrap();
        match report.score {
            Score::Cp(cp) => prop_assert_eq!(cp, search::table_score(margin), "{}", pos),
            Score::MatePlies(plies) => prop_assert_eq!(plies.signum(), margin.signum()),
        }
        prop_assert!(search::table_score(margin).abs() < TABLE_WIN + 51);
    }
}

/// A Toguz Kumalak table on the `TablePath`: `isready` answers only after the load (its
/// `info string` comes first), the search probes it, and the move played has the table's best
/// value.
#[test]
fn toguz_tables_load_before_readyok_and_decide_the_move() {
    use tuzdik::solve::toguz::ToguzTable;
    const TOGUZ_STONES: u32 = 4;
    let dir = std::env::temp_dir().join(format!("tuzdik-tables-togyz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = ToguzTable::build_in_memory(Variant::TOGYZ, TOGUZ_STONES).unwrap();
    table.save(&dir).unwrap();

    let mut engine = Engine::start();
    engine.send("uci");
    engine.until("uciok", LONG);
    engine.send(&format!("setoption name TablePath value {}", dir.display()));
    engine.send("isready");
    let lines = engine.until("readyok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string TablePath") && l.contains("togyz")),
        "readyok came before the load was reported: {lines:#?}"
    );
    // Four stones on the board, both tuzdiks; South to move, far from the win line.
    let fens = [
        "0,0,1,0,0,X,0,0,0/X,0,0,0,0,0,1,2,0 80 78 w 30",
        "1,0,0,0,0,0,0,0,1/0,0,X,0,0,1,0,1,0 79 79 b 40",
        "0,0,0,0,2,0,0,0,0/0,1,0,0,0,0,0,0,1 78 80 w 50",
    ];
    for fen in fens {
        let pos = Position::parse_with(fen, Variant::TOGYZ).unwrap();
        let values = table.move_values(&pos).expect("covered");
        let best_value = values.iter().map(|&(_, v)| v).max().unwrap();
        let margin = table.probe(&pos).unwrap();
        assert_eq!(margin, best_value, "{fen}");
        engine.send(&format!("position fen {fen}"));
        let (info, best) = search_lines(&mut engine, "go depth 6");
        let played: Move = best.parse().unwrap();
        let value = values
            .iter()
            .find(|&&(mv, _)| mv == played)
            .map(|&(_, v)| v)
            .unwrap_or_else(|| panic!("{fen}: {best} is not a legal move"));
        assert_eq!(value, best_value, "{fen}: played {best}, {values:?}");
        let hits: u64 = field(&info, "tbhits").unwrap().parse().unwrap();
        assert!(hits > 0, "{fen}: {info}");
        let us = pos.side_to_move();
        let final_margin = pos.kazan(us) as i32 - pos.kazan(us.opponent()) as i32 + margin;
        if final_margin != 0 {
            assert!(
                score_agrees(&info, final_margin),
                "{fen}: {info}, margin {final_margin}"
            );
        }
    }
    engine.quit();
    let _ = std::fs::remove_dir_all(&dir);
}
