//! The `tuzdik` command: with no arguments it speaks the protocol on stdin/stdout; the
//! subcommands run a job and exit.

mod gui;
mod nnue_cli;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use tuzdik::perft::{MAX_DEPTH, PerftOptions, divide};
use tuzdik::record::replay_reader;
use tuzdik::{Family, Game};

#[derive(Parser)]
#[command(
    name = "tuzdik",
    version,
    about = "Toguz Kumalak engine. With no command it speaks the UCI/UGI protocol on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (perft) with a per-move breakdown.
    Perft(PerftArgs),
    /// Fixed-depth searches over the built-in bench positions (one thread, 16 MiB hash); the
    /// last line is `<nodes> nodes <nps> nps`, and the node count is the search's signature.
    Bench {
        /// Search depth (13; 8 with `--bare`).
        depth: Option<u32>,
        /// Runs the bare alpha-beta instead (the engine's make and board score, nothing
        /// else): the ceiling of the search's speed on this machine right now.
        #[arg(long)]
        bare: bool,
        /// Evaluates the Toguz Kumalak positions with this net (`tuzdik train` writes one)
        /// instead of the embedded one; the net's hash is printed either way.
        #[arg(long, value_name = "NET", conflicts_with_all = ["bare", "hce"])]
        evalfile: Option<std::path::PathBuf>,
        /// Evaluates every position with the hand-crafted evaluation (no net).
        #[arg(long, conflicts_with = "bare")]
        hce: bool,
    },
    /// Replay every game of a PlayOK-style PGN file and check it against the rules.
    Replay {
        /// The PGN file.
        file: std::path::PathBuf,
    },
    /// Print a random traditional Mangala IV set-up (all 98 counters dropped at random).
    Setup {
        /// The variant (only mangala4 has random set-ups).
        variant: String,
        /// The seed: the same seed gives the same board everywhere.
        #[arg(long)]
        seed: u64,
    },
    /// Play an engine-vs-engine match (see docs/match.md).
    Match(Box<tuzdik::matchrun::MatchArgs>),
    /// Play against the engine in the terminal.
    Play(tuzdik::interactive::PlayArgs),
    /// Annotate the games of a PGN file with the engine's scores and mark mistakes.
    Analyse(tuzdik::analyse::AnalyseArgs),
    /// Build (or resume, verify and probe) the table of exact values for every board with up
    /// to N stones: bestemshchi (docs/solve.md), togyz or kozdatu (docs/solve-toguz.md).
    Solve(SolveArgs),
    /// Fit the evaluation weights to game results (Texel's method; see docs/tune.md).
    Tune(TuneArgs),
    /// Play and analyse in the browser: a local web page that drives an engine through the
    /// protocol (this one by default; see docs/gui.md).
    Gui(gui::GuiArgs),
    /// Self-play training data for the net, or PlayOK/PGN games converted (docs/nnue.md).
    Datagen(nnue_cli::DatagenArgs),
    /// Train a net on datagen records (docs/nnue.md); `EvalFile` or `bench --evalfile` plays it.
    Train(nnue_cli::TrainArgs),
    /// Fit (or check) the models that turn the search's score into the expected final margin
    /// and win/draw/loss chances, on the engine's own games (see docs/calibration.md).
    Calibrate(CalibrateArgs),
    /// Measure the win expectation rated players and the strength levels lose per move, with
    /// the full engine as judge, to anchor UCI_Elo to people (see docs/levels.md).
    Levels(LevelsArgs),
}

#[derive(Args)]
struct LevelsArgs {
    /// Rated games (PGN with WhiteElo/BlackElo), such as PlayOK's.
    pgn: std::path::PathBuf,
    /// Measure every N-th game.
    #[arg(long, default_value_t = 12)]
    every: usize,
    /// The judge's nodes per position.
    #[arg(long, default_value_t = 60_000)]
    judge_nodes: u64,
    /// The levels play every N-th position with a choice.
    #[arg(long, default_value_t = 8)]
    level_every: usize,
    /// The levels' Elos, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "800,1000,1250,1500,1750,2000,2250"
    )]
    elos: Vec<u32>,
}

fn run_levels(args: &LevelsArgs) -> Result<(), String> {
    let options = tuzdik::levels::LevelsOptions {
        pgn: args.pgn.clone(),
        every: args.every,
        judge_nodes: args.judge_nodes,
        level_every: args.level_every,
        elos: args.elos.clone(),
    };
    let measured = tuzdik::levels::measure(&options, |index, measured| {
        eprint!("\rgame {} ({} measured)", index + 1, measured.games);
    })?;
    eprintln!();
    print!("{}", tuzdik::levels::report(&options, &measured));
    Ok(())
}

#[derive(Args)]
struct CalibrateArgs {
    /// Play this many self-play games (in this process, so the scores are the search's own).
    #[arg(long, default_value_t = 0)]
    selfplay: usize,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 40_000)]
    nodes: u64,
    /// Self-play games played side by side (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the openings' order and random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening book for self-play (one position string a line); the built-in one by default.
    #[arg(long)]
    openings: Option<String>,
    /// PGN files whose move comments hold internal scores (such as `calibrate --save`'s).
    #[arg(long)]
    pgn: Vec<String>,
    /// Write the self-play games (with their internal scores) to this PGN file.
    #[arg(long)]
    save: Option<String>,
    /// Write every scored position (game, internal score, kazan margin, stones on the board,
    /// board share, final margin) to this CSV file.
    #[arg(long)]
    samples: Option<String>,
    /// Judge the engine's built-in models on the games instead of fitting new ones; exits
    /// non-zero when a bucket or decile is outside the bars.
    #[arg(long)]
    check: bool,
    /// Calibrate the hand-crafted evaluation (self-play without the net, and its model)
    /// instead of the built-in net's. Games given by --pgn must be of the same evaluation.
    #[arg(long)]
    hce: bool,
    /// The score scale S of the fit, in stones (scores enter the model as S·tanh(s/S));
    /// the built-in model's by default.
    #[arg(long, value_name = "STONES")]
    score_scale: Option<f64>,
}

fn run_calibrate(args: &CalibrateArgs) -> Result<(), String> {
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".to_string());
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(format!(
            "--threads {} is out of range (1..256)",
            args.threads
        ));
    }
    if let Some(scale) = args.score_scale
        && !(scale.is_finite() && (1.0..=10_000.0).contains(&scale))
    {
        return Err(format!(
            "--score-scale {scale} is out of range (1..10000 stones)"
        ));
    }
    let options = tuzdik::calibrate::CalibrateOptions {
        selfplay: args.selfplay,
        nodes: args.nodes,
        threads: args.threads,
        seed: args.seed,
        openings: args.openings.clone(),
        pgn: args.pgn.clone(),
        check: args.check,
        save: args.save.clone(),
        samples: args.samples.clone(),
        hce: args.hce,
        score_scale: args.score_scale,
    };
    let (report, within) = tuzdik::calibrate::run(&options)?;
    print!("{report}");
    if args.check && !within {
        return Err("the built-in models are outside the bars on these games".to_string());
    }
    Ok(())
}

#[derive(Args)]
struct TuneArgs {
    /// PGN files of finished games (PlayOK records, `tuzdik match` output).
    files: Vec<std::path::PathBuf>,
    /// Seed of the sampling, the train/validation split and the self-play openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions sampled from each game (at most).
    #[arg(long, default_value_t = 10)]
    positions_per_game: usize,
    /// Plies at the start of each game that are never sampled.
    #[arg(long, default_value_t = 8)]
    skip_plies: usize,
    /// Generate this many self-play games first and use them too.
    #[arg(long, default_value_t = 0)]
    selfplay: usize,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 20_000)]
    selfplay_nodes: u64,
    /// Write the self-play games to this PGN file.
    #[arg(long)]
    selfplay_out: Option<std::path::PathBuf>,
    /// Newton iterations of the weight fit.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Percent of the games kept for validation (0..99).
    #[arg(long, default_value_t = 20)]
    validation: u32,
    /// Also write the report to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

fn run_tune(args: &TuneArgs) -> Result<(), String> {
    if args.selfplay_nodes == 0 {
        return Err("--selfplay-nodes must be at least 1".to_string());
    }
    let options = tuzdik::tune::TuneOptions {
        files: args.files.clone(),
        seed: args.seed,
        positions_per_game: args.positions_per_game,
        skip_plies: args.skip_plies,
        selfplay: args.selfplay,
        selfplay_nodes: args.selfplay_nodes,
        selfplay_out: args.selfplay_out.clone(),
        epochs: args.epochs,
        validation_percent: args.validation,
    };
    let report = tuzdik::tune::run(&options)?;
    print!("{report}");
    if let Some(path) = &args.out {
        std::fs::write(path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[derive(Args)]
struct SolveArgs {
    /// The variant: `bestemshchi` (no tuzdik), `togyz`, `kozdatu`, or a spec with the tuzdik
    /// switch such as "kozdatu tuzdik=on" (standard sowing and capture only).
    variant: String,
    /// Build every level up to this many stones on the board (bestemshchi: even, at most
    /// 50; togyz and kozdatu: fewer than the ring's holes).
    #[arg(long)]
    max_stones: u32,
    /// Directory of the level files (`bestemshchi-k<k>.bin`, `togyz-<kk>.tzt`, ..).
    #[arg(long, default_value = "tables")]
    out: std::path::PathBuf,
    /// Check every entry against its children (the loaded lower levels and the level itself).
    #[arg(long)]
    verify: bool,
    /// Like --verify, but only the levels of at least this many stones (bestemshchi): a
    /// resumed build checks just the levels it adds.
    #[arg(long, value_name = "K")]
    verify_from: Option<u32>,
    /// Solve levels again even when their files exist (by default existing files are loaded,
    /// so a stopped build resumes where it was).
    #[arg(long)]
    rebuild: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Position strings to look up once the table is ready: the value and every move's value.
    #[arg(long)]
    probe: Vec<String>,
}

#[derive(Args)]
struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    #[command(flatten)]
    rules: tuzdik::matchrun::RuleArgs,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play from the start position first.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Shared transposition cache size in MiB (0 = none).
    #[arg(long, default_value_t = 0)]
    hash: usize,
}

fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let mut game = match &args.fen {
        Some(fen) => Game::from_fen(fen, variant).map_err(|e| format!("--fen: {e}"))?,
        None => Game::new(variant),
    };
    for text in &args.moves {
        game.play_text(text).map_err(|e| format!("--moves: {e}"))?;
    }
    if args.depth > MAX_DEPTH {
        return Err(format!(
            "depth {} is beyond the limit of {MAX_DEPTH}",
            args.depth
        ));
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(format!("--threads {} is outside 1..256", args.threads));
    }
    let options = PerftOptions {
        threads: args.threads,
        cache_entries: args.hash.saturating_mul(1 << 20) / 64,
    };
    let started = Instant::now();
    let split = divide(
        game.position(),
        args.depth,
        &options,
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())?;
    let elapsed = started.elapsed();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let total: u64 = if args.depth == 0 {
        1
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    for (mv, count) in &split {
        let _ = writeln!(out, "{mv}: {count}");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Nodes searched: {total}");
    let seconds = elapsed.as_secs_f64();
    let _ = writeln!(
        out,
        "Time: {:.3} s, {:.1} M nodes/s",
        seconds,
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

fn run_replay(file: &std::path::Path) -> Result<(), String> {
    let opened = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    match replay_reader(io::BufReader::new(opened)) {
        Ok(summary) => {
            println!("{summary}");
            Ok(())
        }
        Err(failure) => Err(format!("{}: {failure}", file.display())),
    }
}

fn run_bench(
    depth: Option<u32>,
    bare: bool,
    evalfile: Option<&std::path::Path>,
    hce: bool,
) -> Result<(), String> {
    use tuzdik::search::{bare as bare_search, bench};
    // The bare search has no move order: its tree grows by the full branching factor.
    let (default, most) = if bare {
        (bare_search::DEFAULT_DEPTH, 12)
    } else {
        (bench::DEFAULT_DEPTH, 64)
    };
    let depth = depth.unwrap_or(default);
    if !(1..=most).contains(&depth) {
        let what = if bare { "bare bench" } else { "bench" };
        return Err(format!("{what} depth {depth} is outside 1..{most}"));
    }
    let network = match evalfile {
        Some(path) => {
            let network =
                tuzdik::nnue::Network::load(path).map_err(|e| format!("--evalfile: {e}"))?;
            eprintln!("net {:016x} from {}", network.hash(), path.display());
            Some(std::sync::Arc::new(network))
        }
        None if hce || bare => None,
        None => {
            let network = tuzdik::nnue::embedded();
            eprintln!("net {:016x} (embedded)", network.hash());
            Some(network)
        }
    };
    let control = tuzdik::search::StopHandle::new();
    let each = |index: usize, nodes: u64| eprintln!("position {:>2}: {nodes} nodes", index + 1);
    let result = if bare {
        bare_search::run(depth, &control, each)?
    } else {
        bench::run(depth, network, &control, each)?
    };
    eprintln!(
        "{} positions, depth {depth}{}, {:.3} s",
        result.positions,
        if bare { " (bare alpha-beta)" } else { "" },
        result.time.as_secs_f64()
    );
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

fn run_setup(variant: &str, seed: u64) -> Result<(), String> {
    let family: Family = variant.parse().map_err(|e| format!("{e}"))?;
    if !family.is_mangala() {
        return Err(format!(
            "random set-ups are for mangala4; {family} starts with {} in every hole",
            family.stones_per_hole()
        ));
    }
    println!("{}", tuzdik::Position::random_mangala(seed).to_fen(1));
    Ok(())
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1 << 30))
}

fn run_solve(args: &SolveArgs) -> Result<(), String> {
    use tuzdik::solve::bestemshchi::{self, BuildOptions};
    let variant: tuzdik::Variant = args.variant.parse().map_err(|e| format!("{e}"))?;
    if variant != tuzdik::Variant::new(Family::Bestemshchi) {
        if args.verify_from.is_some() {
            return Err(format!(
                "--verify-from is for bestemshchi tables only (use --verify for {})",
                args.variant
            ));
        }
        return run_toguz_solve(args, variant);
    }
    bestemshchi::check_limit(args.max_stones).map_err(|e| e.to_string())?;
    let threads = args.threads.unwrap_or(0);
    if threads > 256 {
        return Err(format!("--threads {threads} is outside 1..256"));
    }
    let probes = parse_probes(&args.probe, variant)?;
    check_output_dir(&args.out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("could not start the worker threads: {e}"))?;
    let entries = bestemshchi::total_entries(args.max_stones);
    let needed = bestemshchi::memory_needed(args.max_stones);
    println!(
        "bestemshchi levels 0..={} (even): {entries} entries, {} of tables in {}; \
         about {} of memory at the last level; {} threads",
        args.max_stones,
        gib(entries),
        args.out.display(),
        gib(needed),
        pool.current_num_threads()
    );
    warn_if_short_of_memory(needed);
    let options = BuildOptions {
        max_stones: args.max_stones,
        out: Some(args.out.clone()),
        verify: args.verify || args.verify_from.is_some(),
        verify_from: args.verify_from.unwrap_or(0),
        rebuild: args.rebuild,
    };
    let started = Instant::now();
    let table = pool
        .install(|| bestemshchi::build(&options, print_level))
        .map_err(|e| e.to_string())?;
    print_built(&table, started, &probes);
    Ok(())
}

/// The end of a build: its time, then each `--probe` position's answer.
fn print_built<F: tuzdik::solve::family::BoardFamily>(
    table: &tuzdik::solve::table::Table<F>,
    started: Instant,
    probes: &[tuzdik::Position],
) {
    println!(
        "done in {:.3} s, levels 0..={}",
        started.elapsed().as_secs_f64(),
        table.max_stones()
    );
    for pos in probes {
        print_table_answer(
            pos,
            table.probe(pos),
            table.move_values(pos),
            table.max_stones(),
        );
    }
}

/// The `--probe` positions of `variant`: a bad one is refused before a long build, not after.
fn parse_probes(
    texts: &[String],
    variant: tuzdik::Variant,
) -> Result<Vec<tuzdik::Position>, String> {
    texts
        .iter()
        .map(|text| {
            tuzdik::Position::parse_with(text, variant).map_err(|e| format!("--probe {text}: {e}"))
        })
        .collect()
}

/// Makes the `--out` directory if missing and checks that a file can be written there, so a
/// build fails at once rather than after solving its first level.
fn check_output_dir(dir: &std::path::Path) -> Result<(), String> {
    let refused = |e: std::io::Error| format!("--out {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(refused)?;
    let probe = dir.join(format!(".tuzdik-write-check-{}", std::process::id()));
    std::fs::File::create(&probe).map_err(refused)?;
    std::fs::remove_file(&probe).map_err(refused)
}

/// `tuzdik solve togyz|kozdatu|..`: the Toguz-family table with tuzdiks.
fn run_toguz_solve(args: &SolveArgs, variant: tuzdik::Variant) -> Result<(), String> {
    use tuzdik::solve::toguz::{self, BuildOptions, ToguzTable, index::level_size};
    let g = toguz::check_limit(variant, args.max_stones).map_err(|e| e.to_string())?;
    let threads = args.threads.unwrap_or(0);
    if threads > 256 {
        return Err(format!("--threads {threads} is outside 1..256"));
    }
    let probes = parse_probes(&args.probe, variant)?;
    check_output_dir(&args.out)?;
    let entries = toguz::total_entries(g, args.max_stones);
    let needed = toguz::memory_needed(g, args.max_stones);
    println!(
        "{} levels 0..={}: {entries} entries, {} of tables in {}; about {} of memory at the \
         last level",
        g.name(),
        args.max_stones,
        gib(entries),
        args.out.display(),
        gib(needed),
    );
    for k in 0..=args.max_stones {
        println!("  level {k:>2}: {:>11} entries", level_size(g, k));
    }
    warn_if_short_of_memory(needed);
    let options = BuildOptions {
        variant,
        max_stones: args.max_stones,
        threads,
        out: Some(args.out.clone()),
        verify: args.verify,
        rebuild: args.rebuild,
    };
    let started = Instant::now();
    let table = ToguzTable::build(&options, print_level).map_err(|e| e.to_string())?;
    print_built(&table, started, &probes);
    Ok(())
}

/// One line per level of a table build (both kinds of table): what was solved or loaded,
/// the check, the memory, and the values' histogram.
fn print_level(report: &tuzdik::solve::LevelReport) {
    let memory = report.memory.map_or_else(
        || "memory n/a".to_string(),
        |(rss, peak)| format!("rss {} peak {}", gib(rss), gib(peak)),
    );
    let work = match &report.solved {
        Some(times) => {
            let total = times.forward + times.retrograde;
            format!(
                "solved {:.3} s (forward {:.3} s, retrograde {:.3} s, {} expanded, \
                 {:.0} ns/entry), written {:.3} s",
                total.as_secs_f64(),
                times.forward.as_secs_f64(),
                times.retrograde.as_secs_f64(),
                times.expanded,
                total.as_secs_f64() * 1e9 / report.entries.max(1) as f64,
                report.file_time.as_secs_f64()
            )
        }
        None => format!("loaded {:.3} s", report.file_time.as_secs_f64()),
    };
    let check = match &report.verification {
        Some(v) if v.mismatches == 0 => format!(
            ", verified {} entries in {:.3} s",
            v.checked,
            report.verify_time.as_secs_f64()
        ),
        Some(v) => format!(", VERIFY FAILED: {} of {} entries", v.mismatches, v.checked),
        None => String::new(),
    };
    println!(
        "level {:>2}: {:>11} entries, {work}{check}, {memory}",
        report.stones, report.entries
    );
    println!("          {}", report.histogram.summary());
    let _ = io::stdout().flush();
}

/// A `--probe` answer: the table's value of `pos` and of each of its moves, and the result
/// they give with the kazans, or why the table does not cover it.
fn print_table_answer(
    pos: &tuzdik::Position,
    value: Option<i32>,
    moves: Option<Vec<(tuzdik::Move, i32)>>,
    max_stones: u32,
) {
    let mover = pos.side_to_move();
    let lead = pos.kazan(mover) as i32 - pos.kazan(mover.opponent()) as i32;
    match (value, moves) {
        (Some(value), Some(moves)) => {
            let result = match (lead + value).signum() {
                1 => "wins",
                -1 => "loses",
                _ => "draws",
            };
            let moves: Vec<String> = moves.iter().map(|(mv, v)| format!("{mv}:{v:+}")).collect();
            println!(
                "{pos}: {mover} to move, future margin {value:+}, {mover} {result}; moves {}",
                moves.join(" ")
            );
        }
        _ => println!(
            "{pos}: not in the table ({} stones on the board, the table has up to {max_stones})",
            pos.stones_on_board()
        ),
    }
}

/// Warns on stderr when the machine has less memory available than a build needs.
fn warn_if_short_of_memory(needed: u64) {
    if let Some(available) = available_memory()
        && available < needed
    {
        eprintln!(
            "warning: only {} of memory is available; the last levels will not fit",
            gib(available)
        );
    }
}

/// `MemAvailable` from /proc/meminfo (Linux).
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        None => {
            // A GUI never sees the banner: it is for a person at a terminal.
            if io::IsTerminal::is_terminal(&io::stdin()) {
                println!("{}", tuzdik::protocol::BANNER);
            }
            tuzdik::protocol::run(io::BufReader::new(io::stdin()), io::stdout());
            Ok(())
        }
        Some(Command::Perft(args)) => run_perft(args),
        Some(Command::Replay { file }) => run_replay(file),
        Some(Command::Bench {
            depth,
            bare,
            evalfile,
            hce,
        }) => run_bench(*depth, *bare, evalfile.as_deref(), *hce),
        Some(Command::Setup { variant, seed }) => run_setup(variant, *seed),
        Some(Command::Match(args)) => tuzdik::matchrun::run(args),
        Some(Command::Play(args)) => tuzdik::interactive::play(args),
        Some(Command::Analyse(args)) => tuzdik::analyse::analyse(args),
        Some(Command::Solve(args)) => run_solve(args),
        Some(Command::Tune(args)) => run_tune(args),
        Some(Command::Calibrate(args)) => run_calibrate(args),
        Some(Command::Levels(args)) => run_levels(args),
        Some(Command::Gui(args)) => gui::run(args),
        Some(Command::Datagen(args)) => nnue_cli::run_datagen(args),
        Some(Command::Train(args)) => nnue_cli::run_train(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tuzdik: {message}");
            ExitCode::FAILURE
        }
    }
}
