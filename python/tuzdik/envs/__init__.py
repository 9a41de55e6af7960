"""Environments over `tuzdik.Game`: PettingZoo (`togyz_kumalak_v0`), Gymnasium
(`tuzdik.envs.gym.TogyzKumalakEnv`) and OpenSpiel (`tuzdik.envs.openspiel`). Each needs its
extra: `pip install "tuzdik[pettingzoo]"`, `[gymnasium]` or `[openspiel]`."""
