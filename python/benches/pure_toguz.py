"""A plain pure-Python Toguz Kumalak (and Kozdatu/Bestemshchi, standard switches), written
from RULES.md: the speed baseline of bench.py and an independent check of the binding's rules
in the tests. Deliberately simple: lists, one stone at a time."""

import random


class PureToguz:
    """A game: `holes` per row, `tuzdik` on or off; the repetition rule included."""

    def __init__(self, holes=9, tuzdik=True):
        self.n = holes
        self.tuzdik_allowed = tuzdik
        self.board = [holes] * (2 * holes)
        self.kazans = [0, 0]
        self.tuzdiks = [-1, -1]  # ring index of the tuzdik each player owns
        self.side = 0
        self.total = 2 * holes * holes
        self.history = [self.key()]

    def key(self):
        return (tuple(self.board), tuple(self.kazans), tuple(self.tuzdiks), self.side)

    def legal_moves(self):
        if self.is_over():
            return []
        start = self.side * self.n
        return [h + 1 for h in range(self.n) if self.board[start + h] > 0]

    def _decided(self):
        threshold = self.total // 2 + 1
        return self.kazans[0] >= threshold or self.kazans[1] >= threshold

    def _row_empty(self):
        start = self.side * self.n
        return sum(self.board[start:start + self.n]) == 0

    def _repeated(self):
        return self.history.index(self.history[-1]) != len(self.history) - 1

    def is_over(self):
        return self._decided() or self._row_empty() or self._repeated()

    def play(self, hole):
        if hole not in self.legal_moves():
            raise ValueError("illegal move %r" % (hole,))
        n, ring = self.n, 2 * self.n
        origin = self.side * n + hole - 1
        stones = self.board[origin]
        self.board[origin] = 0
        where = origin if stones > 1 else (origin + 1) % ring
        landing = where
        for _ in range(stones):
            landing = where
            owner = self.tuzdiks.index(where) if where in self.tuzdiks else -1
            if owner >= 0:
                self.kazans[owner] += 1
            else:
                self.board[where] += 1
            where = (where + 1) % ring
        opponent = 1 - self.side
        on_opponent_side = landing // n == opponent
        if on_opponent_side and landing not in self.tuzdiks:
            count = self.board[landing]
            if count % 2 == 0:
                self.kazans[self.side] += count
                self.board[landing] = 0
            elif (
                count == 3
                and self.tuzdik_allowed
                and self.tuzdiks[self.side] < 0
                and landing % n != n - 1
                and not (self.tuzdiks[opponent] >= 0 and self.tuzdiks[opponent] % n == landing % n)
            ):
                self.tuzdiks[self.side] = landing
                self.kazans[self.side] += 3
                self.board[landing] = 0
        self.side = opponent
        self.history.append(self.key())

    def scores(self):
        """Final scores (South, North) of a finished game."""
        if self._decided() or self._row_empty():
            n = self.n
            return (
                self.kazans[0] + sum(self.board[:n]),
                self.kazans[1] + sum(self.board[n:]),
            )
        half = sum(self.board) // 2
        return (self.kazans[0] + half, self.kazans[1] + half)

    def fen(self):
        """The board part of the engine's position string."""
        n = self.n
        rows = []
        for side in (0, 1):
            cells = []
            for h in range(n):
                index = side * n + h
                cells.append("X" if index in self.tuzdiks else str(self.board[index]))
            rows.append(",".join(cells))
        return "%s %d %d %s" % ("/".join(rows), self.kazans[0], self.kazans[1], "wb"[self.side])


def random_playout(rng, holes=9, tuzdik=True):
    """Plays one game of uniformly random moves; returns its plies."""
    game = PureToguz(holes, tuzdik)
    plies = 0
    moves = game.legal_moves()
    while moves:
        game.play(rng.choice(moves))
        plies += 1
        moves = game.legal_moves()
    return plies


def perft(game, depth):
    """Leaf count by rules 3a/3b (repetition ignored, as the engine's perft)."""
    if depth == 0:
        return 1
    if game._decided() or game._row_empty():
        return 0
    total = 0
    start = game.side * game.n
    for h in range(game.n):
        if game.board[start + h] == 0:
            continue
        saved = (game.board[:], game.kazans[:], game.tuzdiks[:], game.side, game.history)
        game.history = [None]
        game.play(h + 1)
        total += perft(game, depth - 1)
        game.board, game.kazans, game.tuzdiks, game.side, game.history = saved
    return total


if __name__ == "__main__":
    print(perft(PureToguz(), 4), random_playout(random.Random(1)))
