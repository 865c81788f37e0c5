"""Hints and post-game analysis: the strongest bot's judgement, put in front of a player.

A game declares an :class:`~dragonlair.analysis.hints.Analyser` through its plugin
(``GamePlugin.analysis``); it reads one seat's VIEW and legal actions, never a state (hidden
information is sacred: F8, M6, D9), and values each option the way the game's strongest bot
does. :mod:`.hints` holds the common data and the call; :mod:`.review` walks a record and
prices every decision of one seat (docs/analysis.md). Interfaces render what these compute;
they hold no rule and no evaluation of their own.
"""

from dragonlair.analysis.hints import Analyser, Hint, Option, hint_for
from dragonlair.analysis.review import Analysis, Decision, analyse_record

__all__ = ["Analyser", "Analysis", "Decision", "Hint", "Option", "analyse_record", "hint_for"]
