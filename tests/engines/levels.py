#!/usr/bin/env python3
"""An engine with levels and WDL, for the GUI's tests.

It runs the real engine (the program named by $TUZDIK_ENGINE) and passes every line both
ways, but also declares `Skill Level` (spin 0..20), `UCI_LimitStrength` (check) and `UCI_Elo`
(spin 1000..2800) in its `uci` answer, in place of the real engine's own declarations of them
(dropped, so that the page sees one range a test knows). Setting one of them is answered with
`info string level <name> = <value>` instead of being passed on, so a test sees exactly what a
GUI sent. Every `info` line with a score carries
`wdl 600 300 100` in place of the real engine's own (which depends on the search), so a test
knows what the page must show.
"""

import os
import re
import subprocess
import sys
import threading

engine = subprocess.Popen(
    [os.environ["TUZDIK_ENGINE"]],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
    bufsize=1,
)
lock = threading.Lock()
LEVELS = {"skill level", "uci_limitstrength", "uci_elo"}


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def pump():
    for line in engine.stdout:
        line = line.rstrip("\n")
        declared = re.match(r"option name (.+?) type ", line)
        if declared and declared.group(1).lower() in LEVELS:
            continue
        if line in ("uciok", "ugiok"):
            say("option name Skill Level type spin default 20 min 0 max 20")
            say("option name UCI_LimitStrength type check default false")
            say("option name UCI_Elo type spin default 2800 min 1000 max 2800")
        if line.startswith("info ") and " score " in line:
            line = re.sub(r" wdl \d+ \d+ \d+", "", line)
            line = line.replace(" nodes ", " wdl 600 300 100 nodes ", 1)
        say(line)


threading.Thread(target=pump, daemon=True).start()

for line in sys.stdin:
    words = line.split()
    if words[:2] == ["setoption", "name"] and "value" in words:
        at = words.index("value")
        name = " ".join(words[2:at])
        if name.lower() in LEVELS:
            say(f"info string level {name} = {' '.join(words[at + 1:])}")
            continue
    engine.stdin.write(line)
    engine.stdin.flush()
    if words[:1] == ["quit"]:
        break

engine.stdin.close()
engine.wait(timeout=5)
