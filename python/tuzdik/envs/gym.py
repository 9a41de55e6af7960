"""A Gymnasium single-agent environment: the agent plays one side of Toguz Kumalak (or a
relative) against a fixed opponent.

>>> from tuzdik.envs.gym import TogyzKumalakEnv
>>> env = TogyzKumalakEnv(opponent="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape
(8, 2, 9)

The opponent is `"random"` (a uniformly random legal move, from the env's seeded
generator), `"engine"` (the Tuzdik search at `engine_nodes` nodes per move, deterministic),
or any callable `opponent(game) -> hole number`. `agent_player` 0 plays South (first), 1
North. `action_masks()` gives the legal actions (sb3-contrib's MaskablePPO reads it).

Rewards: +1 for a won game, -1 for a lost one, 0 for a draw and on every other step. An
illegal action ends the episode at once with `illegal_reward` (default -1) and
`info["illegal_action"] = True`; nothing is played in its place. Pass
`illegal_action="raise"` to get a `ValueError` instead.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

import tuzdik


class TogyzKumalakEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        variant="togyz",
        opponent="random",
        agent_player=0,
        engine_nodes=2000,
        illegal_action="lose",
        illegal_reward=-1.0,
        render_mode=None,
        **switches,
    ):
        if agent_player not in (0, 1):
            raise ValueError("agent_player must be 0 (South) or 1 (North), not %r" % (agent_player,))
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action must be 'lose' or 'raise', not %r" % (illegal_action,))
        if not (callable(opponent) or opponent in ("random", "engine")):
            raise ValueError("opponent must be 'random', 'engine' or a callable, not %r" % (opponent,))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode %r is not one of %s" % (render_mode, self.metadata["render_modes"]))
        self.render_mode = render_mode
        self._variant = variant
        self._switches = switches
        self._opponent = opponent
        self._agent = agent_player
        self._engine_nodes = engine_nodes
        self._engine = tuzdik.Engine() if opponent == "engine" else None
        self._illegal_action = illegal_action
        self._illegal_reward = float(illegal_reward)
        self.game = tuzdik.Game(variant, **switches)
        self._done = False
        holes = self.game.holes
        self.observation_space = spaces.Box(
            low=0.0, high=float(2 * holes), shape=(tuzdik.OBSERVATION_CHANNELS, 2, holes),
            dtype=np.float32,
        )
        self.action_space = spaces.Discrete(self.game.num_actions)

    def _observation(self):
        return self.game.observation(self._agent)

    def _info(self):
        return {"action_mask": self.game.action_mask(), "fen": self.game.fen()}

    def _opponent_move(self):
        if self._opponent == "random":
            moves = self.game.legal_moves()
            return moves[int(self.np_random.integers(len(moves)))]
        if self._opponent == "engine":
            self._engine.clear()
            return self._engine.search(self.game, nodes=self._engine_nodes).best
        return self._opponent(self.game.copy())

    def _play_opponent(self):
        while not self.game.is_over() and self.game.turn != self._agent:
            self.game.play(self._opponent_move())

    def _outcome_reward(self):
        result = self.game.result()
        if result is None or result == "draw":
            return 0.0
        winner = 0 if result == "p1win" else 1
        return 1.0 if winner == self._agent else -1.0

    def action_masks(self):
        """Legal actions as a bool array (all False once the game is over)."""
        return self.game.action_mask()

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.game = tuzdik.Game(self._variant, **self._switches)
        if self._engine is not None:
            self._engine.clear()
        self._play_opponent()
        self._done = self.game.is_over()
        return self._observation(), self._info()

    def step(self, action):
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        legal = 0 <= action < self.game.num_actions and bool(self.game.action_mask()[action])
        if not legal:
            if self._illegal_action == "raise":
                raise ValueError(
                    "action %d is not legal (legal actions: %s)" % (action, self.game.legal_actions())
                )
            info = self._info()
            info["illegal_action"] = True
            self._done = True
            return self._observation(), self._illegal_reward, True, False, info
        self.game.play(self.game.action_to_move(action))
        self._play_opponent()
        terminated = self.game.is_over()
        self._done = terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._outcome_reward(), terminated, False, self._info()

    def render(self):
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(id="tuzdik/TogyzKumalak-v0", entry_point=TogyzKumalakEnv)
