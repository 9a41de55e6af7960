#!/usr/bin/env python3
"""The search's nodes per second against the bare alpha-beta's, run by run.

usage: benches/ceiling.py [ENGINE] [PAIRS]

Runs `tuzdik bench` and `tuzdik bench --bare` one after the other PAIRS (15) times and prints
each pair, the medians of both speeds and the median ratio (search / bare). The bare search
does nothing but make moves and score boards (see src/search/bare.rs), so its speed is what
the machine gives at that moment: the ratio says how close the search comes to that ceiling,
and it moves far less with the machine's spells than either speed does.
"""
import statistics
import sys

from bench_line import bench_nodes_per_second

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/tuzdik"
PAIRS = int(sys.argv[2]) if len(sys.argv) > 2 else 15


def main():
    search, bare, ratios = [], [], []
    for pair in range(PAIRS):
        nodes, nps = bench_nodes_per_second(ENGINE)
        bare_nodes, bare_nps = bench_nodes_per_second(ENGINE, "--bare")
        search.append(nps)
        bare.append(bare_nps)
        ratios.append(nps / bare_nps)
        print(f"pair {pair + 1:>2}: search {nps / 1e6:6.2f} M nps ({nodes} nodes), "
              f"bare {bare_nps / 1e6:6.2f} M nps ({bare_nodes} nodes), ratio {ratios[-1]:.3f}",
              flush=True)
    print(f"medians over {PAIRS} pairs: search {statistics.median(search) / 1e6:.2f} M nps "
          f"({min(search) / 1e6:.2f}-{max(search) / 1e6:.2f}), "
          f"bare {statistics.median(bare) / 1e6:.2f} M nps "
          f"({min(bare) / 1e6:.2f}-{max(bare) / 1e6:.2f}), "
          f"ratio {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
