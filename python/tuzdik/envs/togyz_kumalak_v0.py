"""A PettingZoo AEC environment for Toguz Kumalak and its relatives, with exact rules.

>>> from tuzdik.envs import togyz_kumalak_v0
>>> env = togyz_kumalak_v0.env()
>>> env.reset(seed=0)
>>> env.agent_selection
'player_0'

`player_0` is South (moves first), `player_1` North. Observations are dicts:
`observation`, float32 planes `(8, 2, N)` from the observing agent's view (the layout of
`tuzdik.Game.observation`), and `action_mask`, int8 `(A,)`. Action `a` plays hole `a + 1`
(Mangala IV: the last action is the pass). Rewards come at the end of the game: +1 to the
winner, -1 to the loser, 0 each for a draw (repetition and Mangala IV's ply limit share the
board as the rules say, and are terminations, not truncations). An illegal action raises
`ValueError` naming the reason; nothing is played for you.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import tuzdik


def env(**kwargs):
    """The wrapped environment (order enforcing, bounds checked); see `raw_env`."""
    environment = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """`raw_env(variant="togyz", render_mode=None, *, tuzdik=None, sowing=None,
    capture=None, mangala=None)`: the variant and switches as for `tuzdik.Game`."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "togyz_kumalak_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant="togyz", render_mode=None, **switches):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                "render_mode %r is not one of %s"
                % (render_mode, self.metadata["render_modes"])
            )
        self.render_mode = render_mode
        self._variant = variant
        self._switches = switches
        self.game = tuzdik.Game(variant, **switches)
        holes = self.game.holes
        actions = self.game.num_actions
        # A hole never holds more than all the stones: 2N starting holes' worth.
        observation = spaces.Box(
            low=0.0, high=float(2 * holes), shape=(tuzdik.OBSERVATION_CHANNELS, 2, holes),
            dtype=np.float32,
        )
        mask = spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._reset_bookkeeping()

    def _reset_bookkeeping(self):
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        mask = self.game.action_mask().astype(np.int8)
        if player != self.game.turn:
            mask[:] = 0
        return {"observation": self.game.observation(player), "action_mask": mask}

    def reset(self, seed=None, options=None):
        # The game has no chance: the seed changes nothing, and resets are reproducible.
        self.game = tuzdik.Game(self._variant, **self._switches)
        self._reset_bookkeeping()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        mover = self.game.turn
        self.game.play(self.game.action_to_move(int(action)))
        for name in self.agents:
            self.rewards[name] = 0
        if self.game.is_over():
            result = self.game.result()
            for index, name in enumerate(self.possible_agents):
                if result == "draw":
                    self.rewards[name] = 0
                else:
                    winner = 0 if result == "p1win" else 1
                    self.rewards[name] = 1 if index == winner else -1
                self.terminations[name] = True
            self.agent_selection = self.possible_agents[1 - mover]
        else:
            self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
