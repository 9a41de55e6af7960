#!/usr/bin/env python3
"""Elo of each engine from the PGN of `tuzdik match` games between levels (docs/levels.md).

Usage: scripts/ladder_elo.py GAMES.pgn [MORE.pgn ...] [--anchor NAME=ELO]

Prints every encounter's score (the first-named engine's view) with the Elo difference it
implies, then a maximum-likelihood Elo per engine (Bradley-Terry with a draw counted as half a
win and half a loss), the anchor engine set to its given Elo (by default the first engine at 0).
Only the standard library is used.
"""

import math
import re
import sys
from collections import defaultdict


def games(paths):
    """(white, black, points of white) for every finished game."""
    for path in paths:
        tags = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                found = re.match(r'\[(\w+) "(.*)"\]', line)
                if found:
                    tags[found.group(1)] = found.group(2)
                    if found.group(1) == "Result":
                        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(found.group(2))
                        if points is not None and "White" in tags and "Black" in tags:
                            yield tags["White"], tags["Black"], points
                        tags = {}


def elo_of_share(share):
    share = min(max(share, 0.5 / 100), 1 - 0.5 / 100)
    return -400 * math.log10(1 / share - 1)


def fit(results, names, anchor, anchor_elo, rounds=2000):
    """Maximum-likelihood ratings by iterative proportional fitting."""
    strength = {name: 1.0 for name in names}
    for _ in range(rounds):
        for name in names:
            won = 0.0
            expected = 0.0
            for (a, b), (points, count) in results.items():
                if name == a:
                    won += points
                    expected += count / (strength[a] + strength[b])
                elif name == b:
                    won += count - points
                    expected += count / (strength[a] + strength[b])
            if expected > 0:
                # A perfect or a null score has no finite rating: half a point of prior keeps it.
                strength[name] = max(won, 0.25) / expected
        scale = strength[anchor]
        strength = {name: value / scale for name, value in strength.items()}
    return {name: anchor_elo + 400 * math.log10(strength[name]) for name in names}


def main(argv):
    anchor = None
    paths = []
    for arg in argv:
        if arg.startswith("--anchor"):
            name, _, elo = arg.split("=", 1)[1].partition("=")
            anchor = (name, float(elo))
        else:
            paths.append(arg)
    if not paths:
        sys.exit(__doc__)
    results = defaultdict(lambda: [0.0, 0])
    names = []
    for white, black, points in games(paths):
        for name in (white, black):
            if name not in names:
                names.append(name)
        key, mine = ((white, black), points) if names.index(white) < names.index(black) else (
            (black, white),
            1 - points,
        )
        results[key][0] += mine
        results[key][1] += 1
    results = {key: tuple(value) for key, value in results.items()}
    print("| encounter | games | score | Elo difference |")
    print("|---|---:|---:|---:|")
    for (a, b), (points, count) in sorted(results.items(), key=lambda item: names.index(item[0][0])):
        print(f"| {a} – {b} | {count} | {points:g} – {count - points:g} | {elo_of_share(points / count):+.0f} |")
    anchor_name, anchor_elo = anchor or (names[0], 0.0)
    ratings = fit(results, names, anchor_name, anchor_elo)
    print()
    print("| engine | Elo (maximum likelihood) |")
    print("|---|---:|")
    for name in names:
        print(f"| {name} | {ratings[name]:.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
