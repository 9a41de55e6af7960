//! The command line of `tuzdik match` (and the rule switches `perft`, `play` and `analyse`
//! share), as clap arguments.

use clap::Args;

use super::*;

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

/// The `--engine` arguments (and `--each`), each kept as the words that followed it
/// (clap's derive cannot group repeated multi-word options, so this part is written by hand).
#[derive(Debug, Clone, Default)]
pub struct EngineArgs {
    /// The words after each `--engine`.
    pub engines: Vec<Vec<String>>,
    /// The words after `--each` (every `--each` together).
    pub each: Vec<String>,
}

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let engines = matches
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        let each = matches
            .get_many::<String>("each")
            .map(|words| words.cloned().collect())
            .unwrap_or_default();
        Ok(EngineArgs { engines, each })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
            .arg(
                clap::Arg::new("engine")
                    .long("engine")
                    .value_name("SPEC")
                    .num_args(1..)
                    .action(clap::ArgAction::Append)
                    .required(true)
                    .help(
                        "An engine (two or more): cmd=\"<command line>\" [name=N] [dir=D] \
                         [proto=uci|ugi] [tc=T] [st=S] [depth=D] [nodes=N] [timemargin=MS] \
                         [option.<Name>=<value>]..., as one argument split like a shell line or \
                         as one argument per key=value pair",
                    ),
            )
            .arg(
                clap::Arg::new("each")
                    .long("each")
                    .value_name("KEY=VALUE")
                    .num_args(1..)
                    .action(clap::ArgAction::Append)
                    .help("Settings for every engine, as in --engine (an engine's own win)"),
            )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        EngineArgs::augment_args(command)
    }
}

/// `tuzdik match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The `--engine` specs.
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Games per encounter per round (default: two engines play every opening twice, or
    /// with --sprt until a bound is crossed; more engines play one pair per encounter).
    #[arg(long)]
    pub games: Option<u64>,
    /// Rounds: every encounter is played once per round.
    #[arg(long, default_value_t = 1)]
    pub rounds: u64,
    /// With three or more engines: round-robin (all against all) or gauntlet (the first
    /// against each of the others).
    #[arg(long, value_enum, default_value_t = schedule::Tournament::RoundRobin)]
    pub tournament: schedule::Tournament,
    /// Every opening is played twice with colours swapped (the default; for cutechess-cli
    /// command lines).
    #[arg(long)]
    pub repeat: bool,
    /// No colour swap: each game takes a new opening and the encounter's first engine plays
    /// South (no pairs, so no pentanomial and no SPRT).
    #[arg(long, conflicts_with = "repeat")]
    pub noswap: bool,
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
    /// Openings: a file of position strings (one per line, `#` comments) or a PGN file, or
    /// `file=F [format=pgn|epd] [order=random|sequential] [plies=N] [start=N]`.
    #[arg(long, num_args = 1..)]
    pub openings: Option<Vec<String>>,
    /// Append every finished game to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Continue the match whose games this PGN holds (it counts them, plays the rest, and
    /// appends to it); give the same engines, openings and --seed.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Write the results as JSON to this file at the end (per game, totals, SPRT state).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Print the result tables every N games.
    #[arg(long, default_value_t = 0)]
    pub ratinginterval: u64,
    /// SPRT `elo0=E0,elo1=E1[,alpha=A,beta=B]` in normalised Elo; stops at a bound.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Adjudicate a game after this many plies: the board is shared as for a repetition.
    #[arg(long = "max-plies")]
    pub max_plies: Option<u32>,
    /// Resign adjudication `movecount=M score=R`: a side loses when, for M moves of each
    /// engine, its engine scored it at -R or below and the other engine at +R or above.
    #[arg(long, num_args = 1..)]
    pub resign: Option<Vec<String>>,
    /// Draw adjudication `movenumber=K movecount=M score=D`: a draw when from move K on both
    /// engines scored within D of 0 for M moves each.
    #[arg(long, num_args = 1..)]
    pub draw: Option<Vec<String>>,
    /// Adjudicate by solved tables (a `TablePath` directory of `tuzdik solve`): a position
    /// they hold ends the game with their result.
    #[arg(long)]
    pub tb: Option<PathBuf>,
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
    /// For a cluster worker: play only these game numbers (from 0, comma-separated).
    #[arg(long = "only-games", hide = true, value_delimiter = ',')]
    pub only_games: Option<Vec<u64>>,
    /// For a cluster worker: print each finished game as a JSON line (with its PGN) and
    /// nothing else on standard output.
    #[arg(long = "worker-json", hide = true)]
    pub worker_json: bool,
}
