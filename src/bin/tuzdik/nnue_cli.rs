//! `tuzdik datagen` and `tuzdik train`: the net's data and trainer (see docs/nnue.md).

use std::path::PathBuf;

use clap::Args;
use tuzdik::nnue::{data, datagen, train};

#[derive(Args)]
pub struct DatagenArgs {
    /// Games the file should hold at the end (a restart continues after those already in it).
    #[arg(long)]
    games: Option<u64>,
    /// Nodes per search.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Worker threads (each plays whole games with one-thread searches).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the openings and random plies: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The record file (appended to).
    #[arg(long)]
    out: PathBuf,
    /// Opening book (position strings, one a line).
    #[arg(long, default_value = "positions/openings-wide.txt")]
    openings: PathBuf,
    /// Hash table per worker, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Convert this PGN file's games instead (positions with the game's result, no score).
    #[arg(long, conflicts_with = "games")]
    pgn: Option<PathBuf>,
}

pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    if let Some(pgn) = &args.pgn {
        let text = std::fs::read_to_string(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
        let (records, games) = datagen::convert_pgn(&text, 0)?;
        let bytes: Vec<u8> = records.iter().flat_map(data::Record::to_bytes).collect();
        std::fs::write(&args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
        println!(
            "datagen: {} positions from {games} games of {} written to {}",
            records.len(),
            pgn.display(),
            args.out.display()
        );
        return Ok(());
    }
    let Some(games) = args.games else {
        return Err("give --games N (or --pgn FILE to convert games)".to_string());
    };
    let options = datagen::DatagenOptions {
        games,
        nodes: args.nodes,
        threads: args.threads,
        seed: args.seed,
        out: args.out.clone(),
        openings: args.openings.clone(),
        hash_mb: args.hash,
    };
    println!("{}", datagen::run(&options)?);
    Ok(())
}

#[derive(Args)]
pub struct TrainArgs {
    /// Record files (`tuzdik datagen` output).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The quantised net to write (its checkpoint goes next to it, `.ckpt`).
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training set in all (a resumed run counts the checkpoint's).
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Seed of the initial weights, the shuffles and the split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Percent of the games kept for validation (0..99).
    #[arg(long, default_value_t = 10)]
    val_percent: u32,
    /// Weight of the search score in the target, the rest being the game's result (0..1).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Continue from this checkpoint.
    #[arg(long)]
    resume: Option<PathBuf>,
}

pub fn run_train(args: &TrainArgs) -> Result<(), String> {
    let options = train::TrainOptions {
        data: args.data.clone(),
        out: args.out.clone(),
        epochs: args.epochs,
        lr: args.lr,
        batch: args.batch,
        threads: args.threads,
        seed: args.seed,
        val_percent: args.val_percent,
        lambda: args.lambda,
        resume: args.resume.clone(),
    };
    print!("{}", train::run(&options)?);
    Ok(())
}
