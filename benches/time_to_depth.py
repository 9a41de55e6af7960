#!/usr/bin/env python3
"""Time to depth with 1 and 2 threads (issue 3's Lazy SMP target).

usage: benches/time_to_depth.py [ENGINE[,ENGINE...]] [ROUNDS] [--all]

Runs `go depth D` on the start and four mid-game positions of positions/bench.txt (with
`--all`, on the first nine Toguz positions there), with Threads=1 and Threads=2 interleaved
(Hash 64, a fresh engine per run), and prints each run, the median times and the median ratio
(2 threads / 1 thread) per position and overall. Several engines, comma-separated, are run
in turn position by position, so that the machine's changes of speed fall on all of them
alike, and summed up every 8 rounds and at the end. The time of a run is the `time` field of
the engine's `info depth D` line without a bound. Each run also prints the search overhead:
the 2-thread node total over twice the 1-thread nodes (0.5 would be a perfect split of the
work), which does not depend on how much processor time the threads got.
"""
import re
import statistics
import subprocess
import sys

ARGS = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
OPTIONS = [arg for arg in sys.argv[1:] if arg.startswith("--")]
if any(option != "--all" for option in OPTIONS) or len(ARGS) > 2:
    sys.exit(f"usage: {sys.argv[0]} [ENGINE[,ENGINE...]] [ROUNDS] [--all]")
ENGINES = (ARGS[0] if ARGS else "target/release/tuzdik").split(",")
if len(ARGS) > 1 and not ARGS[1].isdigit():
    sys.exit(f"ROUNDS must be a whole number, not {ARGS[1]!r}")
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 3
POSITIONS = [
    ("start", "position startpos", 20),
    ("mid 3", "position fen 10,2,11,11,11,1,12,11,11/0,11,10,10,10,10,0,1,10 20 0 w 1", 20),
    ("mid 4", "position fen 12,11,1,12,3,2,3,13,3/14,14,2,0,15,14,X,12,12 19 0 b 1", 20),
    ("mid 6", "position fen 1,13,1,6,1,14,2,13,13/13,2,X,11,11,1,4,14,13 15 14 w 1", 20),
    ("mid 7", "position fen 11,11,2,1,13,1,12,2,12/12,12,12,11,11,0,1,10,2 12 14 b 1", 20),
]
if "--all" in OPTIONS:
    POSITIONS += [
        ("line 2", "position fen 9,9,9,9,1,10,10,10,10/10,10,10,0,9,9,9,9,9 10 0 b 1", 20),
        ("line 5", "position fen 1,1,X,13,6,3,17,2,7/24,1,3,4,4,2,16,X,1 38 19 w 1", 20),
        ("line 8", "position fen 2,26,4,0,13,1,3,6,4/X,11,1,5,5,3,5,2,11 38 22 b 1", 20),
        ("line 9", "position fen 5,40,5,5,5,5,5,5,5/3,3,3,3,3,3,3,3,3 38 17 w 1", 20),
    ]


def time_to_depth(engine_path, threads, position, depth):
    engine = subprocess.Popen(
        [engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    engine.stdin.write(
        f"setoption name Threads value {threads}\nsetoption name Hash value 64\n"
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
    overheads = []
    print(f"medians for {engine_path}:")
    for name, results in runs.items():
        these = [two / max(one, 1) for one, two, _ in results]
        ratios += these
        overheads += [overhead for _, _, overhead in results]
        print(f"  {name}: 1 thread {statistics.median(r[0] for r in results):.0f} ms, "
              f"2 threads {statistics.median(r[1] for r in results):.0f} ms, "
              f"ratio {statistics.median(these):.3f}, "
              f"search overhead {statistics.median(r[2] for r in results):.3f}")
    print(f"  overall median ratio {statistics.median(ratios):.3f}, "
          f"search overhead {statistics.median(overheads):.3f}", flush=True)


def main():
    runs = {engine: {name: [] for name, _, _ in POSITIONS} for engine in ENGINES}
    for round_number in range(ROUNDS):
        for name, position, depth in POSITIONS:
            for engine in ENGINES:
                one, one_nodes = time_to_depth(engine, 1, position, depth)
                two, two_nodes = time_to_depth(engine, 2, position, depth)
                overhead = two_nodes / max(2 * one_nodes, 1)
                runs[engine][name].append((one, two, overhead))
                label = f" {engine}" if len(ENGINES) > 1 else ""
                print(f"round {round_number + 1}{label} {name} depth {depth}: 1 thread {one} ms, "
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
