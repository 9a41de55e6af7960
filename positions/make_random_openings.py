#!/usr/bin/env python3
"""Random balanced openings (positions/openings-random.txt, positions/openings-wide.txt).

usage: make_random_openings.py ENGINE COUNT PLIES SEED
"""
import random, subprocess, sys, re
BIN, N, PLIES, SEED = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(SEED)
p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(prefix):
    out = []
    for line in p.stdout:
        out.append(line.rstrip("\n"))
        if line.startswith(prefix): return out
send("uci"); until("uciok")
seen = set(); found = []
while len(found) < N:
    moves = [str(rng.randint(1, 9)) for _ in range(PLIES)]
    send("position startpos moves " + " ".join(moves)); send("isready")
    out = until("readyok")
    if any("error" in l for l in out): continue
    send("d"); send("isready"); out = until("readyok")
    fen = next((l.split(":", 1)[1].strip() for l in out if l.startswith("Fen:")), None)
    if fen is None:
        print("\n".join(out), file=sys.stderr); sys.exit(1)
    if fen in seen: continue
    seen.add(fen)
    send("ucinewgame"); send("position startpos moves " + " ".join(moves)); send("go depth 8")
    out = until("bestmove")
    if out[-1].strip() == "bestmove 0000": continue
    score = None
    for l in out:
        m = re.search(r"score (cp|mate) (-?\d+)", l)
        if m: score = (m.group(1), int(m.group(2)))
    if score and score[0] == "cp" and abs(score[1]) <= 150:
        found.append(fen)
        print(fen + "  # " + " ".join(moves) + f" cp {score[1]}", flush=True)
send("quit")
