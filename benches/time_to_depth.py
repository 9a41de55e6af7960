#!/usr/bin/env python3
"""Time to depth with 1 and 2 threads (issue 3's Lazy SMP target).

usage: benches/time_to_depth.py [ENGINE[,ENGINE...]] [ROUNDS] [--all] [--hashes MIB,...]

Runs `go depth D` on the start and four mid-game positions of positions/bench.txt (with
`--all`, on the first nine Toguz positions there), with Threads=1 and Threads=2 interleaved
(a fresh engine per run), and prints each run, the median times and the ratio (2 threads /
1 thread) per position and overall. Several engines, comma-separated, are run in turn
position by position, so that the machine's changes of speed fall on all of them alike, and
summed up every 8 rounds and at the end. The time of a run is the `time` field of the
engine's `info depth D` line without a bound. Each run also prints the search overhead: the
2-thread node total over twice the 1-thread nodes (0.5 would be a perfect split of the
work), which does not depend on how much processor time the threads got.

Round r uses the table size `HASHES[r % len(HASHES)]` (MiB; default 32, 48, 64, 96, 128) for
both thread counts. A one-thread search is deterministic, so with one table size each
position has one one-thread tree, and its size is a matter of luck: which entries collide
changes what is pruned (with the evaluation before odd holes, the tree to depth 20 from the
start took from 2.8 M to 5.4 M nodes over tables of 16 to 256 MiB). The per-position ratio
is therefore the median 2-thread time over the median 1-thread time across the sizes
(`ratio`); the median of the rounds' own ratios is printed beside it (`paired`). `--hashes
64` gives the old fixed table.
"""
import argparse
import re
import statistics
import subprocess
import sys


def parse_arguments():
    parser = argparse.ArgumentParser(
        description="Time to depth with 1 and 2 threads (issue 3's Lazy SMP target).")
    parser.add_argument("engines", nargs="?", default="target/release/tuzdik",
                        help="engine path, or several separated by commas")
    parser.add_argument("rounds", nargs="?", type=int, default=3,
                        help="rounds over the positions (default 3)")
    parser.add_argument("--all", action="store_true",
                        help="the first nine Toguz positions of positions/bench.txt")
    parser.add_argument("--hashes", default="32,48,64,96,128",
                        help="table sizes in MiB, one per round in turn (default %(default)s)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"ROUNDS must be at least 1, not {args.rounds}")
    try:
        args.hashes = [int(size) for size in args.hashes.split(",")]
    except ValueError:
        parser.error(f"--hashes takes sizes in MiB separated by commas, not {args.hashes!r}")
    if any(size < 1 for size in args.hashes):
        parser.error(f"every --hashes size must be at least 1 MiB: {args.hashes}")
    args.engines = args.engines.split(",")
    return args


ARGS = parse_arguments()
ENGINES = ARGS.engines
ROUNDS = ARGS.rounds
HASHES = ARGS.hashes
POSITIONS = [
    ("start", "position startpos", 20),
    ("mid 3", "position fen 10,2,11,11,11,1,12,11,11/0,11,10,10,10,10,0,1,10 20 0 w 1", 20),
    ("mid 4", "position fen 12,11,1,12,3,2,3,13,3/14,14,2,0,15,14,X,12,12 19 0 b 1", 20),
    ("mid 6", "position fen 1,13,1,6,1,14,2,13,13/13,2,X,11,11,1,4,14,13 15 14 w 1", 20),
    ("mid 7", "position fen 11,11,2,1,13,1,12,2,12/12,12,12,11,11,0,1,10,2 12 14 b 1", 20),
]
if ARGS.all:
    POSITIONS += [
        ("line 2", "position fen 9,9,9,9,1,10,10,10,10/10,10,10,0,9,9,9,9,9 10 0 b 1", 20),
        ("line 5", "position fen 1,1,X,13,6,3,17,2,7/24,1,3,4,4,2,16,X,1 38 19 w 1", 20),
        ("line 8", "position fen 2,26,4,0,13,1,3,6,4/X,11,1,5,5,3,5,2,11 38 22 b 1", 20),
        ("line 9", "position fen 5,40,5,5,5,5,5,5,5/3,3,3,3,3,3,3,3,3 38 17 w 1", 20),
    ]


def time_to_depth(engine_path, threads, position, depth, hash_mib):
    engine = subprocess.Popen(
        [engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    engine.stdin.write(
        f"setoption name Threads value {threads}\nsetoption name Hash value {hash_mib}\n"
        f"isready\n{position}\ngo depth {depth}\n"
    )
    engine.stdin.flush()
    elapsed = nodes = None
    pattern = re.compile(rf"^info depth {depth} .*\bnodes (\d+) .*\btime (\d+)")
    for line in engine.stdout:
        found = pattern.search(line)
        if found and "bound" not in line:
            nodes, elapsed = int(found.group(1)), int(found.group(2))
        if line.startswith("bestmove"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    if elapsed is None:
        sys.exit(f"no 'info depth {depth}' line for {position!r}")
    return elapsed, nodes


def summary(engine_path, runs):
    """Prints an engine's medians per position and overall."""
    ratios = []
    paired = []
    overheads = []
    print(f"medians for {engine_path}:")
    for name, results in runs.items():
        one = statistics.median(r[0] for r in results)
        two = statistics.median(r[1] for r in results)
        ratios.append(two / max(one, 1))
        these = [r[1] / max(r[0], 1) for r in results]
        paired += these
        overheads += [r[2] for r in results]
        print(f"  {name}: 1 thread {one:.0f} ms, 2 threads {two:.0f} ms, "
              f"ratio {ratios[-1]:.3f} (paired {statistics.median(these):.3f}), "
              f"search overhead {statistics.median(r[2] for r in results):.3f}")
    print(f"  overall: median ratio {statistics.median(ratios):.3f} over the positions "
          f"(paired {statistics.median(paired):.3f} over the runs), "
          f"search overhead {statistics.median(overheads):.3f}", flush=True)


def main():
    runs = {engine: {name: [] for name, _, _ in POSITIONS} for engine in ENGINES}
    for round_number in range(ROUNDS):
        hash_mib = HASHES[round_number % len(HASHES)]
        for name, position, depth in POSITIONS:
            for engine in ENGINES:
                one, one_nodes = time_to_depth(engine, 1, position, depth, hash_mib)
                two, two_nodes = time_to_depth(engine, 2, position, depth, hash_mib)
                overhead = two_nodes / max(2 * one_nodes, 1)
                runs[engine][name].append((one, two, overhead))
                label = f" {engine}" if len(ENGINES) > 1 else ""
                print(f"round {round_number + 1}{label} {name} depth {depth} hash {hash_mib}: "
                      f"1 thread {one} ms, "
                      f"2 threads {two} ms, ratio {two / max(one, 1):.3f}, "
                      f"search overhead {overhead:.3f}", flush=True)
        if len(ENGINES) > 1 and (round_number + 1) % 8 == 0 and round_number + 1 < ROUNDS:
            print(f"after {round_number + 1} rounds:")
            for engine in ENGINES:
                summary(engine, runs[engine])
    for engine in ENGINES:
        summary(engine, runs[engine])


if __name__ == "__main__":
    main()
