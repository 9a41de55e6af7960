import pytest

import tuzdik


def test_search_returns_a_legal_move_with_its_line():
    game = tuzdik.Game()
    game.play(8)
    result = game.search(depth=5)
    assert result.best in game.legal_moves()
    assert result.pv[0] == result.best
    assert result.depth == 5 and result.nodes > 0
    assert result.score.startswith("cp ") and result.cp is not None and result.mate is None
    win, draw, loss = result.wdl
    assert win + draw + loss == 1000
    # The score is the expected final margin: never beyond what the board still allows.
    assert abs(result.cp) <= 100 * 162
    line = game.copy()
    for move in result.pv:
        line.play(move)


def test_multipv_lines_differ_and_are_sorted():
    result = tuzdik.Game().search(depth=4, multipv=3)
    assert len(result.lines) == 3
    assert len({line.pv[0] for line in result.lines}) == 3
    scores = [line.cp for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    assert result.lines[0].pv == result.pv


def test_a_won_endgame_is_a_mate_score():
    # South captures North's last stones' worth: 82 in the kazan wins at once.
    game = tuzdik.Game(fen="0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w")
    result = game.search(depth=3)
    assert result.best == 9 and result.mate == 1 and result.score == "mate 1"
    assert result.wdl == (1000, 0, 0)


def test_engine_keeps_its_table_and_limits_are_checked():
    engine = tuzdik.Engine(hash_mb=4)
    game = tuzdik.Game()
    first = engine.search(game, nodes=20_000)
    second = engine.search(game, nodes=20_000)
    assert first.best in game.legal_moves() and second.best in game.legal_moves()
    assert engine.hash_mb == 4 and engine.threads == 1
    engine.clear()
    assert engine.search(game, movetime=0.05).best in game.legal_moves()
    with pytest.raises(ValueError, match="give a limit"):
        engine.search(game)
    with pytest.raises(ValueError, match="give a limit"):
        engine.search(game, level=20)
    with pytest.raises(ValueError, match="movetime"):
        engine.search(game, movetime=-1)
    with pytest.raises(TypeError, match="expected a tuzdik.Game"):
        engine.search("startpos", depth=2)
    with pytest.raises(ValueError, match="threads"):
        tuzdik.Engine(threads=0)
    over = tuzdik.Game(fen="1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 w")
    over.play(1)
    assert over.search(depth=3).best is None


def test_a_level_plays_weaker_on_its_own_budget_and_bad_levels_are_named():
    engine = tuzdik.Engine(hash_mb=4)
    game = tuzdik.Game()
    # A level needs no other limit: it searches its own node budget.
    beginner = engine.search(game, level=0)
    strong = engine.search(game, level=2600)
    assert beginner.best in game.legal_moves() and strong.best in game.legal_moves()
    assert beginner.nodes < strong.nodes
    # Skill level 20 is the full engine, exactly.
    engine.clear()
    full = engine.search(game, nodes=3_000)
    engine.clear()
    twenty = engine.search(game, nodes=3_000, level=20)
    assert (full.best, full.nodes, full.pv) == (twenty.best, twenty.nodes, twenty.pv)
    # Along a game, a beginner leaves the full engine's choice now and then, legally.
    differed = 0
    for _ in range(30):
        if game.is_over():
            break
        chosen = engine.search(game, level=800).best
        assert chosen in game.legal_moves()
        differed += chosen != engine.search(game, nodes=2_000).best
        game.play(chosen)
    assert differed > 0
    for bad in (21, -1, 300, 2701):
        with pytest.raises(ValueError, match=f"level={bad}"):
            engine.search(game, level=bad)


def test_the_built_in_net_evaluates_unless_another_or_none_is_chosen(tmp_path):
    game = tuzdik.Game()
    built_in = tuzdik.Engine()
    assert built_in.net is not None and len(built_in.net) == 16
    hand = tuzdik.Engine(evalfile="")
    assert hand.net is None
    # The two evaluations search different trees from the same position.
    assert built_in.search(game, depth=6).nodes != hand.search(game, depth=6).nodes
    junk = tmp_path / "junk.nnue"
    junk.write_bytes(b"not a net")
    with pytest.raises(ValueError, match="evalfile: .*not a tuzdik net file"):
        tuzdik.Engine(evalfile=str(junk))
    with pytest.raises(ValueError, match="evalfile: .*missing.nnue"):
        tuzdik.Engine(evalfile=str(tmp_path / "missing.nnue"))
