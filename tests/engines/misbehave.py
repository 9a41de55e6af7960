#!/usr/bin/env python3
"""A misbehaving engine for the match tests.

Usage: misbehave.py MODE [N [ARG]]

It runs the real engine (the program named by $TUZDIK_ENGINE) and passes every line to it
and every answer back, except at the N-th `go` of its own life (default 1), where it does
MODE instead:

  crash    exits at once with status 3 (the real engine is killed too)
  illegal  answers `bestmove 0000` (a pass: never legal in Toguz Kumalak)
  garbage  prints junk lines, then `bestmove banana`
  bare     answers `bestmove` with no move
  silent   never answers this `go` (it keeps reading its input)
  slow     lets the real engine answer, but holds the answer back ARG milliseconds
  nostart  (N is ignored) never answers `uci`/`ugi`
  good     never misbehaves
  spawn    never misbehaves, but starts a `sleep ARG` child that would outlive it
  stubborn like spawn, and ignores `quit` and the end of its input: it never exits
"""

import os
import subprocess
import sys
import threading
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
arg = sys.argv[3] if len(sys.argv) > 3 else "0"

engine = subprocess.Popen(
    [os.environ["TUZDIK_ENGINE"]],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
    bufsize=1,
)
if mode in ("spawn", "stubborn"):
    # Left running on purpose: the match must kill the engine's whole process group.
    subprocess.Popen(["sleep", arg], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
lock = threading.Lock()
delay = {"seconds": 0.0}


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def pump():
    for line in engine.stdout:
        line = line.rstrip("\n")
        if line.startswith("bestmove") and delay["seconds"] > 0:
            time.sleep(delay["seconds"])
            delay["seconds"] = 0.0
        say(line)


threading.Thread(target=pump, daemon=True).start()


def forward(line):
    try:
        engine.stdin.write(line)
        engine.stdin.flush()
    except BrokenPipeError:
        os._exit(4)


gos = 0
for line in sys.stdin:
    words = line.split()
    word = words[0] if words else ""
    if mode == "nostart" and word in ("uci", "ugi"):
        continue
    if word == "go":
        gos += 1
        if gos == at:
            if mode == "crash":
                engine.kill()
                os._exit(3)
            if mode == "illegal":
                say("bestmove 0000")
                continue
            if mode == "garbage":
                say("\x01\x02 ~~~ \u2603 garbage ~~~")
                say("info score banana depth -1")
                say("bestmove banana")
                continue
            if mode == "bare":
                say("bestmove")
                continue
            if mode == "silent":
                continue
            if mode == "slow":
                delay["seconds"] = float(arg) / 1000.0
    if mode == "stubborn" and word == "quit":
        continue
    forward(line)
    if word == "quit":
        break

if mode == "stubborn":
    while True:
        time.sleep(60)

try:
    engine.stdin.close()
except BrokenPipeError:
    pass
try:
    engine.wait(timeout=2)
except subprocess.TimeoutExpired:
    engine.kill()
