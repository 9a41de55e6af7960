#!/usr/bin/env python3
"""Cross-checks `tuzdik analyse` against players' ratings (issue 32, item 4).

Two steps, both deterministic:

  scripts/analyse_by_rating.py select PLAYOK.pgn SUBSET.pgn [--per-band 80]
      keeps, in file order, every game one of whose players falls in a rating band that has
      fewer than --per-band player-games so far (so the rare bands, below 1100 and from 1500,
      are as well covered as the file allows);
  scripts/analyse_by_rating.py table ANALYSIS.json
      reads `tuzdik analyse --json` output and prints the table of docs/analyse.md: per rating
      band the player-games, moves, mean accuracy, mean loss of win expectation per move and
      the share of blunders, and the rank correlation of rating and accuracy.

Reproduce docs/analyse.md's table:

  cargo build --release
  python3 scripts/analyse_by_rating.py select /work/shared/data/playok-2025.pgn /tmp/subset.pgn --per-band 80
  nice -n 19 target/release/tuzdik analyse /tmp/subset.pgn --nodes 100000 --threads 1 \\
      --json /tmp/subset.json --out /tmp/subset-annotated.pgn
  python3 scripts/analyse_by_rating.py table /tmp/subset.json
"""

import argparse
import json
import re
import sys

BANDS = [(0, 1100), (1100, 1200), (1200, 1300), (1300, 1400), (1400, 1500), (1500, 10_000)]


def band_of(elo):
    for index, (low, high) in enumerate(BANDS):
        if low <= elo < high:
            return index
    return None


def band_name(index):
    low, high = BANDS[index]
    if low == 0:
        return f"< {high}"
    if high >= 10_000:
        return f">= {low}"
    return f"{low}-{high - 1}"


def split_games(text):
    """The file's games as text, split before each [Event tag that follows a blank line."""
    games, current = [], []
    previous_blank = True
    for line in text.splitlines(keepends=True):
        if line.startswith("[Event ") and previous_blank and current:
            games.append("".join(current))
            current = []
        current.append(line)
        previous_blank = line.strip() == ""
    if current:
        games.append("".join(current))
    return games


def select(args):
    with open(args.pgn, encoding="utf-8") as source:
        games = split_games(source.read())
    counts = [0] * len(BANDS)
    kept = []
    for game in games:
        bands = []
        for tag in ("WhiteElo", "BlackElo"):
            found = re.search(r'\[' + tag + r' "(\d+)"\]', game)
            bands.append(band_of(int(found.group(1))) if found else None)
        if None in bands:
            continue
        if any(counts[band] < args.per_band for band in bands):
            kept.append(game.rstrip("\n") + "\n\n")
            for band in bands:
                counts[band] += 1
    with open(args.out, "w", encoding="utf-8") as out:
        out.writelines(kept)
    print(f"{len(kept)} of {len(games)} games kept; player-games per band:", file=sys.stderr)
    for index, count in enumerate(counts):
        print(f"  {band_name(index)}: {count}", file=sys.stderr)


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2.0
        i = j + 1
    return result


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def table(args):
    with open(args.json, encoding="utf-8") as source:
        document = json.load(source)
    if document.get("format") != "tuzdik-analyse":
        sys.exit(f"{args.json}: not `tuzdik analyse --json` output")
    rows = [
        {"players": 0, "moves": 0, "accuracy": 0.0, "squares": 0.0, "loss": 0.0, "blunders": 0,
         "mistakes": 0, "opponents": 0.0, "rated_opponents": 0}
        for _ in BANDS
    ]
    elos, accuracies = [], []
    # Games with a rating gap: is the higher-rated player the more accurate one?
    pairs, stronger_better, gap_sum = 0, 0, 0.0
    for game in document["games"]:
        south, north = game["players"]["south"], game["players"]["north"]
        if (None not in (south["elo"], north["elo"], south["accuracy"], north["accuracy"])
                and abs(south["elo"] - north["elo"]) >= args.gap):
            stronger, weaker = (south, north) if south["elo"] > north["elo"] else (north, south)
            pairs += 1
            stronger_better += stronger["accuracy"] > weaker["accuracy"]
            gap_sum += stronger["accuracy"] - weaker["accuracy"]
        for side in ("south", "north"):
            player = game["players"][side]
            if player["elo"] is None or player["moves"] == 0:
                continue
            band = band_of(player["elo"])
            row = rows[band]
            row["players"] += 1
            row["accuracy"] += player["accuracy"]
            row["squares"] += player["accuracy"] ** 2
            opponent = game["players"]["north" if side == "south" else "south"]["elo"]
            if opponent is not None:
                row["opponents"] += opponent
                row["rated_opponents"] += 1
            elos.append(player["elo"])
            accuracies.append(player["accuracy"])
            for move in game["moves"]:
                if move["side"] != side:
                    continue
                row["moves"] += 1
                row["loss"] += move["loss"]
                row["blunders"] += move["class"] == "blunder"
                row["mistakes"] += move["class"] == "mistake"
    print(f"Settings: {document['settings']['limits']}; {len(document['games'])} games "
          f"({len(document['skipped'])} skipped).\n")
    print("| rating band | player-games | moves | mean accuracy (95% interval) | mean loss per move "
          "| mistakes per 100 moves | blunders per 100 moves | opponents' mean rating |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for index, row in enumerate(rows):
        if row["players"] == 0:
            continue
        moves = max(row["moves"], 1)
        n = row["players"]
        mean = row["accuracy"] / n
        spread = max(row["squares"] / n - mean ** 2, 0.0) ** 0.5
        interval = 1.96 * spread / n ** 0.5
        print(f"| {band_name(index)} | {n} | {row['moves']} "
              f"| {mean:.1f}% ± {interval:.1f} | {100 * row['loss'] / moves:.2f}% "
              f"| {100 * row['mistakes'] / moves:.2f} | {100 * row['blunders'] / moves:.2f} "
              f"| {row['opponents'] / max(row['rated_opponents'], 1):.0f} |")
    print(f"\nSpearman rank correlation of rating and game accuracy over "
          f"{len(elos)} player-games: {spearman(elos, accuracies):+.3f}")
    if pairs:
        print(f"In the {pairs} games whose players' ratings differ by at least {args.gap}, the "
              f"higher-rated player was the more accurate in {stronger_better} "
              f"({100 * stronger_better / pairs:.0f}%), by {gap_sum / pairs:+.2f} points of "
              f"accuracy on average.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    chooser = commands.add_parser("select", help="a subset of games covering every band")
    chooser.add_argument("pgn")
    chooser.add_argument("out")
    chooser.add_argument("--per-band", type=int, default=80)
    reader = commands.add_parser("table", help="the table from `analyse --json` output")
    reader.add_argument("json")
    reader.add_argument("--gap", type=int, default=100,
                        help="the rating gap for the paired comparison (default 100)")
    args = parser.parse_args()
    select(args) if args.command == "select" else table(args)


if __name__ == "__main__":
    main()
