#!/usr/bin/env python3
"""Profile-guided build of tuzdik (what Stockfish's `make profile-build` is to Stockfish).

usage: scripts/profile_build.py [--keep]

Builds an instrumented engine, runs it on a training workload, and builds the release engine
again with the recorded profile, so that the compiler lays out branches and inlines calls as
the search really takes them. The result is `target/profile-build/tuzdik`; `cargo run
--release` is unaffected. Needs the LLVM tools of the Rust toolchain that builds it (`rustup
component add llvm-tools`); the profile is tied to that compiler, so the script builds from
scratch every time. With `--keep` the instrumented build and raw profiles stay in
`target/profile-build` for a look; by default they are removed.

The training workload leaves the bench positions out, so that `tuzdik bench` measures the
profile build fairly: searches of openings from `positions/openings-random.txt` on one and
two threads, of the perft suite's Toguz middle games and endings that are not in
`positions/bench.txt`, of the starts of Kozdatu and Bestemshchi, the historical switches and
a Mangala IV set-up, and perft (which a profile that never saw it would treat as cold code).
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "profile-build"
OPENINGS = ROOT / "positions" / "openings-random.txt"
PERFT_SUITE = ROOT / "positions" / "perft.txt"
BENCH = ROOT / "positions" / "bench.txt"
# Every how manyth opening of the file is searched.
OPENING_STRIDE = 40


def fail(message):
    sys.exit(f"profile_build.py: {message}")


def run(command, **kwargs):
    """Runs a command, echoing it; stops the script, naming the command, if it fails."""
    print("+", " ".join(str(part) for part in command), flush=True)
    try:
        result = subprocess.run(command, **kwargs)
    except OSError as error:
        fail(f"cannot run {command[0]}: {error}")
    if result.returncode != 0:
        fail(f"{command[0]} exited with code {result.returncode}")


def rustc_value(flag, prefix=None):
    """What `rustc FLAG` prints: all of it, or the rest of its line starting with `prefix`."""
    try:
        result = subprocess.run(["rustc", flag], capture_output=True, text=True)
    except OSError as error:
        fail(f"cannot run rustc: {error}")
    if result.returncode != 0:
        fail(f"`rustc {flag}` failed: {result.stderr.strip()}")
    output = result.stdout
    if prefix is None:
        return output.strip()
    for line in output.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    fail(f"`rustc {flag}` printed no '{prefix}' line")


def build(host, target_dir, rustflags):
    """A release build of the engine for `host` (so that build scripts and procedural macros,
    which run on the build machine, get no profile flags) into `target_dir`."""
    environment = dict(os.environ, RUSTFLAGS=rustflags)
    run(["cargo", "build", "--release", "--bin", "tuzdik", "--target", host,
         "--target-dir", target_dir], cwd=ROOT, env=environment)
    return target_dir / host / "release" / "tuzdik"


def session(engine, commands):
    """Sends protocol commands one by one, waiting for each search's `bestmove`."""
    try:
        process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, cwd=ROOT)
    except OSError as error:
        fail(f"cannot run the instrumented engine {engine}: {error}")
    try:
        for command in commands:
            process.stdin.write(command + "\n")
            process.stdin.flush()
            if command.startswith("go"):
                for line in process.stdout:
                    if line.startswith("bestmove"):
                        break
                    if line.startswith("info string error"):
                        fail(f"the engine refused part of the training: {line.strip()}")
                else:
                    fail(f"the instrumented engine ended before answering `{command}`")
        process.stdin.write("quit\n")
        process.stdin.close()
    except BrokenPipeError:
        fail("the instrumented engine ended during the training")
    process.wait()
    if process.returncode != 0:
        fail(f"the instrumented engine exited with code {process.returncode}")


def suite_positions(path, spec):
    """The position strings of the `<spec> ; <position> ; ...` lines of a suite file."""
    positions = []
    for line in path.read_text().splitlines():
        fields = [field.strip() for field in line.split("#")[0].split(";")]
        if len(fields) >= 2 and fields[0] == spec:
            positions.append(fields[1])
    return positions


def train(engine):
    openings = [line.split("#")[0].strip() for line in OPENINGS.read_text().splitlines()]
    openings = [fen for fen in openings if fen][::OPENING_STRIDE]
    if not openings:
        fail(f"no openings in {OPENINGS}")
    # Middle games and endings: the perft suite's Toguz positions, less the bench's own.
    bench = set(suite_positions(BENCH, "togyz"))
    later = [fen for fen in suite_positions(PERFT_SUITE, "togyz") if fen not in bench]
    if not later:
        fail(f"no Toguz positions outside the bench list in {PERFT_SUITE}")
    commands = ["uci", "setoption name Hash value 16"]
    for number, fen in enumerate(openings):
        threads = 2 if number % 4 == 0 else 1
        commands += [f"setoption name Threads value {threads}", "ucinewgame",
                     f"position fen {fen}", "go depth 16"]
    commands += ["setoption name Threads value 1"]
    for fen in later:
        commands += ["ucinewgame", f"position fen {fen}", "go depth 14"]
    for setup, depth in (
        (["setoption name UCI_Variant value kozdatu"], 18),
        (["setoption name UCI_Variant value kozdatu", "setoption name Tuzdik value true"], 17),
        (["setoption name UCI_Variant value bestemshchi"], 20),
        (["setoption name UCI_Variant value togyz", "setoption name Capture value singleton"],
         14),
        (["setoption name UCI_Variant value togyz", "setoption name Sowing value skip-origin"],
         14),
    ):
        commands += setup + ["ucinewgame", "position startpos", f"go depth {depth}"]
    commands += ["setoption name UCI_Variant value mangala4", "ucinewgame",
                 "position random 1", "go depth 12"]
    session(engine, commands)
    for variant, depth in (("togyz", 6), ("kozdatu", 7), ("bestemshchi", 9)):
        run([engine, "perft", str(depth), "--variant", variant],
            stdout=subprocess.DEVNULL, cwd=ROOT)


def main():
    parser = argparse.ArgumentParser(
        description="Profile-guided build of tuzdik into target/profile-build/tuzdik.")
    parser.add_argument("--keep", action="store_true",
                        help="keep the instrumented build and the raw profiles")
    args = parser.parse_args()

    host = rustc_value("-vV", "host: ")
    profdata = Path(rustc_value("--print=sysroot")) / "lib" / "rustlib" / host / "bin" / \
        "llvm-profdata"
    if not profdata.is_file():
        fail(f"{profdata} not found: install it with `rustup component add llvm-tools`")

    raw = OUT / "raw-profiles"
    instrumented_dir = OUT / "instrumented"
    optimized_dir = OUT / "optimized"
    # Cargo does not see a new profile behind the same flags: everything is built afresh.
    for stale in (raw, instrumented_dir, optimized_dir):
        shutil.rmtree(stale, ignore_errors=True)
    instrumented = build(host, instrumented_dir, f"-Cprofile-generate={raw}")
    train(instrumented)
    merged = OUT / "merged.profdata"
    run([profdata, "merge", "-o", merged, raw])
    optimized = build(host, optimized_dir, f"-Cprofile-use={merged}")
    shutil.copy2(optimized, OUT / "tuzdik")
    if not args.keep:
        shutil.rmtree(raw, ignore_errors=True)
        shutil.rmtree(instrumented_dir, ignore_errors=True)
    print(f"built {OUT / 'tuzdik'}")


if __name__ == "__main__":
    main()
