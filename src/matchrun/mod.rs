//! Engine-vs-engine matches (`tuzdik match`): two engines, a book of openings each played
//! twice with colours swapped, a referee that keeps every game by the project's rules, a
//! PGN of every game, the score, Elo and an optional pentanomial SPRT. See `docs/match.md`.
//!
//! The parts: [`engine`] (processes, handshake, time-stamped output with deadlines),
//! [`referee`] (one game), [`clock`] (time controls), [`openings`] (books, order),
//! [`stats`] (Elo, SPRT). This module parses the command line, runs the workers (one per
//! `--concurrency` slot, each with its own pair of engine processes), and collects results
//! on the main thread, which alone writes the PGN and the output.

pub mod clock;
pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use clap::Args;

use crate::position::Side;
use crate::record::{Outcome, Record};
use crate::variant::Variant;
use clock::{Limits, TimeControl};
use engine::{Engine, EngineSpec};
use openings::Opening;
use referee::{Ending, FaultKind, Played, Seat, Settings};
use stats::{Pentanomial, Sprt, SprtState, Trinomial};

/// The rule switches shared by `perft`, `match`, `play` and `analyse`.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// Variant: togyz, kozdatu, bestemshchi or mangala4.
    #[arg(long, default_value = "togyz")]
    pub variant: String,
    /// Tuzdik switch (on/off); the default follows the variant (Toguz family only).
    #[arg(long)]
    pub tuzdik: Option<String>,
    /// Sowing switch: standard or skip-origin (Toguz family only).
    #[arg(long)]
    pub sowing: Option<String>,
    /// Capture switch: standard or singleton (Toguz family only).
    #[arg(long)]
    pub capture: Option<String>,
    /// Mangala IV's move switch: leftmost or free-choice.
    #[arg(long)]
    pub mangala: Option<String>,
}

impl RuleArgs {
    /// The rules these switches give; a switch the variant does not have is an error.
    pub fn variant(&self) -> Result<Variant, String> {
        let mut spec = self.variant.clone();
        for (flag, value) in [
            ("tuzdik", &self.tuzdik),
            ("sowing", &self.sowing),
            ("capture", &self.capture),
            ("mangala", &self.mangala),
        ] {
            if let Some(value) = value {
                if value.contains(char::is_whitespace) || value.is_empty() {
                    return Err(format!("--{flag}: bad value '{value}'"));
                }
                spec.push_str(&format!(" {flag}={value}"));
            }
        }
        if self.variant.contains(char::is_whitespace) {
            return Err(format!("--variant: bad value '{}'", self.variant));
        }
        spec.parse::<Variant>()
            .map_err(|e| format!("--variant {spec}: {e}"))
    }
}

/// How progress is shown.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A bar when standard output is a terminal, lines otherwise.
    Auto,
    /// A live progress bar.
    Bar,
    /// A line per finished game and the running score.
    Lines,
}

/// The `--engine` arguments, each kept as the words that followed it (clap's derive cannot
/// group repeated multi-word options, so this part is written by hand).
#[derive(Debug, Clone, Default)]
pub struct EngineArgs {
    /// The words after each `--engine`.
    pub engines: Vec<Vec<String>>,
}

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let engines = matches
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineArgs { engines })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("SPEC")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .help(
                    "An engine, given twice: cmd=\"<command line>\" [name=N] [dir=D] [proto=uci|ugi] \
                     [option.<Name>=<value>]..., as one argument split like a shell line or as one \
                     argument per key=value pair",
                ),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        EngineArgs::augment_args(command)
    }
}

/// `tuzdik match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The two `--engine` specs.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Games to play (default: every opening twice; with --sprt: until a bound is crossed).
    #[arg(long)]
    pub games: Option<u64>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Time control `[moves/]base[+increment]` in seconds, e.g. 10+0.1 or 40/60.
    #[arg(long)]
    pub tc: Option<String>,
    /// A fixed time per move, ms.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search depth sent with every go.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit sent with every go.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Openings: one position string (or `startpos`) per line; `#` starts a comment.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Append every finished game to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// SPRT `elo0=E0,elo1=E1[,alpha=A,beta=B]` in normalised Elo; stops at a bound.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Adjudicate a game after this many plies: the board is shared as for a repetition.
    #[arg(long = "max-plies")]
    pub max_plies: Option<u32>,
    /// How far past its time (ms) a move may come and still count.
    #[arg(long, default_value_t = 100)]
    pub timemargin: u64,
    /// Without a clock (--depth/--nodes only), the longest wait for a move (ms).
    #[arg(long = "move-timeout", default_value_t = 60_000)]
    pub move_timeout: u64,
    /// The PGN Event tag.
    #[arg(long, default_value = "tuzdik match")]
    pub event: String,
    /// Progress display.
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    pub progress: Progress,
    /// Log every line sent to and read from the engines on stderr.
    #[arg(long)]
    pub debug: bool,
}

/// A finished game as a worker reports it.
struct Finished {
    index: u64,
    a_is_south: bool,
    played: Played,
}

/// Everything the main thread keeps.
struct Tally {
    names: [String; 2],
    trinomial: Trinomial,
    pentanomial: Pentanomial,
    /// A's half points in the first finished game of each pair still waiting for its twin.
    open_pairs: HashMap<u64, u8>,
    faults: [BTreeMap<FaultKind, u64>; 2],
    adjudicated: u64,
    sprt: Option<Sprt>,
}

impl Tally {
    fn add(&mut self, finished: &Finished) {
        let a_side = if finished.a_is_south {
            Side::South
        } else {
            Side::North
        };
        let half_points = match finished.played.outcome {
            Outcome::SouthWins if a_side == Side::South => 2,
            Outcome::NorthWins if a_side == Side::North => 2,
            Outcome::Draw => 1,
            _ => 0,
        };
        match half_points {
            2 => self.trinomial.wins += 1,
            1 => self.trinomial.draws += 1,
            _ => self.trinomial.losses += 1,
        }
        let pair = finished.index / 2;
        match self.open_pairs.remove(&pair) {
            Some(first) => self.pentanomial.add(first, half_points),
            None => {
                self.open_pairs.insert(pair, half_points);
            }
        }
        match &finished.played.ending {
            Ending::Forfeit { loser, fault } => {
                let engine = if *loser == a_side { 0 } else { 1 };
                *self.faults[engine].entry(fault.kind).or_default() += 1;
            }
            Ending::MaxPlies(_) => self.adjudicated += 1,
            Ending::Rules(_) => {}
        }
    }

    fn llr(&self) -> Option<f64> {
        self.sprt.map(|s| self.pentanomial.llr(s.elo0, s.elo1))
    }

    fn score_line(&self) -> String {
        let t = &self.trinomial;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.names[0],
            self.names[1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        )
    }

    fn summary(&self) -> Vec<String> {
        let t = &self.trinomial;
        let mut lines = vec![self.score_line()];
        if let Some(elo) = t.elo() {
            lines.push(format!(
                "Elo difference: {elo} (95%), LOS: {:.1} %, DrawRatio: {:.1} %",
                t.los() * 100.0,
                t.draw_ratio() * 100.0
            ));
        }
        let p = &self.pentanomial;
        if p.pairs() > 0 {
            let mut line = format!(
                "Ptnml(0-2): [{}], {} pair{}",
                p.0.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                p.pairs(),
                if p.pairs() == 1 { "" } else { "s" }
            );
            if let Some(elo) = p.elo() {
                line.push_str(&format!(": Elo {elo}"));
            }
            if let Some(nelo) = p.normalized_elo() {
                line.push_str(&format!(", nElo {nelo}"));
            }
            line.push_str(" (95%)");
            lines.push(line);
        }
        if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
            let (lower, upper) = sprt.bounds();
            let verdict = match sprt.state(llr) {
                SprtState::H1 => "H1 accepted",
                SprtState::H0 => "H0 accepted",
                SprtState::Continue => "no decision yet",
            };
            lines.push(format!(
                "SPRT: llr {} ({}%), lbound {:.2}, ubound {:.2} (nElo [{}, {}], alpha {}, beta {}) - {verdict}",
                stats::number(llr, 2),
                stats::number(llr / upper * 100.0, 1),
                lower,
                upper,
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta
            ));
        }
        for (engine, faults) in self.faults.iter().enumerate() {
            if !faults.is_empty() {
                let list: Vec<String> = faults
                    .iter()
                    .map(|(kind, n)| format!("{} {n}", kind.name()))
                    .collect();
                lines.push(format!(
                    "Forfeits by {}: {}",
                    self.names[engine],
                    list.join(", ")
                ));
            }
        }
        if self.adjudicated > 0 {
            lines.push(format!("Adjudicated at --max-plies: {}", self.adjudicated));
        }
        lines
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

/// Builds the PGN record of a finished game.
pub fn record_of(
    played: &Played,
    event: &str,
    round: u64,
    time_control: &str,
    date: &str,
    site: &str,
) -> Record {
    let tags = [
        ("Event", event.to_string()),
        ("Site", site.to_string()),
        ("Date", date.to_string()),
        ("Round", round.to_string()),
        ("White", played.names[0].clone()),
        ("Black", played.names[1].clone()),
        ("Result", played.outcome.token().to_string()),
        ("TimeControl", time_control.to_string()),
        ("Variant", played.game.variant().to_string()),
    ];
    let mut record = Record::from_game(&played.game, &tags, Some(played.outcome));
    record.set_tag("Termination", played.pgn_termination());
    record.set_tag("PlyCount", played.game.moves().len().to_string());
    for (recorded, note) in record.moves.iter_mut().zip(&played.notes) {
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
                // A second Ctrl-C: give up at once (the engines see their input close).
                std::process::exit(130);
            }
            s.store(true, Ordering::SeqCst);
        });
        (stop, interrupted)
    })
}

fn limits_of(args: &MatchArgs) -> Result<Limits, String> {
    let time = match (&args.tc, args.movetime) {
        (Some(_), Some(_)) => return Err("give --tc or --movetime, not both".to_string()),
        (Some(tc), None) => clock::parse_tc(tc)?,
        (None, Some(0)) => return Err("--movetime must be at least 1 ms".to_string()),
        (None, Some(ms)) => TimeControl::MoveTime(ms),
        (None, None) => TimeControl::None,
    };
    if time == TimeControl::None && args.depth.is_none() && args.nodes.is_none() {
        return Err("give a time control: --tc, --movetime, --depth or --nodes".to_string());
    }
    if args.depth == Some(0) {
        return Err("--depth must be at least 1".to_string());
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".to_string());
    }
    Ok(Limits {
        time,
        depth: args.depth,
        nodes: args.nodes,
    })
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
    let t = &tally.trinomial;
    let done = t.games();
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
    line.push_str(&format!(
        "  {} - {} - {} [{:.3}]",
        t.wins,
        t.losses,
        t.draws,
        t.score()
    ));
    if let Some(elo) = t.elo() {
        line.push_str(&format!("  Elo {}", elo));
    }
    if let Some(llr) = tally.llr() {
        line.push_str(&format!("  LLR {}", stats::number(llr, 2)));
    }
    line.push_str(&format!("  {:.0}s", started.elapsed().as_secs_f64()));
    line
}

/// Runs a match. Configuration errors come back as `Err` (nothing was played); once games
/// are under way the match always ends with its summary.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let engine_words = &args.engines.engines;
    if engine_words.len() != 2 {
        return Err(format!(
            "give --engine exactly twice (got {})",
            engine_words.len()
        ));
    }
    let mut specs = Vec::new();
    for (i, words) in engine_words.iter().enumerate() {
        let spec = match words.as_slice() {
            [one] => EngineSpec::parse(one),
            pairs => EngineSpec::from_pairs(pairs),
        };
        specs.push(spec.map_err(|e| format!("--engine {}: {e}", i + 1))?);
    }
    let variant = args.rules.variant()?;
    let limits = limits_of(args)?;
    if args.concurrency == 0 || args.concurrency > 256 {
        return Err(format!(
            "--concurrency {} is outside 1..256",
            args.concurrency
        ));
    }
    let book: Vec<Opening> = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            openings::parse(&text, variant, &path.display().to_string())?
        }
        None => openings::default_for(variant)?,
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let games = match args.games {
        Some(0) => return Err("--games must be at least 1".to_string()),
        Some(n) => n,
        None if sprt.is_some() => u64::MAX,
        None => 2 * book.len() as u64,
    };
    if args.max_plies == Some(0) {
        return Err("--max-plies must be at least 1".to_string());
    }
    let mut pgn = match &args.pgn {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--pgn {}: {e}", path.display()))?,
        ),
        None => None,
    };

    let mut names = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        names.push(preflight(spec, i + 1, variant, args.debug)?);
    }
    if names[0] == names[1] {
        names[1] = format!("{} (2)", names[1]);
    }
    let names = [names[0].clone(), names[1].clone()];

    let settings = Arc::new(Settings {
        variant,
        limits,
        grace: Duration::from_millis(args.timemargin),
        move_timeout: Duration::from_millis(args.move_timeout.max(1)),
        max_plies: args.max_plies,
        debug: args.debug,
    });
    let order = openings::order(book.len(), args.seed);
    let book = Arc::new(book);
    let (stop, interrupted) = {
        let (stop, interrupted) = interrupt_flags();
        (Arc::clone(stop), Arc::clone(interrupted))
    };
    stop.store(false, Ordering::SeqCst);
    interrupted.store(false, Ordering::SeqCst);
    let next = Arc::new(AtomicU64::new(0));
    let (sender, results) = mpsc::channel::<Finished>();
    let mut workers = Vec::new();
    let slots = (args.concurrency as u64).min(games) as usize;
    for worker in 0..slots {
        let sender = sender.clone();
        let (settings, book, order, stop, next) = (
            Arc::clone(&settings),
            Arc::clone(&book),
            order.clone(),
            Arc::clone(&stop),
            Arc::clone(&next),
        );
        let mut seats = [0, 1].map(|e| Seat {
            spec: specs[e].clone(),
            name: names[e].clone(),
            label: format!("{}#{}", names[e], worker + 1),
            engine: None,
        });
        let handle = std::thread::Builder::new()
            .name(format!("match-{}", worker + 1))
            .spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= games {
                        break;
                    }
                    let opening = &book[order[((index / 2) % order.len() as u64) as usize]];
                    let a_is_south = index % 2 == 0;
                    let [a, b] = &mut seats;
                    let pair = if a_is_south { [a, b] } else { [b, a] };
                    match referee::play(pair, opening, &settings, &stop) {
                        Some(played) => {
                            let finished = Finished {
                                index,
                                a_is_south,
                                played,
                            };
                            if sender.send(finished).is_err() {
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

    let bar = match args.progress {
        Progress::Bar => true,
        Progress::Lines => false,
        Progress::Auto => std::io::stdout().is_terminal(),
    };
    let started = Instant::now();
    let date = today();
    let site = hostname();
    let time_control = limits.time.pgn_tag();
    let mut tally = Tally {
        names: names.clone(),
        trinomial: Trinomial::default(),
        pentanomial: Pentanomial::default(),
        open_pairs: HashMap::new(),
        faults: [BTreeMap::new(), BTreeMap::new()],
        adjudicated: 0,
        sprt,
    };
    let mut pgn_error = None;
    let total = (games != u64::MAX).then_some(games);
    let stdout = std::io::stdout();
    if bar {
        let mut out = stdout.lock();
        let _ = write!(out, "{}", progress_bar(&tally, total, started));
        let _ = out.flush();
    }
    loop {
        let finished = match results.recv_timeout(Duration::from_millis(500)) {
            Ok(finished) => finished,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if bar {
                    let mut out = stdout.lock();
                    let _ = write!(out, "{}", progress_bar(&tally, total, started));
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
        tally.add(&finished);
        if let Some(file) = pgn.as_mut() {
            let record = record_of(
                &finished.played,
                &args.event,
                finished.index + 1,
                &time_control,
                &date,
                &site,
            );
            let written = writeln!(file, "{record}").and_then(|_| file.flush());
            if let Err(e) = written {
                pgn_error = Some(format!("--pgn: writing game {}: {e}", finished.index + 1));
                stop.store(true, Ordering::SeqCst);
            }
        }
        let mut out = stdout.lock();
        if bar {
            let _ = write!(out, "{}", progress_bar(&tally, total, started));
        } else {
            let played = &finished.played;
            let _ = writeln!(
                out,
                "Finished game {} ({} vs {}): {} {{{}}}",
                finished.index + 1,
                played.names[0],
                played.names[1],
                played.outcome.token(),
                played.reason()
            );
            let _ = writeln!(out, "{}", tally.score_line());
        }
        let _ = out.flush();
        drop(out);
        if let (Some(sprt), Some(llr)) = (tally.sprt, tally.llr())
            && sprt.state(llr) != SprtState::Continue
        {
            stop.store(true, Ordering::SeqCst);
        }
    }
    for handle in workers {
        let _ = handle.join();
    }
    let mut out = stdout.lock();
    if bar {
        let _ = writeln!(out, "{}", progress_bar(&tally, total, started));
    }
    if interrupted.load(Ordering::SeqCst) {
        let _ = writeln!(out, "Interrupted: games still running were abandoned.");
    }
    for line in tally.summary() {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "Finished match: {} games in {:.1} s",
        tally.trinomial.games(),
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
