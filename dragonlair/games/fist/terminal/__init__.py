"""The game's own terminal screen (`dragonlair play fist`): the session that drives a table
from the engine's views and events (play.py) and the screen it draws (screen.py), named in
the game's plugin (`terminal`, `terminal_rules`). An interface part of the game, beside it:
it may use dragonlair.cli's session toolkit; the engine never imports it."""
