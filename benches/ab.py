#!/usr/bin/env python3
"""Interleaved `tuzdik bench` of two builds: the speed ratio of a pure speed change.

usage: benches/ab.py OLD NEW [PAIRS]

Runs `OLD bench` and `NEW bench` PAIRS (20) times, swapping which goes first every pair, so
that the machine's changes of speed fall on both alike. Prints each pair's nodes per second
and their ratio (NEW / OLD), then both medians and the median ratio with its quartiles. Both
builds must search the same tree: a different bench node count is refused, since nodes per
second of different trees compare nothing.
"""
import statistics
import sys

from bench_line import bench_nodes_per_second


def main():
    args = sys.argv[1:]
    pairs_given = len(args) == 3
    if len(args) not in (2, 3) or (pairs_given and not (args[2].isdigit() and int(args[2]) > 0)):
        sys.exit(f"usage: {sys.argv[0]} OLD NEW [PAIRS]")
    old, new = args[0], args[1]
    pairs = int(args[2]) if pairs_given else 20
    engines = (old, new)
    speeds = ([], [])
    ratios = []
    for pair in range(pairs):
        # By index, not path: the same build may be given twice (to see the noise).
        order = (0, 1) if pair % 2 == 0 else (1, 0)
        nodes = [0, 0]
        for index in order:
            nodes[index], nps = bench_nodes_per_second(engines[index])
            speeds[index].append(nps)
        if nodes[0] != nodes[1]:
            sys.exit(f"different trees: {old} {nodes[0]} nodes, {new} {nodes[1]} nodes")
        ratios.append(speeds[1][-1] / speeds[0][-1])
        print(f"pair {pair + 1}: {speeds[0][-1]} {speeds[1][-1]} ratio {ratios[-1]:.3f}",
              flush=True)
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"median nps: {old} {statistics.median(speeds[0]):.0f}, "
          f"{new} {statistics.median(speeds[1]):.0f}")
    print(f"median ratio {statistics.median(ratios):.4f} "
          f"(quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}, {pairs} pairs)")


if __name__ == "__main__":
    main()
