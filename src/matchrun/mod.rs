//! Engine-vs-engine matches (`tuzdik match`): two engines, a book of openings each played
//! twice with colours swapped, a referee that keeps every game by the project's rules, a
//! PGN of every game, the score, Elo and an optional pentanomial SPRT. See `docs/match.md`.
//!
//! The parts: [`engine`] (processes, handshake, time-stamped output with deadlines),
//! [`referee`] (one game), [`clock`] (time controls), [`openings`] (books, order),
//! [`stats`] (Elo, SPRT). This module parses the command line, runs the workers (one per
//! `--concurrency` slot, each with its own pair of engine processes), and collects results
//! on the main thread, which alone writes the PGN and the output.

pub mod adjudicate;
mod args;
pub mod clock;
pub mod engine;
pub mod openings;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod stats;

use std::collections::HashSet;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub use args::{EngineArgs, MatchArgs, Progress, RuleArgs};

use crate::record::{Outcome, Record};
use crate::variant::Variant;
use adjudicate::{DrawRule, ResignRule};
use clock::{MoveLimits, TimeControl};
use engine::{Engine, EngineSpec};
use openings::Opening;
use referee::{Ending, FinishedGame, Seat, Settings};
use report::{GameResult, Tally};
use schedule::Schedule;
use stats::{Sprt, SprtState};

/// A finished game as a worker reports it.
struct Finished {
    plan: schedule::GamePlan,
    played: FinishedGame,
}

impl Finished {
    fn result(&self) -> GameResult {
        let fault = match &self.played.ending {
            Ending::Forfeit { loser, fault } => Some((self.plan.seats[loser.index()], fault.kind)),
            _ => None,
        };
        GameResult {
            plan: self.plan,
            outcome: self.played.outcome,
            names: self.played.names.clone(),
            termination: self.played.pgn_termination().to_string(),
            adjudication: self.played.adjudication().map(str::to_string),
            fault,
            plies: self.played.game.moves().len(),
        }
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), for the PGN Date tag.
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_date((seconds / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day number counted from 1970-01-01: days are shifted to
/// eras of 400 years starting on 1 March, where every era has the same 146,097 days.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

/// Builds the PGN record of a finished game. `time_controls` are South's and North's: the
/// `TimeControl` tag when they agree, `WhiteTimeControl`/`BlackTimeControl` when not.
pub fn record_of(
    played: &FinishedGame,
    event: &str,
    round: u64,
    time_controls: [&str; 2],
    date: &str,
    site: &str,
) -> Record {
    let mut tags = vec![
        ("Event", event.to_string()),
        ("Site", site.to_string()),
        ("Date", date.to_string()),
        ("Round", round.to_string()),
        ("White", played.names[0].clone()),
        ("Black", played.names[1].clone()),
        ("Result", played.outcome.token().to_string()),
    ];
    if time_controls[0] == time_controls[1] {
        tags.push(("TimeControl", time_controls[0].to_string()));
    } else {
        tags.push(("WhiteTimeControl", time_controls[0].to_string()));
        tags.push(("BlackTimeControl", time_controls[1].to_string()));
    }
    tags.push(("Variant", played.game.variant().to_string()));
    let mut record = Record::from_game(&played.game, &tags, Some(played.outcome));
    record.set_tag("Termination", played.pgn_termination());
    record.set_tag("PlyCount", played.game.moves().len().to_string());
    for recorded in record.moves.iter_mut().take(played.book_plies) {
        recorded.comment = Some("book".to_string());
    }
    for (recorded, note) in record
        .moves
        .iter_mut()
        .skip(played.book_plies)
        .zip(&played.notes)
    {
        recorded.comment = Some(note.clone());
    }
    let reason = played.reason();
    match record.moves.last_mut() {
        Some(last) => {
            last.comment = Some(match last.comment.take() {
                Some(note) => format!("{note}. {reason}"),
                None => reason,
            })
        }
        None => record.leading_comment = Some(reason),
    }
    record
}

/// The stop flags, set by Ctrl-C (the handler can be installed only once per process).
fn interrupt_flags() -> &'static (Arc<AtomicBool>, Arc<AtomicBool>) {
    static FLAGS: OnceLock<(Arc<AtomicBool>, Arc<AtomicBool>)> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let stop = Arc::new(AtomicBool::new(false));
        let interrupted = Arc::new(AtomicBool::new(false));
        let (s, i) = (Arc::clone(&stop), Arc::clone(&interrupted));
        let _ = ctrlc::set_handler(move || {
            if i.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C: give up at once, taking every engine (and whatever it
                // started) along, since they sit in their own process groups.
                engine::kill_all_engines();
                std::process::exit(130);
            }
            s.store(true, Ordering::SeqCst);
        });
        (stop, interrupted)
    })
}

/// The match-wide limits (`--tc`, `--movetime`, `--depth`, `--nodes`).
fn match_limits(args: &MatchArgs) -> Result<MoveLimits, String> {
    let time = match (&args.tc, args.movetime) {
        (Some(_), Some(_)) => return Err("give --tc or --movetime, not both".to_string()),
        (Some(tc), None) => clock::parse_tc(tc)?,
        (None, Some(0)) => return Err("--movetime must be at least 1 ms".to_string()),
        (None, Some(ms)) => TimeControl::MoveTime(ms),
        (None, None) => TimeControl::None,
    };
    if args.depth == Some(0) {
        return Err("--depth must be at least 1".to_string());
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".to_string());
    }
    Ok(MoveLimits {
        time,
        depth: args.depth,
        nodes: args.nodes,
    })
}

/// An engine's own limits: its spec's `tc=`/`st=`/`depth=`/`nodes=` over the match's.
fn engine_limits(spec: &EngineSpec, shared: &MoveLimits) -> MoveLimits {
    MoveLimits {
        time: spec.time.unwrap_or(shared.time),
        depth: spec.depth.or(shared.depth),
        nodes: spec.nodes.or(shared.nodes),
    }
}

/// Starts an engine once to check that it runs and to learn its name.
fn preflight(
    spec: &EngineSpec,
    number: usize,
    variant: Variant,
    debug: bool,
) -> Result<String, String> {
    let never = AtomicBool::new(false);
    let label = format!("engine {number}");
    let engine = Engine::start(spec, &label, variant, debug, &never)
        .map_err(|e| format!("--engine {number} ({}): {e}", spec.command.join(" ")))?;
    for warning in &engine.warnings {
        eprintln!("tuzdik: warning: --engine {number}: {warning}");
    }
    let name = spec
        .name
        .clone()
        .or_else(|| engine.id_name.clone())
        .unwrap_or_else(|| spec.fallback_name());
    engine.quit();
    Ok(name)
}

/// Draws the progress bar line.
fn progress_bar(tally: &Tally, total: Option<u64>, started: Instant) -> String {
    let done = tally.played();
    let mut line = String::from("\r\x1b[2K");
    if let Some(total) = total {
        let width = 24u64;
        let filled = (done * width).checked_div(total).unwrap_or(0).min(width);
        line.push('[');
        line.push_str(&"#".repeat(filled as usize));
        line.push_str(&"-".repeat((width - filled) as usize));
        line.push_str(&format!("] {done}/{total}"));
    } else {
        line.push_str(&format!("{done} games"));
    }
    if tally.encounters.len() == 1 {
        let t = &tally.encounters[0].trinomial;
        line.push_str(&format!(
            "  {} - {} - {} [{:.3}]",
            t.wins,
            t.losses,
            t.draws,
            t.score()
        ));
        if let Ok(elo) = t.elo() {
            line.push_str(&format!("  Elo {elo}"));
        }
    }
    if let Some(llr) = tally.llr() {
        line.push_str(&format!("  LLR {}", stats::number(llr, 2)));
    }
    line.push_str(&format!("  {:.0}s", started.elapsed().as_secs_f64()));
    line
}

/// The engine specs: `--each` words first, so that an engine's own words win.
fn engine_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>, String> {
    let engine_words = &args.engines.engines;
    if engine_words.len() < 2 {
        return Err(format!(
            "give --engine at least twice (got {})",
            engine_words.len()
        ));
    }
    let each = args
        .engines
        .each
        .iter()
        .map(|w| engine::split_words(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--each: {e}"))?
        .concat();
    if let Some(word) = each
        .iter()
        .find(|w| w.starts_with("cmd=") || w.starts_with("name="))
    {
        return Err(format!("--each: '{word}' must be given per engine"));
    }
    let mut specs = Vec::new();
    for (i, words) in engine_words.iter().enumerate() {
        let mut all = each.clone();
        match words.as_slice() {
            [one] => all
                .extend(engine::split_words(one).map_err(|e| format!("--engine {}: {e}", i + 1))?),
            pairs => all.extend(pairs.iter().cloned()),
        }
        specs.push(EngineSpec::from_pairs(&all).map_err(|e| format!("--engine {}: {e}", i + 1))?);
    }
    Ok(specs)
}

/// The games a PGN from an earlier run of the same match holds, checked against the
/// schedule (same engines in the same seats, same opening).
fn resumed_games(
    path: &std::path::Path,
    schedule: &Schedule,
    names: &[String],
    book: &[Opening],
    total: Option<u64>,
) -> Result<Vec<GameResult>, String> {
    let shown = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("--resume {shown}: {e}")),
    };
    let records = Record::parse_all(&text).map_err(|e| format!("--resume {shown}: {e}"))?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    for (number, record) in records.iter().enumerate() {
        let what = format!("--resume {shown}: game {}", number + 1);
        let round: u64 = record
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|r| *r >= 1)
            .ok_or_else(|| format!("{what}: no Round tag with a game number"))?;
        let index = round - 1;
        if total.is_some_and(|t| index >= t) {
            return Err(format!(
                "{what}: Round {round} is beyond this match's {} games",
                total.unwrap_or(0)
            ));
        }
        if !seen.insert(index) {
            return Err(format!("{what}: Round {round} is there twice"));
        }
        let plan = schedule.plan(index);
        let expected = [&names[plan.seats[0]], &names[plan.seats[1]]];
        let found = [
            record.tag("White").unwrap_or(""),
            record.tag("Black").unwrap_or(""),
        ];
        if found[0] != expected[0] || found[1] != expected[1] {
            return Err(format!(
                "{what}: {} vs {}, but this match's game {round} is {} vs {} (give the same engines in the same order)",
                found[0], found[1], expected[0], expected[1]
            ));
        }
        let game = record.replay().map_err(|e| format!("{what}: {e}"))?;
        let opening = &book[plan.opening];
        let book_moves = opening.game.moves();
        if game.start() != opening.game.start() || !game.moves().starts_with(book_moves) {
            return Err(format!(
                "{what}: it did not start from this match's opening {} (give the same --openings and --seed)",
                opening.source
            ));
        }
        let outcome = record
            .result
            .filter(|o| *o != Outcome::Unknown)
            .ok_or_else(|| format!("{what}: no result"))?;
        let termination = record.tag("Termination").unwrap_or("normal").to_string();
        let adjudication = (termination == "adjudication").then(|| {
            // The kind is named in the comment on the last move (or before the moves).
            let comment = record
                .moves
                .last()
                .and_then(|m| m.comment.as_deref())
                .or(record.leading_comment.as_deref())
                .unwrap_or("");
            [
                ("resign adjudication", "resign"),
                ("draw adjudication", "draw"),
                ("tablebase adjudication", "tablebase"),
                ("Adjudicated after", "max plies"),
            ]
            .iter()
            .find(|(text, _)| comment.contains(text))
            .map_or("unnamed", |(_, kind)| kind)
            .to_string()
        });
        games.push(GameResult {
            plan,
            outcome,
            names: [expected[0].clone(), expected[1].clone()],
            termination,
            adjudication,
            fault: None,
            plies: game.moves().len(),
        });
    }
    Ok(games)
}

/// Runs a match. Configuration errors come back as `Err` (nothing was played); once games
/// are under way the match always ends with its summary.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let specs = engine_specs(args)?;
    let variant = args.rules.variant()?;
    let shared = match_limits(args)?;
    let limits: Vec<MoveLimits> = specs.iter().map(|s| engine_limits(s, &shared)).collect();
    for (i, l) in limits.iter().enumerate() {
        if l.time == TimeControl::None && l.depth.is_none() && l.nodes.is_none() {
            return Err(format!(
                "give a time control: --tc, --movetime, --depth or --nodes (or tc=, st=, \
                 depth=, nodes= for --engine {})",
                i + 1
            ));
        }
    }
    if args.concurrency == 0 || args.concurrency > 256 {
        return Err(format!(
            "--concurrency {} is outside 1..256",
            args.concurrency
        ));
    }
    let (book, book_spec) = match &args.openings {
        Some(words) => {
            let spec = openings::BookSpec::parse(words)?;
            (spec.load(variant)?, Some(spec))
        }
        None => (openings::default_for(variant)?, None),
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let engines = specs.len();
    if sprt.is_some() && engines != 2 {
        return Err(format!("--sprt needs exactly two engines (got {engines})"));
    }
    if sprt.is_some() && args.noswap {
        return Err("--sprt needs colour-swapped pairs: drop --noswap".to_string());
    }
    if args.rounds == 0 {
        return Err("--rounds must be at least 1".to_string());
    }
    let games = match args.games {
        Some(0) => return Err("--games must be at least 1".to_string()),
        Some(n) => n,
        None if sprt.is_some() && args.rounds == 1 => u64::MAX,
        None if engines == 2 => 2 * book.len() as u64,
        None => 2,
    };
    if args.max_plies == Some(0) {
        return Err("--max-plies must be at least 1".to_string());
    }
    let resign = args.resign.as_deref().map(ResignRule::parse).transpose()?;
    let draw = args.draw.as_deref().map(DrawRule::parse).transpose()?;
    let tablebase = match &args.tb {
        Some(dir) => {
            if !crate::solve::board::is_table_variant(variant) {
                return Err(format!(
                    "--tb: the solved tables are for plain Bestemshchi, not {variant}"
                ));
            }
            let table = crate::solve::Tablebase::load(dir, None)
                .map_err(|e| format!("--tb {}: {e}", dir.display()))?;
            Some(Arc::new(table))
        }
        None => None,
    };
    let random = book_spec.as_ref().is_some_and(|b| b.random);
    let seed = args.seed.or(random.then_some(0));
    let schedule = Schedule {
        encounters: Schedule::encounters_of(engines, args.tournament),
        rounds: args.rounds,
        games,
        paired: !args.noswap,
        order: openings::order(book.len(), seed),
        start: book_spec.as_ref().map_or(0, |b| b.start - 1),
    };
    let total = schedule.total();
    if let Some(only) = &args.only_games
        && let Some(bad) = only.iter().find(|&&i| total.is_some_and(|t| i >= t))
    {
        return Err(format!(
            "--only-games: game {bad} is beyond the match's {} games",
            total.unwrap_or(0)
        ));
    }
    let pgn_path = args.pgn.clone().or_else(|| args.resume.clone());
    if let (Some(pgn), Some(resume)) = (&args.pgn, &args.resume)
        && pgn != resume
    {
        return Err(
            "--resume appends to the PGN it reads: leave out --pgn or give the same file"
                .to_string(),
        );
    }
    let mut pgn = match &pgn_path {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--pgn {}: {e}", path.display()))?,
        ),
        None => None,
    };
    if let Some(path) = &args.json {
        File::create(path).map_err(|e| format!("--json {}: {e}", path.display()))?;
    }

    let mut names = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        names.push(preflight(spec, i + 1, variant, args.debug)?);
    }
    for i in 1..names.len() {
        let mut copy = 2;
        let base = names[i].clone();
        while names[..i].contains(&names[i]) {
            names[i] = format!("{base} ({copy})");
            copy += 1;
        }
    }

    let mut tally = Tally::new(names.clone(), &schedule.encounters, sprt);
    let mut done = HashSet::new();
    if let Some(path) = &args.resume {
        for game in resumed_games(path, &schedule, &names, &book, total)? {
            done.insert(game.plan.index);
            tally.add(game);
        }
    }
    let resumed = tally.played();

    let settings = Arc::new(Settings {
        variant,
        move_timeout: Duration::from_millis(args.move_timeout.max(1)),
        max_plies: args.max_plies,
        resign,
        draw,
        tablebase,
        debug: args.debug,
    });
    let pending: Arc<Vec<u64>> = Arc::new(match (&args.only_games, total) {
        (Some(only), _) => only.iter().copied().filter(|i| !done.contains(i)).collect(),
        (None, Some(total)) => (0..total).filter(|i| !done.contains(i)).collect(),
        (None, None) => Vec::new(),
    });
    let unbounded = args.only_games.is_none() && total.is_none();
    let done = Arc::new(done);
    let book = Arc::new(book);
    let schedule = Arc::new(schedule);
    let (stop, interrupted) = {
        let (stop, interrupted) = interrupt_flags();
        (Arc::clone(stop), Arc::clone(interrupted))
    };
    stop.store(false, Ordering::SeqCst);
    interrupted.store(false, Ordering::SeqCst);
    let next = Arc::new(AtomicU64::new(0));
    let (sender, results) = mpsc::channel::<Finished>();
    let mut workers = Vec::new();
    let to_play = if unbounded {
        u64::MAX
    } else {
        pending.len() as u64
    };
    let slots = (args.concurrency as u64).min(to_play) as usize;
    for worker in 0..slots {
        let sender = sender.clone();
        let (settings, book, schedule, stop, next, pending, done) = (
            Arc::clone(&settings),
            Arc::clone(&book),
            Arc::clone(&schedule),
            Arc::clone(&stop),
            Arc::clone(&next),
            Arc::clone(&pending),
            Arc::clone(&done),
        );
        let mut seats: Vec<Seat> = (0..engines)
            .map(|e| Seat {
                spec: specs[e].clone(),
                name: names[e].clone(),
                label: format!("{}#{}", names[e], worker + 1),
                limits: limits[e],
                grace: Duration::from_millis(specs[e].timemargin.unwrap_or(args.timemargin)),
                engine: None,
            })
            .collect();
        let handle = std::thread::Builder::new()
            .name(format!("match-{}", worker + 1))
            .spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let cursor = next.fetch_add(1, Ordering::SeqCst);
                    let index = if unbounded {
                        if done.contains(&cursor) {
                            continue;
                        }
                        cursor
                    } else {
                        match pending.get(cursor as usize) {
                            Some(&index) => index,
                            None => break,
                        }
                    };
                    let plan = schedule.plan(index);
                    let opening = &book[plan.opening];
                    let [south, north] = plan.seats;
                    let (low, high) = seats.split_at_mut(south.max(north));
                    let pair = if south < north {
                        [&mut low[south], &mut high[0]]
                    } else {
                        [&mut high[0], &mut low[north]]
                    };
                    match referee::play(pair, opening, &settings, &stop) {
                        Some(played) => {
                            if sender.send(Finished { plan, played }).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                for seat in &mut seats {
                    seat.shutdown();
                }
            })
            .map_err(|e| format!("cannot start a match thread: {e}"))?;
        workers.push(handle);
    }
    drop(sender);

    let bar = !args.worker_json
        && match args.progress {
            Progress::Bar => true,
            Progress::Lines => false,
            Progress::Auto => std::io::stdout().is_terminal(),
        };
    let started = Instant::now();
    let date = today();
    let site = hostname();
    let time_controls: Vec<String> = limits.iter().map(|l| l.time.pgn_tag()).collect();
    let mut pgn_error = None;
    let shown_total = if args.only_games.is_some() {
        Some(pending.len() as u64 + resumed)
    } else {
        total
    };
    let stdout = std::io::stdout();
    if bar {
        let mut out = stdout.lock();
        let _ = write!(out, "{}", progress_bar(&tally, shown_total, started));
        let _ = out.flush();
    }
    loop {
        let finished = match results.recv_timeout(Duration::from_millis(500)) {
            Ok(finished) => finished,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if bar {
                    let mut out = stdout.lock();
                    let _ = write!(out, "{}", progress_bar(&tally, shown_total, started));
                    let _ = out.flush();
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if stop.load(Ordering::SeqCst) {
            // Stopped (Ctrl-C, a decided SPRT, a PGN error): later results are abandoned.
            continue;
        }
        let result = finished.result();
        let seats = finished.plan.seats;
        let record = record_of(
            &finished.played,
            &args.event,
            finished.plan.index + 1,
            [&time_controls[seats[0]], &time_controls[seats[1]]],
            &date,
            &site,
        );
        if let Some(file) = pgn.as_mut() {
            let written = writeln!(file, "{record}").and_then(|_| file.flush());
            if let Err(e) = written {
                pgn_error = Some(format!(
                    "--pgn: writing game {}: {e}",
                    finished.plan.index + 1
                ));
                stop.store(true, Ordering::SeqCst);
            }
        }
        let mut out = stdout.lock();
        if args.worker_json {
            let _ = writeln!(
                out,
                "{}",
                report::game_json(&result, Some(&record.to_string()))
            );
        }
        tally.add(result);
        if args.worker_json {
        } else if bar {
            let _ = write!(out, "{}", progress_bar(&tally, shown_total, started));
        } else {
            let played = &finished.played;
            let _ = writeln!(
                out,
                "Finished game {} ({} vs {}): {} {{{}}}",
                finished.plan.index + 1,
                played.names[0],
                played.names[1],
                played.outcome.token(),
                played.reason()
            );
            let _ = writeln!(out, "{}", tally.score_line(finished.plan.encounter));
            if args.ratinginterval > 0
                && (tally.played() - resumed).is_multiple_of(args.ratinginterval)
            {
                for line in tally.tables() {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        let _ = out.flush();
        drop(out);
        if let Some(state) = tally.sprt_state()
            && state != SprtState::Continue
        {
            stop.store(true, Ordering::SeqCst);
        }
    }
    for handle in workers {
        let _ = handle.join();
    }
    let interrupted = interrupted.load(Ordering::SeqCst);
    if let Some(path) = &args.json {
        let complete = !interrupted && pgn_error.is_none();
        std::fs::write(path, tally.to_json(complete))
            .map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    if args.worker_json {
        return match pgn_error {
            Some(error) => Err(error),
            None => Ok(()),
        };
    }
    let mut out = stdout.lock();
    if bar {
        let _ = writeln!(out, "{}", progress_bar(&tally, shown_total, started));
    }
    if interrupted {
        let _ = writeln!(out, "Interrupted: games still running were abandoned.");
    }
    if resumed > 0 {
        let _ = writeln!(out, "Resumed: {resumed} games from the PGN counted.");
    }
    for line in tally.summary() {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "Finished match: {} games in {:.1} s",
        tally.played(),
        started.elapsed().as_secs_f64()
    );
    let _ = out.flush();
    match pgn_error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }
}
