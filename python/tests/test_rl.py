import numpy as np
import pytest

import tuzdik


def test_observation_layout_from_each_view():
    # North owns a tuzdik on South's hole 3; South to move.
    game = tuzdik.Game(fen="9,9,X,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 6 12 w")
    south = game.observation(0)
    assert south.dtype == np.float32 and south.shape == (8, 2, 9)
    assert south[0, 0].tolist() == [1, 1, 0, 1, 1, 1, 1, 1, 0]
    assert south[0, 1].tolist() == [1] * 9
    assert south[1, 0].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert south[1, 1].sum() == 0
    assert south[2, 0].tolist() == [1, 1, 0, 1, 1, 1, 1, 1, 0]
    assert south[2, 1].sum() == 0
    assert np.allclose(south[3], 6 / 162) and np.allclose(south[4], 12 / 162)
    assert south[5].sum() == 0 and np.all(south[6] == 1)
    assert np.all(south[7] == 1)
    north = game.observation(1)
    assert np.array_equal(north[0, 0], south[0, 1]) and np.array_equal(north[0, 1], south[0, 0])
    assert north[1, 1].tolist() == south[1, 0].tolist()
    assert np.all(north[5] == 1) and north[6].sum() == 0 and north[7].sum() == 0
    assert north[2, 1].tolist() == south[2, 0].tolist()
    assert np.array_equal(game.observation(), south)
    last = game.observation(0, channels_last=True)
    assert last.shape == (2, 9, 8) and np.array_equal(np.moveaxis(last, -1, 0), south)
    with pytest.raises(ValueError, match="player 2 does not exist"):
        game.observation(2)


def test_action_mask_follows_the_game_rules():
    game = tuzdik.Game(fen="9,9,X,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 6 12 w")
    mask = game.action_mask()
    assert mask.dtype == np.bool_
    assert np.flatnonzero(mask).tolist() == game.legal_actions() == [0, 1, 3, 4, 5, 6, 7]
    assert game.action_to_move(3) == 4
    with pytest.raises(ValueError, match="action 9 does not exist"):
        game.action_to_move(9)
    over = tuzdik.Game(fen="1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 w")
    over.play(1)
    assert not over.action_mask().any()
    assert over.observation()[2].sum() == 0


def test_vecenv_matches_games_played_alone():
    env = tuzdik.VecEnv(16, "kozdatu", seed=3)
    assert (env.num_envs, env.num_actions, env.observation_shape) == (16, 7, (8, 2, 7))
    obs, mask = env.reset()
    assert obs.shape == (16, 8, 2, 7) and obs.dtype == np.float32
    assert mask.shape == (16, 7) and mask.dtype == np.bool_
    games = [tuzdik.Game("kozdatu") for _ in range(16)]
    finished = 0
    for _ in range(400):
        actions = env.random_actions()
        assert actions.dtype == np.int64
        assert all(mask[i, a] for i, a in enumerate(actions))
        obs, reward, done, mask = env.step(actions)
        for i, game in enumerate(games):
            mover = game.turn
            game.play(game.action_to_move(int(actions[i])))
            assert done[i] == game.is_over()
            if game.is_over():
                finished += 1
                result = game.result()
                expected = 0.0 if result == "draw" else (1.0 if (result == "p1win") == (mover == 0) else -1.0)
                assert reward[i] == expected
                games[i] = game = tuzdik.Game("kozdatu")
            else:
                assert reward[i] == 0.0
            assert np.array_equal(obs[i], game.observation())
            assert np.array_equal(mask[i], game.action_mask())
    assert finished > 20


def test_vecenv_refuses_bad_actions_and_moves_nothing():
    env = tuzdik.VecEnv(3, seed=1)
    obs, mask = env.reset()
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match=r"game 1: action 9 is not legal"):
        env.step(np.array([0, 9, 0]))
    env.step(np.array([6, 0, 0], dtype=np.int32))
    # Game 0's move captured: the environment keeps the history since the last capture only.
    assert env.game(0).position.kazans == (10, 0) and env.game(0).moves == []
    assert env.game(1).moves == [1]
    # Mangala IV's leftmost rule allows one hole.
    leftmost = tuzdik.VecEnv(2, "mangala4")
    leftmost.reset()
    with pytest.raises(ValueError, match=r"game 1: action 3 is not legal \(legal actions: \[0\]\)"):
        leftmost.step(np.array([0, 3]))
    assert leftmost.game(0).moves == []
    with pytest.raises(IndexError):
        env.game(3)
    with pytest.raises(ValueError):
        tuzdik.VecEnv(0)


def test_vecenv_seeds_reproduce():
    def run(seed):
        env = tuzdik.VecEnv(8, seed=seed)
        env.reset()
        total = []
        for _ in range(50):
            actions = env.random_actions()
            total.append(actions.copy())
            env.step(actions)
        return np.array(total)

    assert np.array_equal(run(5), run(5))
    assert not np.array_equal(run(5), run(6))


def test_mangala_vecenv_has_a_pass_action():
    env = tuzdik.VecEnv(4, "mangala4", mangala="free-choice")
    obs, mask = env.reset()
    assert mask.shape == (4, 8) and not mask[:, 7].any()
    for _ in range(300):
        obs, reward, done, mask = env.step(env.random_actions())
