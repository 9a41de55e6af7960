#!/usr/bin/env python3
"""One `tuzdik match` spread over a Ray cluster (see docs/match.md, "Running on a cluster").

    python3 scripts/cluster/match.py --address HEAD:PORT --tuzdik /shared/bin/tuzdik \
        --games 2000 --pgn run.pgn --sprt elo0=0,elo1=5 \
        -- --engine cmd=/shared/bin/new name=New --engine cmd=/shared/bin/old name=Old \
           --tc 10+0.1

Everything after `--` is an ordinary `tuzdik match` command line (engines, limits, openings,
adjudication, --seed). The driver splits the match into colour-swapped pairs (game numbers
2k and 2k+1, one opening), and each Ray task runs `tuzdik match ... --only-games 2k,2k+1
--worker-json` on some worker: the same schedule everywhere, so every worker plays the same
openings. Results come back as JSON; the driver alone counts them, writes the one PGN, keeps
the SPRT and stops the run when a bound is crossed.

Faults: a task whose worker dies (or whose `tuzdik` fails) is run again by Ray, elsewhere if
need be; a pair is counted only when both of its games come back from one task, so a pair is
never split, lost or counted twice. Engines and the tuzdik binary are given by path and must
exist at that path on every worker (a shared file system, or the same install everywhere).
"""

import argparse
import ctypes
import json
import math
import os
import signal
import subprocess
import sys
import time

# --- The pentanomial SPRT (the same statistics as src/matchrun/stats.rs) -------------------

NELO_PER_T = 800.0 / math.log(10.0)
UNSEEN = 1e-3


def _mean_variance(values, probs):
    mean = sum(a * p for a, p in zip(values, probs))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(values, probs))


def _lagrange_root(p, g):
    most, least = max(g), min(g)
    if most <= 0.0 or least >= 0.0:
        return None
    low, high = -1.0 / most, -1.0 / least
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid <= low or mid >= high:
            break
        if sum(pi * gi / (1.0 + mid * gi) for pi, gi in zip(p, g)) > 0.0:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def _most_likely_with_t(values, p, t):
    """The distribution on `values` nearest to `p` in likelihood whose t-value is `t`."""
    q = list(p)
    for _ in range(1000):
        mu, var = _mean_variance(values, q)
        sigma = max(math.sqrt(var), 1e-12)
        g = [a - 0.5 - t * sigma * (1.0 + ((a - mu) / sigma) ** 2) / 2.0 for a in values]
        x = _lagrange_root(p, g)
        if x is None:
            break
        nxt = [pi / (1.0 + x * gi) for pi, gi in zip(p, g)]
        change = max(abs(a - b) for a, b in zip(nxt, q))
        q = nxt
        if change < 1e-13:
            break
    return q


def pentanomial_llr(counts, elo0, elo1):
    """The generalised log-likelihood ratio of nElo elo1 against elo0 for pair counts."""
    if sum(counts) == 0:
        return 0.0
    regular = [c if c > 0 else UNSEEN for c in counts]
    n = sum(regular)
    p = [c / n for c in regular]
    values = [i / 4.0 for i in range(5)]
    t0 = elo0 / NELO_PER_T * math.sqrt(2.0)
    t1 = elo1 / NELO_PER_T * math.sqrt(2.0)
    q0 = _most_likely_with_t(values, p, t0)
    q1 = _most_likely_with_t(values, p, t1)
    return n * sum(pi * (math.log(b) - math.log(a)) for pi, a, b in zip(p, q0, q1))


def parse_sprt(text):
    values = {"alpha": 0.05, "beta": 0.05}
    for part in filter(None, (s.strip() for s in text.split(","))):
        key, _, value = part.partition("=")
        if key not in ("elo0", "elo1", "alpha", "beta") or not value:
            raise SystemExit(f"--sprt: bad part '{part}' (elo0=E0,elo1=E1[,alpha=A,beta=B])")
        values[key] = float(value)
    if "elo0" not in values or "elo1" not in values or values["elo1"] <= values["elo0"]:
        raise SystemExit("--sprt: give elo0 and elo1 with elo1 above elo0")
    values["lower"] = math.log(values["beta"] / (1.0 - values["alpha"]))
    values["upper"] = math.log((1.0 - values["beta"]) / values["alpha"])
    return values


# --- The worker side ------------------------------------------------------------------------


def _die_with_parent():
    """Runs in the child before exec: the kernel kills it when its Ray worker dies."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def play_pair(tuzdik, match_args, total_games, indices):
    """Plays the given game numbers with `tuzdik match` and returns their JSON records."""
    command = [
        tuzdik,
        "match",
        *match_args,
        "--games",
        str(total_games),
        "--only-games",
        ",".join(map(str, indices)),
        "--worker-json",
        "--progress",
        "lines",
    ]
    done = subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=_die_with_parent,
    )
    games = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    got = sorted(g["index"] for g in games)
    if done.returncode != 0 or got != sorted(indices):
        raise RuntimeError(
            f"tuzdik failed on games {indices} (status {done.returncode}, got {got}): "
            f"{done.stderr.strip()[-2000:]}"
        )
    return {"host": os.uname().nodename, "pid": os.getpid(), "games": games}


# --- The driver -----------------------------------------------------------------------------


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        raise SystemExit("give the tuzdik match arguments after --")
    split = argv.index("--")
    own, match_args = argv[:split], argv[split + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", required=True, help="the Ray head, HOST:PORT")
    parser.add_argument("--tuzdik", required=True, help="the tuzdik binary (same path on every worker)")
    parser.add_argument("--games", type=int, required=True, help="games (even); with --sprt the most")
    parser.add_argument("--pgn", required=True, help="the PGN to write (appended to)")
    parser.add_argument("--json", help="write the totals and the SPRT state here at the end")
    parser.add_argument("--sprt", help="elo0=E0,elo1=E1[,alpha=A,beta=B] in normalised Elo")
    parser.add_argument("--retries", type=int, default=5, help="runs of a task after a fault")
    parser.add_argument("--pairs-per-task", type=int, default=1,
                        help="pairs a task plays in one tuzdik run (fewer engine starts)")
    parser.add_argument("--in-flight", type=int, default=0,
                        help="pairs handed out at once (default: twice the cluster's CPUs)")
    opts = parser.parse_args(own)
    if opts.games < 2 or opts.games % 2:
        raise SystemExit("--games must be even and at least 2 (games come in pairs)")
    for flag in ("--games", "--only-games", "--worker-json", "--pgn", "--resume", "--sprt", "--json"):
        if flag in match_args:
            raise SystemExit(f"{flag} is the driver's: give it before --")
    if match_args.count("--engine") != 2:
        raise SystemExit("the cluster driver runs two-engine matches: give --engine twice after --")
    if not os.path.isfile(opts.tuzdik):
        raise SystemExit(f"--tuzdik {opts.tuzdik}: no such file here")
    sprt = parse_sprt(opts.sprt) if opts.sprt else None

    import ray  # imported late: the statistics above are used without Ray

    ray.init(address=opts.address, log_to_driver=False, logging_level="ERROR")
    remote = ray.remote(num_cpus=1, max_retries=opts.retries, retry_exceptions=True)(play_pair)
    in_flight = opts.in_flight or max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
    if opts.pairs_per_task < 1:
        raise SystemExit("--pairs-per-task must be at least 1")
    pairs = [(2 * k, 2 * k + 1) for k in range(opts.games // 2)]
    tasks = [pairs[i:i + opts.pairs_per_task] for i in range(0, len(pairs), opts.pairs_per_task)]
    started = time.monotonic()
    running = {}
    counted = set()
    ptnml = [0, 0, 0, 0, 0]
    wld = [0, 0, 0]
    hosts = {}
    state = "continue"
    llr = 0.0
    with open(opts.pgn, "a", encoding="utf-8") as pgn:
        while tasks or running:
            while tasks and len(running) < in_flight and state == "continue":
                task = tasks.pop(0)
                indices = [i for pair in task for i in pair]
                running[remote.remote(opts.tuzdik, match_args, opts.games, indices)] = task
            if not running:
                break
            ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
            for ref in ready:
                task = running.pop(ref)
                try:
                    result = ray.get(ref)
                except Exception as error:  # retries used up: the run cannot be complete
                    for other in running:
                        ray.cancel(other, force=True)
                    raise SystemExit(f"pairs {task} failed for good: {error}")
                by_index = {g["index"]: g for g in result["games"]}
                for pair in task:
                    if pair in counted or state != "continue":
                        continue
                    counted.add(pair)
                    games = [by_index[i] for i in pair]
                    for game in games:
                        pgn.write(game["pgn"] + "\n")
                        wld[{2: 0, 0: 1, 1: 2}[game["first_half_points"]]] += 1
                    pgn.flush()
                    ptnml[sum(g["first_half_points"] for g in games)] += 1
                    worker = (result["host"], result["pid"])
                    hosts[worker] = hosts.get(worker, 0) + 2
                    line = (f"pairs {len(counted)}/{opts.games // 2}  games {2 * len(counted)}  "
                            f"{wld[0]} - {wld[1]} - {wld[2]}  Ptnml(0-2) {ptnml}")
                    if sprt:
                        llr = pentanomial_llr(ptnml, sprt["elo0"], sprt["elo1"])
                        line += f"  LLR: {llr:.2f} ({sprt['lower']:.2f}, {sprt['upper']:.2f})"
                        if llr >= sprt["upper"]:
                            state = "H1"
                        elif llr <= sprt["lower"]:
                            state = "H0"
                    print(f"{line}  {time.monotonic() - started:.0f}s", flush=True)
            if state != "continue" and running:
                # A bound is crossed: games still being played are abandoned, not counted.
                for ref in running:
                    ray.cancel(ref, force=True)
                running.clear()
    seconds = time.monotonic() - started
    games = 2 * len(counted)
    print(f"Score of first vs second: {wld[0]} - {wld[1]} - {wld[2]}  {games} games")
    print(f"Ptnml(0-2): {ptnml}")
    if sprt:
        print(f"LLR: {llr:.2f} ({sprt['lower']:.2f}, {sprt['upper']:.2f}) "
              f"[{sprt['elo0']:.2f}, {sprt['elo1']:.2f}] - {state}")
    print(f"Finished: {games} games in {seconds:.1f} s ({games / seconds * 3600:.0f} games/hour) "
          f"on {len(hosts)} worker processes", flush=True)
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as out:
            json.dump({
                "games": games,
                "wins": wld[0], "losses": wld[1], "draws": wld[2],
                "pentanomial": ptnml,
                "pairs": sorted(list(p) for p in counted),
                "sprt": None if not sprt else {**sprt, "llr": llr, "state": state},
                "seconds": seconds,
                "workers": [{"host": h, "pid": p, "games": n} for (h, p), n in hosts.items()],
            }, out, indent=1)
    ray.shutdown()


if __name__ == "__main__":
    main()
