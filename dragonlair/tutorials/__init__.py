"""Interactive tutorials: a staged game per game id, its chance outcomes and the other seats'
moves scripted as record entries, with steps that tell the learner what to look at and ask
for a move (docs/tutorials.md). UI-free: the terminal (``dragonlair learn``) and, later, the
browser drive the same :class:`~dragonlair.tutorials.runner.TutorialRunner`."""

from dragonlair.tutorials.loader import (
    BROWSER_INTRO,
    LEARNER,
    AskStep,
    DoStep,
    SayStep,
    Step,
    Tutorial,
    TutorialError,
    available,
    browser_code,
    load_tutorial,
    parse_tutorial,
)
from dragonlair.tutorials.runner import TutorialRunner, Verdict, hint_seed

__all__ = ["BROWSER_INTRO", "LEARNER", "AskStep", "DoStep", "SayStep", "Step", "Tutorial",
           "TutorialError", "TutorialRunner", "Verdict", "available", "browser_code",
           "hint_seed", "load_tutorial", "parse_tutorial"]
