import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent / "benches"))


def _playok_path():
    env = os.environ.get("TUZDIK_PLAYOK_PGN")
    candidates = [env] if env else []
    candidates += [
        REPO.parent / "shared" / "data" / "playok-2025.pgn",
        pathlib.Path("/work/shared/data/playok-2025.pgn"),
    ]
    for candidate in candidates:
        if candidate and pathlib.Path(candidate).is_file():
            return pathlib.Path(candidate)
    return None


@pytest.fixture(scope="session")
def perft_suite():
    path = REPO / "positions" / "perft.txt"
    if not path.is_file():
        pytest.skip("positions/perft.txt is not in this checkout")
    entries = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, fen, counts = (part.strip() for part in line.split(";"))
        entries.append((variant, fen, [int(c) for c in counts.split()]))
    return entries


@pytest.fixture(scope="session")
def playok_pgn():
    path = _playok_path()
    if path is None:
        pytest.skip("no PlayOK data (../shared/data/playok-2025.pgn)")
    return path


def require(module):
    """Imports an extra's module, or skips the test without it; under
    TUZDIK_REQUIRE_EXTRAS=1 (CI) a missing extra is an error, never a skip."""
    if os.environ.get("TUZDIK_REQUIRE_EXTRAS") == "1":
        import importlib

        return importlib.import_module(module)
    return pytest.importorskip(module)
