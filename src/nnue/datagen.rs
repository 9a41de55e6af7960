//! `tuzdik datagen`: self-play training data for the net, and the conversion of PGN games.
//!
//! Game `g` of a run with seed `s` starts from an opening drawn by a generator seeded with
//! `(s, g)` alone, followed by 0..=3 random plies, and is played by one-thread searches at a
//! fixed node count with a hash table cleared before the game: so every game is the same
//! whatever the thread count or timing. Workers take game numbers in turn; the writer appends
//! the games' records in game order, so a file always holds games `0..k`, and a restart
//! continues at the game after the last one in the file (re-playing that last one, which a
//! stop may have cut).
//!
//! A position is recorded when it is *quiet*: the game is not over, no legal move of the side
//! to move captures (an even capture or a new tuzdik) — so neither does the best move — and the
//! search score is not a proven result. Games that reach the ply limit without an end are
//! dropped (they have no result).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::data::{RECORD_BYTES, Record};
use crate::matchrun::openings;
use crate::position::{Position, Side};
use crate::record::{Outcome, Record as PgnRecord};
use crate::rng::SplitMix;
use crate::search::{Engine, Limits, Score};
use crate::variant::Variant;

/// A self-play game that has not ended after this many plies is dropped.
pub const MAX_PLIES: usize = 600;
/// Scores are clipped to this before they are stored (they fit an i16 with room).
pub const SCORE_CLIP: i32 = 30_000;

/// The options of a run.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Games to have in the file at the end (counting those already there).
    pub games: u64,
    /// Nodes per search.
    pub nodes: u64,
    /// Worker threads (each runs one-thread searches).
    pub threads: usize,
    /// The seed of the openings and random plies.
    pub seed: u64,
    /// The file the records are appended to.
    pub out: PathBuf,
    /// The opening book (position strings).
    pub openings: PathBuf,
    /// Hash table per worker, MiB.
    pub hash_mb: usize,
}

/// Whether no legal move of the position captures: the position the net must judge without a
/// tactic pending.
pub fn is_quiet(pos: &Position) -> bool {
    pos.legal_moves().iter().all(|&mv| {
        let mut next = *pos;
        let effect = next.play(mv);
        effect.captured == 0 && !effect.made_tuzdik
    })
}

/// The result and final margin of a finished game for `side`.
fn result_for(scores: [u32; 2], side: Side) -> (i8, i16) {
    let margin = scores[side.index()] as i32 - scores[side.opponent().index()] as i32;
    (margin.signum() as i8, margin as i16)
}

/// Plays game `number` of a run and returns its records (empty when it is dropped).
pub fn play_game(
    number: u64,
    seed: u64,
    nodes: u64,
    book: &[openings::Opening],
    engine: &mut Engine,
) -> Result<Vec<Record>, String> {
    let mut rng = SplitMix::new(seed ^ number.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xda7a);
    let mut game = book[rng.below(book.len())].game.clone();
    for _ in 0..rng.below(4) {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.try_play(legal[rng.below(legal.len())])
            .map_err(|e| e.to_string())?;
    }
    engine.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut scored: Vec<(Position, i16)> = Vec::new();
    while game.termination().is_none() && game.moves().len() < MAX_PLIES {
        let outcome = engine.search(&game, &limits, |_| {});
        let Some(mv) = outcome.best else { break };
        if let Some(Score::Cp(cp)) = outcome.last.as_ref().map(|report| report.score) {
            let pos = *game.position();
            if is_quiet(&pos) {
                scored.push((pos, cp.clamp(-SCORE_CLIP, SCORE_CLIP) as i16));
            }
        }
        game.try_play(mv).map_err(|e| e.to_string())?;
    }
    let Some(scores) = game.final_scores() else {
        return Ok(Vec::new());
    };
    Ok(scored
        .into_iter()
        .map(|(position, score)| {
            let (result, margin) = result_for(scores, position.side_to_move());
            Record {
                position,
                result,
                score: Some(score),
                margin,
                game: number as u32,
            }
        })
        .collect())
}

/// Prepares `path` for appending: cuts a partial record at the end and the records of the last
/// game (a stop may have cut it), and returns the game number to continue with. A file that
/// already holds games beyond `games` is left as it is, with an error.
pub fn prepare_resume(path: &Path, games: u64) -> Result<u64, String> {
    let name = path.display();
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    let whole = bytes.len() / RECORD_BYTES;
    if whole == 0 {
        file.set_len(0).map_err(|e| format!("{name}: {e}"))?;
        return Ok(0);
    }
    let game_of = |index: usize| {
        let at = index * RECORD_BYTES + 28;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let last = game_of(whole - 1);
    if u64::from(last) >= games {
        return Err(format!(
            "{name} already holds games up to number {last}, more than --games {games}: nothing to do (the file is left as it was)"
        ));
    }
    let mut keep = whole;
    while keep > 0 && game_of(keep - 1) == last {
        keep -= 1;
    }
    if keep > 0 && game_of(keep - 1) > last {
        return Err(format!(
            "{name}: games are not in order (game {} before game {last}): not a file this command wrote",
            game_of(keep - 1)
        ));
    }
    file.set_len((keep * RECORD_BYTES) as u64)
        .map_err(|e| format!("{name}: {e}"))?;
    file.seek(SeekFrom::End(0))
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(u64::from(last))
}

/// Runs the generation; returns a one-line summary. Progress goes to stderr.
pub fn run(options: &DatagenOptions) -> Result<String, String> {
    if options.nodes == 0 || options.threads == 0 {
        return Err("--nodes and --threads must be at least 1".to_string());
    }
    if options.games > u64::from(u32::MAX) {
        return Err(format!(
            "--games {} is more than a record can number",
            options.games
        ));
    }
    let text = std::fs::read_to_string(&options.openings)
        .map_err(|e| format!("{}: {e}", options.openings.display()))?;
    let book = openings::parse(
        &text,
        Variant::TOGYZ,
        &options.openings.display().to_string(),
    )?;
    let first = prepare_resume(&options.out, options.games)?;
    if first > 0 {
        eprintln!(
            "datagen: {} holds games 0..{first}; continuing",
            options.out.display()
        );
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&options.out)
        .map_err(|e| format!("{}: {e}", options.out.display()))?;
    let next = AtomicU64::new(first);
    let failure = Mutex::new(None::<String>);
    let (sender, receiver) = mpsc::channel::<(u64, Vec<Record>)>();
    let started = Instant::now();
    let mut written_games = 0u64;
    let mut written_records = 0u64;
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..options.threads {
            let sender = sender.clone();
            let (next, failure, book) = (&next, &failure, &book);
            scope.spawn(move || {
                let mut engine = Engine::new();
                if let Err(e) = engine.set_hash_mib(options.hash_mb) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some(format!("--hash {}: {e}", options.hash_mb));
                    return;
                }
                loop {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number >= options.games {
                        break;
                    }
                    match play_game(number, options.seed, options.nodes, book, &mut engine) {
                        Ok(records) => {
                            if sender.send((number, records)).is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                                Some(format!("game {number}: {e}"));
                            next.store(options.games, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
        drop(sender);
        // Games finish out of order; they are written in order so that a restart can count.
        let mut pending = BTreeMap::new();
        let mut expected = first;
        for (number, records) in receiver {
            pending.insert(number, records);
            while let Some(records) = pending.remove(&expected) {
                let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
                if let Err(e) = file.write_all(&bytes).and_then(|()| file.flush()) {
                    write_error = Some(format!("{}: {e}", options.out.display()));
                    next.store(options.games, Ordering::Relaxed);
                }
                expected += 1;
                written_games += 1;
                written_records += records.len() as u64;
                if written_games.is_multiple_of(10) || expected == options.games {
                    let seconds = started.elapsed().as_secs_f64().max(1e-9);
                    eprintln!(
                        "datagen: game {expected}/{}, {written_records} positions this run, {:.2} games/s, {:.0} positions/s",
                        options.games,
                        written_games as f64 / seconds,
                        written_records as f64 / seconds
                    );
                }
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(format!(
        "datagen: wrote {written_games} games, {written_records} positions to {} in {:.1} s",
        options.out.display(),
        started.elapsed().as_secs_f64()
    ))
}

/// Converts PGN games with a result into records without a search score: every quiet position
/// of each game, the result and final margin from the recorded result and the last position's
/// kazans (games without a result are skipped). Game numbers start at `first_game`.
/// Returns the records and the count of games used.
pub fn convert_pgn(text: &str, first_game: u32) -> Result<(Vec<Record>, usize), String> {
    let games = PgnRecord::parse_all(text).map_err(|e| e.to_string())?;
    let mut records = Vec::new();
    let mut used = 0;
    for (index, pgn) in games.iter().enumerate() {
        if pgn.variant().ok() != Some(Variant::TOGYZ) {
            continue;
        }
        let game = pgn
            .replay()
            .map_err(|e| format!("game {} (line {}): {e}", index + 1, pgn.line))?;
        let winner = match pgn.result {
            Some(Outcome::SouthWins) => Some(Side::South),
            Some(Outcome::NorthWins) => Some(Side::North),
            Some(Outcome::Draw) => None,
            _ => continue,
        };
        let last = game.position();
        let number = first_game + used as u32;
        used += 1;
        for pos in &game.positions()[..game.positions().len() - 1] {
            if !is_quiet(pos) {
                continue;
            }
            let side = pos.side_to_move();
            let result = match winner {
                Some(w) if w == side => 1,
                Some(_) => -1,
                None => 0,
            };
            let margin = last.kazan(side) as i16 - last.kazan(side.opponent()) as i16;
            records.push(Record {
                position: *pos,
                result,
                score: None,
                margin,
                game: number,
            });
        }
    }
    Ok((records, used))
}
