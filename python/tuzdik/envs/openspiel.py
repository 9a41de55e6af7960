"""Toguz Kumalak (and relatives) as an OpenSpiel game, registered on import as
`python_togyz_kumalak`:

>>> import pyspiel
>>> import tuzdik.envs.openspiel
>>> game = pyspiel.load_game("python_togyz_kumalak")
>>> game.new_initial_state().legal_actions()
[0, 1, 2, 3, 4, 5, 6, 7, 8]

The parameter `variant` takes a variant spec (`"kozdatu tuzdik=on"`). Action `a` plays hole
`a + 1` (Mangala IV: the last action is the pass). Returns are +1/-1/0 at the end.
Observation tensors are `tuzdik.Game.observation`'s planes from the player's view.
"""

import numpy as np
import pyspiel

import tuzdik

# No game of the Toguz family comes near this many plies in practice (random play ends in a
# few hundred); Mangala IV stops at 1000 by its own rule.
MAX_GAME_LENGTH = 2000

_DEFAULT_VARIANT = "togyz"

_GAME_TYPE = pyspiel.GameType(
    short_name="python_togyz_kumalak",
    long_name="Python Toguz Kumalak (Tuzdik)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": _DEFAULT_VARIANT},
)


def _game_info(variant):
    probe = tuzdik.Game(variant)
    return pyspiel.GameInfo(
        num_distinct_actions=probe.num_actions,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )


class TogyzKumalakGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(params or {})
        self.variant = params.get("variant", _DEFAULT_VARIANT)
        super().__init__(_GAME_TYPE, _game_info(self.variant), params)

    def new_initial_state(self):
        return TogyzKumalakState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return BoardObserver(self.variant, params)


class TogyzKumalakState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.game = tuzdik.Game(game.variant)

    def current_player(self):
        if self.game.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self.game.turn

    def _legal_actions(self, player):
        return self.game.legal_actions()

    def _apply_action(self, action):
        self.game.play(self.game.action_to_move(action))

    def _action_to_string(self, player, action):
        hole = self.game.action_to_move(action)
        return "pass" if hole == 0 else str(hole)

    def is_terminal(self):
        return self.game.is_over()

    def returns(self):
        result = self.game.result()
        if result == "p1win":
            return [1.0, -1.0]
        if result == "p2win":
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self):
        return self.game.fen()


class BoardObserver:
    """The planes of `tuzdik.Game.observation` as OpenSpiel's flat tensor and shaped view."""

    def __init__(self, variant, params):
        if params:
            raise ValueError("observation parameters are not supported; got %r" % (params,))
        holes = tuzdik.Game(variant).holes
        shape = (tuzdik.OBSERVATION_CHANNELS, 2, holes)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state.game.observation(player)

    def string_from(self, state, player):
        return "%s (player %d)" % (state.game.fen(), player)


pyspiel.register_game(_GAME_TYPE, TogyzKumalakGame)
