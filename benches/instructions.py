#!/usr/bin/env python3
"""Instructions per search node under callgrind, which counts the same whatever else the
machine is doing: the figure to compare for pure speed changes on a shared machine.

usage: benches/instructions.py [ENGINE] [POSITIONS]

Searches the first POSITIONS (10) positions of positions/bench.txt (the plain Toguz ones) to
depth 13 with Hash 16 under `valgrind --tool=callgrind` and prints the instruction total, the
node total and their ratio. A change that keeps the search's tree keeps the node total.
"""
import os
import re
import subprocess
import sys
import tempfile

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/tuzdik"
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 10
BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "positions", "bench.txt")


def main():
    lines = [line for line in open(BENCH) if line.strip() and not line.startswith("#")][:COUNT]
    with tempfile.TemporaryDirectory() as scratch:
        engine = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/callgrind.out",
             ENGINE],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        def send(command):
            engine.stdin.write(command + "\n")
            engine.stdin.flush()

        send("setoption name Hash value 16")
        nodes = 0
        for line in lines:
            send("ucinewgame")
            send("position fen " + line.split(";")[1].strip())
            send("go depth 13")
            last = None
            for output in engine.stdout:
                if output.startswith("info depth"):
                    last = output
                if output.startswith("bestmove"):
                    break
            found = re.search(r"nodes (\d+)", last or "")
            if not found:
                sys.exit(f"no node count for {line.strip()!r}")
            nodes += int(found.group(1))
        send("quit")
        _, errors = engine.communicate()
    found = re.search(r"refs:\s+([\d,]+)", errors)
    if not found:
        sys.exit("callgrind printed no instruction count:\n" + errors[-2000:])
    instructions = int(found.group(1).replace(",", ""))
    print(f"instr {instructions} nodes {nodes} per-node {instructions / nodes:.1f}")


if __name__ == "__main__":
    main()
