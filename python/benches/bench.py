"""Speed of the binding, each figure beside its baseline (medians of repeated runs):

1. perft of the start position through `tuzdik.Position.perft` vs the native engine
   (`tuzdik perft`'s own timing line, so process start-up is not counted);
2. `tuzdik.VecEnv` env-steps per second with observations and masks (random legal actions
   chosen in Rust), vs the same loop over the plain pure-Python Toguz in `pure_toguz.py`
   with observations and masks built per step;
3. random playouts from a Python loop over `tuzdik.Game` vs the pure-Python game.

Run: python benches/bench.py [--native ../target/release/tuzdik] [--envs 1024]
"""

import os

# NumPy's BLAS threads spin between calls and their CPU time would count as the binding's;
# nothing here multiplies matrices.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import pathlib
import random
import re
import resource
import statistics
import subprocess
import time

import numpy as np
from pure_toguz import PureToguz

import tuzdik

REPO = pathlib.Path(__file__).resolve().parents[2]


def median_time(fn, repeats, clock=time.perf_counter):
    times = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def cpu_time(fn, repeats):
    """CPU seconds of this process (all its threads): on a shared machine wall time counts the
    other jobs too."""
    return median_time(fn, repeats, time.process_time)


def native_perft_seconds(binary, depth, repeats):
    times = []
    for _ in range(repeats):
        out = subprocess.run(
            [str(binary), "perft", str(depth), "--threads", "1"],
            check=True, capture_output=True, text=True,
        ).stdout
        times.append(float(re.search(r"Time: ([0-9.]+) s", out).group(1)))
    return statistics.median(times)


def native_perft_cpu(binary, depth, repeats):
    """CPU seconds of `tuzdik perft depth` less those of `tuzdik perft 1` (start-up)."""

    def cpu_of(d):
        times = []
        for _ in range(repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([str(binary), "perft", str(d), "--threads", "1"], check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        return statistics.median(times)

    return cpu_of(depth) - cpu_of(1)


def bench_perft(binary, repeats):
    start = tuzdik.Position()
    for depth in (7, 8, 9):
        nodes = start.perft(depth)
        bound = median_time(lambda: start.perft(depth), repeats)
        line = "perft %d (%d nodes): binding %.4f s" % (depth, nodes, bound)
        if binary.is_file():
            native = native_perft_seconds(binary, depth, repeats)
            native_cpu = native_perft_cpu(binary, depth, repeats)
            bound_cpu = cpu_time(lambda: start.perft(depth), repeats)
            line += "; native %.4f s (%.4f s CPU); binding/native %.2fx (%.2fx in CPU time)" % (
                native, native_cpu, bound / native, bound_cpu / native_cpu)
        print(line)


def pure_observation(game, out, mask):
    """The same planes as `tuzdik.Game.observation`, built in Python."""
    n = game.n
    me, you = game.side, 1 - game.side
    legal = game.legal_moves()
    out[:] = 0.0
    for row, side in enumerate((me, you)):
        for h in range(n):
            index = side * n + h
            out[0, row, h] = game.board[index] / n
            out[1, row, h] = 1.0 if index in game.tuzdiks else 0.0
            out[2, row, h] = 1.0 if side == me and (h + 1) in legal else 0.0
    out[3] = game.kazans[me] / game.total
    out[4] = game.kazans[you] / game.total
    out[5] = 1.0 if game.tuzdiks[me] >= 0 else 0.0
    out[6] = 1.0 if game.tuzdiks[you] >= 0 else 0.0
    out[7] = 1.0
    mask[:] = False
    for hole in legal:
        mask[hole - 1] = True


def bench_vecenv(envs, steps, repeats):
    env = tuzdik.VecEnv(envs, seed=1)
    env.reset()

    def run():
        for _ in range(steps):
            env.step(env.random_actions())

    run()  # warm up: games at every stage
    seconds = median_time(run, repeats)
    rate = envs * steps / seconds
    cpu_rate = envs * steps / cpu_time(run, repeats)
    print(
        "VecEnv(%d): %.2f M env-steps/s with observations and masks (%.2f M per CPU-second)"
        % (envs, rate / 1e6, cpu_rate / 1e6)
    )
    threaded = tuzdik.VecEnv(envs, seed=1, threads=2)
    threaded.reset()

    def run_threaded():
        for _ in range(steps):
            threaded.step(threaded.random_actions())

    run_threaded()
    print("VecEnv(%d, threads=2): %.2f M env-steps/s" % (envs, envs * steps / median_time(run_threaded, repeats) / 1e6))

    rng = random.Random(1)
    games = [PureToguz() for _ in range(envs)]
    obs = np.zeros((envs, 8, 2, 9), np.float32)
    masks = np.zeros((envs, 9), bool)
    pure_steps = max(1, steps // 50)

    def run_pure():
        for _ in range(pure_steps):
            for i, game in enumerate(games):
                game.play(rng.choice(game.legal_moves()))
                if game.is_over():
                    games[i] = game = PureToguz()
                pure_observation(game, obs[i], masks[i])

    pure_rate = envs * pure_steps / median_time(run_pure, 1)
    pure_cpu_rate = envs * pure_steps / cpu_time(run_pure, 1)
    print(
        "pure Python, same loop: %.0f env-steps/s (%.0f per CPU-second); VecEnv is %.0fx faster (%.0fx in CPU time)"
        % (pure_rate, pure_cpu_rate, rate / pure_rate, cpu_rate / pure_cpu_rate)
    )


def bench_playouts(games, repeats):
    def bound():
        rng = random.Random(2)
        for _ in range(games):
            game = tuzdik.Game()
            moves = game.legal_moves()
            while moves:
                game.play(rng.choice(moves))
                moves = game.legal_moves()

    def pure():
        rng = random.Random(2)
        for _ in range(games):
            game = PureToguz()
            moves = game.legal_moves()
            while moves:
                game.play(rng.choice(moves))
                moves = game.legal_moves()

    bound_rate = games / median_time(bound, repeats)
    pure_rate = games / median_time(pure, 1)
    bound_cpu = games / cpu_time(bound, repeats)
    pure_cpu = games / cpu_time(pure, 1)
    print(
        "random playouts from a Python loop: tuzdik.Game %.0f games/s, pure Python %.1f games/s"
        " (%.0fx; %.0fx in CPU time)" % (bound_rate, pure_rate, bound_rate / pure_rate, bound_cpu / pure_cpu)
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--native", type=pathlib.Path, default=REPO / "target" / "release" / "tuzdik")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if not args.native.is_file():
        print("no native binary at %s (cargo build --release): perft ratio skipped" % args.native)
    bench_perft(args.native, args.repeats)
    bench_vecenv(args.envs, args.steps, args.repeats)
    bench_playouts(args.playouts, args.repeats)


if __name__ == "__main__":
    main()
