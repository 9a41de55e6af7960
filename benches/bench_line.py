"""The `tuzdik bench` run the bench scripts share (imported by ab.py and ceiling.py)."""
import subprocess
import sys


def bench_nodes_per_second(engine, *args):
    """Runs `engine bench *args` and returns its `<N> nodes <M> nps` line as (N, M); exits
    with a message naming the engine when it cannot run or prints anything else."""
    try:
        done = subprocess.run([engine, "bench", *args], capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"cannot run {engine}: {error}")
    words = done.stdout.split()
    if done.returncode != 0 or len(words) != 4 or words[1] != "nodes" or words[3] != "nps":
        command = " ".join([engine, "bench", *args])
        sys.exit(f"{command} failed (exit {done.returncode}): "
                 f"{done.stdout.strip()!r} {done.stderr.strip()[-200:]!r}")
    return int(words[0]), int(words[2])
