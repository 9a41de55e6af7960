"""Tuzdik for Python: exact Toguz Kumalak rules (and Kozdatu, Bestemshchi, Mangala IV), the
Tuzdik engine, PGN records and batched environments for reinforcement learning.

>>> import tuzdik
>>> game = tuzdik.Game()
>>> game.play("87(10)")
>>> game.legal_moves()
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> game.scores()
(10, 0)
"""

import io
import os

from ._tuzdik import (
    NORTH,
    OBSERVATION_CHANNELS,
    SOUTH,
    Engine,
    Game,
    Position,
    Record,
    SearchLine,
    SearchResult,
    VecEnv,
    parse_pgn,
    variants,
)

__all__ = [
    "Engine",
    "Game",
    "NORTH",
    "OBSERVATION_CHANNELS",
    "Position",
    "Record",
    "SOUTH",
    "SearchLine",
    "SearchResult",
    "VecEnv",
    "read_pgn",
    "variants",
]

__version__ = "0.1.0"


def read_pgn(path_or_file):
    """Yields the games of a PGN file (a path, or an open text or binary file) as `Record`s:
    `tags`, `moves` as written, `result`; `record.game()` replays and checks them, or play
    them yourself from `record.start()`. A malformed file raises `ValueError` naming the line.
    """
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        with open(path_or_file, "rb") as handle:
            data = handle.read()
    elif hasattr(path_or_file, "read"):
        data = path_or_file.read()
    else:
        raise TypeError(
            "read_pgn takes a path or a file, not %s" % type(path_or_file).__name__
        )
    if isinstance(data, bytes):
        data = data.decode("utf-8", errors="replace")
    yield from parse_pgn(data)
