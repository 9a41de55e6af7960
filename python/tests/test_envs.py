"""The three libraries' own checkers against the wrappers (skipped without the extras)."""

import numpy as np
import pytest
from conftest import require

import tuzdik


def test_pettingzoo_api_and_seed_tests():
    require("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from tuzdik.envs import togyz_kumalak_v0

    api_test(togyz_kumalak_v0.env(), num_cycles=300)
    api_test(togyz_kumalak_v0.env(variant="bestemshchi"), num_cycles=300)
    seed_test(togyz_kumalak_v0.env, num_cycles=300)


def test_pettingzoo_plays_whole_games_with_the_rules_rewards():
    require("pettingzoo")
    from tuzdik.envs import togyz_kumalak_v0

    env = togyz_kumalak_v0.env(variant="kozdatu")
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.reset()
        final = {}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
        game = env.unwrapped.game
        assert game.is_over()
        expected = {"p1win": (1, -1), "p2win": (-1, 1), "draw": (0, 0)}[game.result()]
        assert (final["player_0"], final["player_1"]) == expected
    env.reset()
    while True:
        observation, *_ = env.last()
        illegal = np.flatnonzero(observation["action_mask"] == 0)
        if len(illegal):
            break
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    before = env.unwrapped.game.fen()
    with pytest.raises(ValueError, match="is empty"):
        env.step(int(illegal[0]))
    assert env.unwrapped.game.fen() == before


def test_gymnasium_check_env_and_masks():
    require("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from tuzdik.envs.gym import TogyzKumalakEnv

    for env in (
        TogyzKumalakEnv(),
        TogyzKumalakEnv(variant="kozdatu", agent_player=1),
        TogyzKumalakEnv(opponent="engine", engine_nodes=300),
    ):
        check_env(env, skip_render_check=True)
    env = TogyzKumalakEnv(agent_player=1, opponent=lambda game: game.legal_moves()[0])
    obs, info = env.reset(seed=1)
    assert env.game.moves == [1]
    assert np.array_equal(env.action_masks(), info["action_mask"])
    total = 0.0
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        obs, reward, done, truncated, info = env.step(action)
        total += reward
    assert total in (-1.0, 0.0, 1.0)
    env.reset(seed=1)
    obs, reward, done, truncated, info = env.step(9)
    assert done and reward == -1.0 and info["illegal_action"]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    strict = TogyzKumalakEnv(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="action 9 is not legal"):
        strict.step(9)


def test_openspiel_random_sim_test():
    pyspiel = require("pyspiel")
    import tuzdik.envs.openspiel  # noqa: F401  (registers the game)

    for params in ({}, {"variant": "kozdatu"}, {"variant": "mangala4 mangala=free-choice"}):
        game = pyspiel.load_game("python_togyz_kumalak", params)
        pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    state = pyspiel.load_game("python_togyz_kumalak").new_initial_state()
    state.apply_action(7)
    assert state.current_player() == 1
    expected = tuzdik.Game()
    expected.play(8)
    assert str(state) == expected.fen()
    assert np.allclose(state.observation_tensor(1), expected.observation(1).ravel())
    assert state.legal_actions() == expected.legal_actions()
