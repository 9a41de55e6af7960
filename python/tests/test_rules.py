"""The binding's rules against the plain pure-Python implementation (benches/pure_toguz.py,
written from RULES.md) on random games, and against every PlayOK game."""

import random

import pytest
from pure_toguz import PureToguz, perft

import tuzdik


@pytest.mark.parametrize(
    "variant,holes,tuzdik_on",
    [("togyz", 9, True), ("kozdatu", 7, False), ("kozdatu tuzdik=on", 7, True), ("bestemshchi", 5, False)],
)
def test_random_games_agree_with_the_plain_implementation(variant, holes, tuzdik_on):
    rng = random.Random(holes * 1000 + tuzdik_on)
    endings = set()
    for _ in range(150):
        game = tuzdik.Game(variant)
        plain = PureToguz(holes, tuzdik_on)
        while True:
            assert game.fen().rsplit(" ", 1)[0] == plain.fen()
            assert game.legal_moves() == plain.legal_moves()
            assert game.is_over() == plain.is_over()
            if plain.is_over():
                break
            move = rng.choice(plain.legal_moves())
            game.play(move)
            plain.play(move)
        assert game.scores() == plain.scores()
        south, north = plain.scores()
        assert game.result() == ("p1win" if south > north else "p2win" if north > south else "draw")
        endings.add(game.termination())
    assert "no-stones" in endings or "kazan-majority" in endings


def test_perft_agrees_with_the_plain_implementation():
    for holes, variant in ((9, "togyz"), (7, "kozdatu"), (5, "bestemshchi")):
        for depth in range(1, 5):
            assert tuzdik.Position(variant=variant).perft(depth) == perft(PureToguz(holes, holes == 9), depth)


def test_every_playok_game_replays(playok_pgn):
    games = moves = finished = 0
    for record in tuzdik.read_pgn(playok_pgn):
        game = record.start()
        for text in record.moves:
            hole = int(text[0])
            # The landing hole and tuzdik mark as the binding writes them...
            assert game.long_notation(hole) == text.split("(")[0], (record.tags, text)
            # ...and the written move (landing, X and (k) checked) played.
            game.play(text)
            moves += 1
        games += 1
        if game.is_over():
            finished += 1
            token = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}[game.result()]
            assert record.tags["Result"] in (token, "*"), record.tags
        assert record.game() == game
    assert games == 2398
    assert moves > 200_000
    assert finished > 1000
