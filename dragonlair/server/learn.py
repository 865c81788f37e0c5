"""The tutorials over the server (issue 16; dragonlair/tutorials, docs/tutorials.md).

``POST /api/tutorials/{game}`` is stateless: the client sends its ``progress`` so far (for
each step it has passed: ``null`` for a text it read, the move that was accepted for a
question) and optionally a ``move`` to try now; the server replays the staged game through
the same :class:`~dragonlair.tutorials.TutorialRunner` the terminal uses and answers with the
verdict on the move (``ok``, ``wrong`` with its explanation, ``illegal`` with the engine's
refusal and the step's hint) and the step to show next. Nothing is stored; a progress that
does not fit the tutorial is refused with a code.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals

router = APIRouter(prefix="/api", tags=["tutorials"])

JSON = dict[str, Any]


class TutorialIn(BaseModel):
    #: the steps passed so far: ``None`` for a text read, the accepted move for a question
    progress: list[str | None] = Field(default_factory=list, max_length=500)
    #: a move to try at the current question, or ``None`` to read the current text on
    move: str | None = Field(default=None, max_length=200)
    #: ``True``: the current text has been read (go on to the next step)
    read: bool = False


@cache
def _tutorial(game: str) -> Any:
    from dragonlair.tutorials import load_tutorial

    return load_tutorial(game)


@router.get("/tutorials")
def tutorials() -> list[dict[str, Any]]:
    """The games with a tutorial: id, title code, questions asked."""
    from dragonlair.tutorials import available

    return [{"game": g, "title": _tutorial(g).title, "asks": _tutorial(g).asks}
            for g in available()]


@router.post("/tutorials/{game}", responses=refusals(404, 422))
def step(game: Annotated[str, Path(max_length=64)], body: TutorialIn) -> JSON:
    """Replay ``progress``, judge ``move`` (or take ``read``), answer the step to show."""
    from dragonlair.tutorials import TutorialRunner, available

    if game not in available():
        raise ServerError("server.tutorial.none", 404, game=game[:64])
    runner = TutorialRunner(_tutorial(game))
    runner.play_scripted()
    for i, passed in enumerate(body.progress):
        if runner.finished:
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
        shown = runner.current()
        if shown is None or shown["kind"] != ("say" if passed is None else "ask"):
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
        if passed is None:
            runner.acknowledge()
        elif runner.accept(passed).kind != "ok":
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
    progress: list[str | None] = list(body.progress)
    verdict: JSON | None = None
    current = runner.current()
    if body.read and current is not None and current["kind"] == "say":
        runner.acknowledge()
        progress.append(None)
    elif body.move is not None and current is not None and current["kind"] == "ask":
        judged = runner.accept(body.move)
        verdict = {"kind": judged.kind, "code": judged.code, "params": judged.params,
                   "error": judged.error}
        if judged.kind == "ok":
            progress.append(str(runner.game.parse_action(body.move)))
    current = runner.current()
    return {"game": game, "title": runner.tutorial.title, "seat": runner.seat,
            "names": list(runner.tutorial.names), "progress": progress,
            "verdict": verdict, "step": current, "done": current is None}
