import copy
import io
import pickle

import numpy as np
import pytest

import tuzdik

START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1"


def test_start_position_and_both_notations():
    game = tuzdik.Game()
    assert game.fen() == START
    assert game.legal_moves() == list(range(1, 10))
    assert game.turn == tuzdik.SOUTH
    game.play("87(10)")
    assert game.scores() == (10, 0)
    game.play(8)
    assert game.moves == [8, 8]
    assert game.turn == tuzdik.SOUTH
    assert game.fen() == "10,10,10,10,10,10,0,1,10/10,10,10,10,10,10,0,1,10 10 10 w 2"
    assert game.long_notation(1) == "11"  # ten stones: holes 1..9, then North's 1


def test_illegal_moves_name_the_reason_and_change_nothing():
    game = tuzdik.Game()
    game.play(7)
    before = game.fen()
    cases = {
        "86": "lands in hole",
        "12": "lands in hole",
        "x": "is not a move",
        "0000": "pass",
        "76X": "makes no tuzdik",
        "87(9)": "says the mover's kazan is 9 afterwards",
    }
    for text, reason in cases.items():
        with pytest.raises(ValueError, match=r"(?i)" + reason.replace("(", r"\(")):
            game.play(text)
    with pytest.raises(ValueError, match="no hole 10"):
        game.play(10)
    with pytest.raises(ValueError, match="no hole -1"):
        game.play(-1)
    with pytest.raises(TypeError):
        game.play(1.5)
    assert game.fen() == before and game.moves == [7]
    emptied = tuzdik.Game(fen="0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 w")
    with pytest.raises(ValueError, match="illegal move 1: hole 1 is empty"):
        emptied.play(1)
    with pytest.raises(ValueError, match="hole 3 is a tuzdik"):
        tuzdik.Game(fen="9,9,X,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 w").play("3")


def test_undo_and_its_error():
    game = tuzdik.Game()
    with pytest.raises(IndexError):
        game.undo()
    game.play(3)
    assert game.undo() == 3
    assert game.fen() == START


def test_a_finished_game_refuses_moves_and_reports_its_end():
    # After South's move North has no stones: 81-81 by rule 3b, a draw.
    game = tuzdik.Game(fen="1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 w")
    game.play("12")
    assert game.is_over()
    assert game.termination() == "no-stones"
    assert game.result() == "draw"
    assert game.scores() == (81, 81)
    assert game.legal_moves() == []
    with pytest.raises(ValueError, match="game is over"):
        game.play(1)


def test_repetition_ends_a_game():
    game = tuzdik.Game("bestemshchi", fen="1,0,0,0,0/1,0,0,0,0 24 24 w")
    plies = 0
    while not game.is_over():
        game.play(game.legal_moves()[-1])
        plies += 1
    assert plies == 10
    assert game.termination() == "repetition"
    assert game.result() == "draw"
    assert game.scores() == (25, 25)
    # The bare position knows nothing of the history.
    assert game.position.legal_moves() != []


def test_variants_and_switches():
    assert tuzdik.Game("kozdatu").holes == 7
    assert tuzdik.Game("kozdatu", tuzdik=True).variant == "kozdatu tuzdik=on"
    assert tuzdik.Game("kozdatu tuzdik=on").variant == "kozdatu tuzdik=on"
    spec = tuzdik.Game("togyz", sowing="skip-origin", capture="singleton").variant
    assert spec == "togyz sowing=skip-origin capture=singleton"
    assert tuzdik.Game("mangala4", mangala="free-choice").num_actions == 8
    assert dict(tuzdik.variants())["bestemshchi"] == 5
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        tuzdik.Game("chess")
    with pytest.raises(ValueError, match="Mangala does not apply to togyz"):
        tuzdik.Game(mangala="free-choice")
    with pytest.raises(ValueError, match="Tuzdik does not apply to mangala4"):
        tuzdik.Game("mangala4", tuzdik=True)
    with pytest.raises(ValueError, match="bad value 'sideways' for Sowing"):
        tuzdik.Game(sowing="sideways")
    with pytest.raises(ValueError, match="South row"):
        tuzdik.Game("kozdatu", fen=START)


def test_mangala_pass_is_move_zero():
    game = tuzdik.Game("mangala4", fen="0,0,0,0,0,0,0/0,0,0,0,0,0,2 48 48 w")
    assert game.legal_moves() == [0]
    assert game.legal_actions() == [7]
    game.play(0)
    assert game.moves == [0]
    game.undo()
    game.play("0000")
    assert game.turn == tuzdik.NORTH


def test_pickle_copy_and_equality_keep_history_and_tags():
    game = tuzdik.Game("kozdatu", fen="7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 b 4")
    for move in (1, 2, 3):
        game.play(move)
    game.tags["Event"] = "test"
    for clone in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game), game.copy()):
        assert clone == game
        assert clone.moves == game.moves
        assert clone.fen() == game.fen()
        assert clone.start.fen() == game.start.fen()
        assert clone.tags == {"Event": "test"}
        clone.play(clone.legal_moves()[0])
        clone.tags["Event"] = "changed"
        assert len(game) == 3 and game.tags["Event"] == "test"


def test_str_draws_the_board_like_d():
    game = tuzdik.Game()
    game.play("87(10)")
    lines = str(game).splitlines()
    assert lines[0].strip() == "North" and lines[8].strip() == "South"
    assert "(  0)" in lines[3] and "[  1]" in lines[5]  # where the last stone fell, played from
    assert lines[-1] == "togyz, North to move, fullmove 1"


def test_position_value_type():
    game = tuzdik.Game()
    game.play(8)
    pos = game.position
    assert pos.kazans == (10, 0)
    assert pos.tuzdiks == (None, None)
    board = pos.board()
    assert board.dtype == np.uint8 and board.shape == (2, 9)
    assert board.tolist() == [[9, 9, 9, 9, 9, 9, 9, 1, 10], [10, 10, 10, 10, 10, 10, 0, 9, 9]]
    same = tuzdik.Position(game.fen())
    assert same == pos and hash(same) == hash(pos) == pos.key
    assert len({pos, same, tuzdik.Position()}) == 2
    assert pickle.loads(pickle.dumps(pos)) == pos
    game.play(8)
    assert pos.kazans == (10, 0), "a Position does not follow its game"
    after = pos.play("87(10)")
    assert after == game.position and after.fullmove == 2
    assert tuzdik.Position(variant="kozdatu") != tuzdik.Position(variant="kozdatu", tuzdik=True)
    tuzdik_pos = tuzdik.Position("9,9,X,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 w")
    assert tuzdik_pos.tuzdiks == (None, 3)
    assert 3 not in tuzdik_pos.legal_moves()


def test_perft_of_the_start_positions():
    assert tuzdik.Position().perft(5) == 43184
    assert tuzdik.Position().perft(5, threads=2) == 43184
    assert tuzdik.Position(variant="kozdatu").perft(6) == 72125
    assert tuzdik.Position(variant="bestemshchi").perft(6) == 7782
    with pytest.raises(ValueError, match="beyond the limit"):
        tuzdik.Position().perft(31)
    with pytest.raises(ValueError, match="threads"):
        tuzdik.Position().perft(2, threads=0)


def test_perft_suite(perft_suite):
    checked = 0
    for variant, fen, counts in perft_suite:
        pos = tuzdik.Position(fen, variant)
        for depth, expected in enumerate(counts, start=1):
            if expected > 300_000 or depth > 12:
                break
            assert pos.perft(depth) == expected, (variant, fen, depth)
            checked += 1
    assert checked > 500


def test_pgn_round_trip_and_reading_from_paths_and_files(tmp_path):
    game = tuzdik.Game()
    for move in ("87(10)", "87(10)", "22", "99(22)"):
        game.play(move)
    game.tags["Event"] = "round trip"
    text = game.pgn()
    assert '[Event "round trip"]' in text and "1. 87(10) 87(10) 2. 22 99(22)" in text
    path = tmp_path / "one.pgn"
    path.write_text(text + "\n" + tuzdik.Game("kozdatu").pgn())
    for source in (str(path), path, io.StringIO(path.read_text()), io.BytesIO(path.read_bytes())):
        records = list(tuzdik.read_pgn(source))
        assert len(records) == 2
        assert records[0].tags["Event"] == "round trip"
        assert records[0].moves == ["87(10)", "87(10)", "22", "99(22)"]
        assert records[0].game() == game
        assert records[0].game().tags["Event"] == "round trip"
        assert records[1].start().variant == "kozdatu"
    with pytest.raises(ValueError, match="result '2-0'"):
        game.pgn(result="2-0")


def test_bad_pgn_names_the_line():
    with pytest.raises(ValueError, match="line 3: unexpected 'e4'"):
        list(tuzdik.read_pgn(io.StringIO('[Event "x"]\n\n1. e4 *\n')))
    record = next(tuzdik.read_pgn(io.StringIO('[Event "x"]\n\n1. 87(10) 87(11) *\n')))
    with pytest.raises(ValueError, match=r"1\.\.\. '87\(11\)'"):
        record.game()
    with pytest.raises(TypeError):
        list(tuzdik.read_pgn(42))


def test_ctrl_c_stops_a_long_perft_and_a_long_search():
    import _thread
    import threading
    import time

    for long_call in (lambda: tuzdik.Position().perft(20), lambda: tuzdik.Game().search(depth=100)):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            long_call()
        timer.join()
        # Not a speed figure: without the signal check these calls would run for hours.
        assert time.monotonic() - started < 60
