"""The cluster driver on a real Ray cluster: a head and two worker nodes started here on
the loopback address, a 40-game match, one worker killed in the middle of a pair.

Run by .ci/run in a venv with `pip install ray pytest`:

    TUZDIK_BIN=target/release/tuzdik python -m pytest scripts/cluster
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import match as driver  # noqa: E402


def tuzdik_binary():
    for path in (os.environ.get("TUZDIK_BIN"), ROOT / "target/release/tuzdik", ROOT / "target/debug/tuzdik"):
        if path and Path(path).is_file():
            return str(Path(path).resolve())
    pytest.skip("no tuzdik binary: build it first (cargo build --release)")


def ray_command():
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    if ray is None:
        pytest.skip("the ray command is not installed (pip install ray)")
    return ray


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def processes():
    """(pid, pgid, command line, parent pid) of every live process."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            fields = stat.rsplit(")", 1)[1].split()
            ppid, pgid = int(fields[1]), int(fields[2])
        except (OSError, ValueError, IndexError):
            continue
        if cmdline:
            found.append((int(entry), pgid, cmdline, ppid))
    return found


def test_llr_agrees_with_the_rust_figures():
    # The figures of src/matchrun/stats.rs's test, from an independent solver.
    for counts, elo0, elo1, expected in [
        ([10, 20, 40, 25, 5], 0.0, 5.0, -0.1204621047),
        ([3, 60, 150, 70, 5], 0.0, 5.0, 0.3207486366),
        ([50, 400, 1000, 450, 60], 0.0, 2.0, 0.6373745050),
    ]:
        assert abs(driver.pentanomial_llr(counts, elo0, elo1) - expected) < 1e-6


class Cluster:
    """A head (no CPUs, so no games) and worker nodes, each its own process group."""

    def __init__(self, ray, workdir):
        self.ray = ray
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        # Short: Ray puts Unix sockets under it.
        self.temp = f"/tmp/tzr{os.getpid()}"
        self.groups = {}
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        self.env.pop("RAY_ADDRESS", None)
        self.log = open(workdir / "ray-start.log", "w")

    def start(self, name, args):
        process = subprocess.Popen(
            [self.ray, "start", *args, "--node-ip-address", "127.0.0.1", "--disable-usage-stats"],
            stdout=self.log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
        )
        self.groups[name] = process.pid
        assert process.wait(timeout=180) == 0, f"ray start for {name} failed, see {self.log.name}"

    def up(self, workers):
        self.start("head", ["--head", "--port", str(self.port), "--num-cpus", "0",
                            "--include-dashboard=false", "--temp-dir", self.temp])
        for i in range(1, workers + 1):
            self.start(f"worker{i}", ["--address", self.address, "--num-cpus", "1",
                                      "--resources", json.dumps({f"matchworker{i}": 1})])

    def node(self, name):
        """The node's processes: its `ray start` group and everything they started (Ray
        starts its worker processes in groups of their own)."""
        table = processes()
        members = {p[0] for p in table if p[1] == self.groups[name]}
        grown = True
        while grown:
            more = {p[0] for p in table if p[3] in members} - members
            members |= more
            grown = bool(more)
        return [p for p in table if p[0] in members]

    def kill(self, name):
        """Kills a node as a machine failure would: all of its processes at once."""
        doomed = self.node(name)
        try:
            os.killpg(self.groups[name], signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pid, *_ in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def ours(self):
        table = processes()
        mine = {p[0] for name in self.groups for p in self.node(name)}
        return [p for p in table if p[0] in mine or self.temp in p[2]]

    def down(self):
        for name in list(self.groups):
            self.kill(name)
        for pid, *_ in self.ours():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(ray_command(), tmp_path)
    try:
        c.up(workers=2)
        yield c
    finally:
        c.down()
        deadline = time.monotonic() + 20
        while c.ours() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not c.ours(), f"left running: {c.ours()}"


def test_a_match_survives_a_killed_worker(cluster, tmp_path):
    tuzdik = tuzdik_binary()
    pgn, result = tmp_path / "cluster.pgn", tmp_path / "cluster.json"
    engines = ["--engine", f"cmd={tuzdik} name=A", "--engine", f"cmd={tuzdik} name=B",
               "--nodes", "2000", "--seed", "7"]
    sprt = "elo0=-10,elo1=10"
    run = subprocess.Popen(
        [sys.executable, str(HERE / "match.py"), "--address", cluster.address, "--tuzdik", tuzdik,
         "--games", "40", "--pgn", str(pgn), "--json", str(result), "--sprt", sprt, "--", *engines],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=cluster.env,
    )
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(run.stdout), daemon=True)
    reader.start()
    killed = False
    deadline = time.monotonic() + 900
    while run.poll() is None:
        assert time.monotonic() < deadline, "".join(lines)
        if not killed and any(line.startswith("pairs ") for line in lines):
            # Worker 1 dies in the middle of a pair: a tuzdik of its own is playing one.
            playing = [p[2] for p in cluster.node("worker1") if "--only-games" in p[2]]
            if playing:
                cluster.kill("worker1")
                interrupted = re.search(r"--only-games (\d+),(\d+)", playing[0]).groups()
                killed = True
        time.sleep(0.01)
    reader.join(timeout=60)
    assert run.wait(timeout=60) == 0, "".join(lines)
    assert killed, "".join(lines)
    output = "".join(lines)
    assert not cluster.node("worker1"), "worker 1 is dead"

    totals = json.loads(result.read_text())
    records = re.findall(r'\[Round "(\d+)"\]', pgn.read_text())
    rounds = sorted(int(r) for r in records)
    # Exactly the games counted, each once, in whole pairs.
    assert len(rounds) == len(set(rounds)) == totals["games"]
    assert rounds == sorted(i + 1 for pair in totals["pairs"] for i in pair)
    assert all(r % 2 == 1 and r + 1 in rounds for r in rounds[::2])
    state = totals["sprt"]["state"]
    if state == "continue":
        assert totals["games"] == 40, output
    else:
        assert totals["games"] < 40 and (totals["sprt"]["llr"] >= totals["sprt"]["upper"]
                                         or totals["sprt"]["llr"] <= totals["sprt"]["lower"])
    # Colours swapped over one opening within every pair.
    games = re.split(r"\n(?=\[Event )", pgn.read_text().strip())
    by_round = {int(re.search(r'\[Round "(\d+)"\]', g).group(1)): g for g in games}
    tag = lambda g, t: re.search(rf'\[{t} "([^"]*)"\]', g).group(1)
    for r in rounds[::2]:
        first, second = by_round[r], by_round[r + 1]
        assert tag(first, "FEN") == tag(second, "FEN")
        assert (tag(first, "White"), tag(first, "Black")) == (tag(second, "Black"), tag(second, "White"))
    # The PGN replays under the rules.
    replay = subprocess.run([tuzdik, "replay", str(pgn)], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert replay.stdout.startswith(f"{totals['games']} games"), replay.stdout
    # The SPRT state is the one tuzdik itself computes from the PGN.
    if state == "continue":
        check = tmp_path / "check.json"
        recount = subprocess.run(
            [tuzdik, "match", *engines, "--games", "40", "--resume", str(pgn), "--sprt", sprt,
             "--json", str(check), "--progress", "lines"],
            capture_output=True, text=True, timeout=300,
        )
        assert recount.returncode == 0, recount.stderr
        assert "Finished game" not in recount.stdout, "nothing was left to play"
        own = json.loads(check.read_text())
        assert own["encounters"][0]["pentanomial"] == totals["pentanomial"]
        assert abs(own["sprt"]["llr"] - totals["sprt"]["llr"]) < 1e-9
        assert own["sprt"]["state"] == "continue"
    # The pair worker 1 died in was played again elsewhere and counted once.
    assert sorted(int(i) + 1 for i in interrupted) == [r for r in rounds if r in
                                                       (int(interrupted[0]) + 1, int(interrupted[1]) + 1)]
    assert sum(w["games"] for w in totals["workers"]) == totals["games"]


@pytest.mark.parametrize("args, says", [
    (["--games", "4", "--pgn", "x.pgn", "--", "--engine", "cmd=a", "--engine", "cmd=b"], "--address"),
    (["--address", "h:1", "--tuzdik", "/nonexistent/tuzdik", "--games", "4", "--pgn", "x.pgn", "--",
      "--engine", "cmd=a", "--engine", "cmd=b"], "no such file"),
    (["--address", "h:1", "--tuzdik", "T", "--games", "5", "--pgn", "x.pgn", "--",
      "--engine", "cmd=a", "--engine", "cmd=b"], "even"),
    (["--address", "h:1", "--tuzdik", "T", "--games", "4", "--pgn", "x.pgn", "--",
      "--engine", "cmd=a", "--engine", "cmd=b", "--engine", "cmd=c"], "two-engine"),
    (["--address", "h:1", "--tuzdik", "T", "--games", "4", "--pgn", "x.pgn", "--",
      "--engine", "cmd=a", "--engine", "cmd=b", "--sprt", "elo0=0,elo1=5"], "before --"),
    (["--address", "h:1", "--tuzdik", "T", "--games", "4", "--pgn", "x.pgn"], "after --"),
])
def test_bad_arguments_are_refused_before_anything_runs(args, says, capsys):
    args = [tuzdik_binary() if a == "T" else a for a in args]
    with pytest.raises(SystemExit) as stopped:
        driver.main(args)
    message = str(stopped.value.code) + capsys.readouterr().err
    assert says in message, message
