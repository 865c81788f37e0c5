"""Research interfaces: the three games for OpenSpiel, PettingZoo and Gymnasium.

Nothing here is imported by the rest of the package. The submodules need the optional extras:

- :mod:`dragonlair.interop.encoding` (numpy): fixed-length observation vectors, observation and
  information-state strings, all built from a seat's view only (F8, M6, D9);
- :mod:`dragonlair.interop.openspiel` (``pip install 'dragonlair[openspiel]'``): registers
  ``dragonlair_fist`` (simultaneous sealed bids), ``dragonlair_fist_turn_based``,
  ``dragonlair_master`` and ``dragonlair_farkle`` as OpenSpiel games;
- :mod:`dragonlair.interop.pettingzoo` (``pip install 'dragonlair[pettingzoo]'``): AEC
  environments ``fist_env``, ``master_env``, ``farkle_env`` and a Parallel bidding env;
- :mod:`dragonlair.interop.gym`: :class:`~dragonlair.interop.gym.SingleSeatEnv`, one seat
  against our bots as a Gymnasium environment.

:mod:`dragonlair.interop.common` (returns, truncation, chance ids) and
:mod:`dragonlair.interop.resample` (positions consistent with a view) need no extra.
See docs/research.md.
"""
