"""The tutorials over the server (issue 16; dragonlair/tutorials, docs/tutorials.md).

``POST /api/tutorials/{game}`` is stateless: the client sends its ``progress`` so far (for
each step it has passed: ``null`` for a text it read, the move that was accepted for a
question) and optionally a ``move`` to try now; the server replays the staged game through
the same :class:`~dragonlair.tutorials.TutorialRunner` the terminal uses and answers with the
verdict on the move (``ok``, ``wrong`` with its explanation, ``illegal`` with the engine's
refusal and the step's hint) and the step to show next. Nothing is stored; a progress that
does not fit the tutorial is refused with a code.

``POST /api/tutorials/{game}/hint`` (same ``progress``) answers at a question what a hint at
a friendly table answers (dragonlair/server/coach.py): the strongest bot's judgement of each
option from the learner's **view** alone, in the same shape and with the same bounds (the
bot's own budget, and the table hints' per-process limit: ``429 server.hint.busy``).

Texts: the server speaks to the browser, so it sends each text's browser wording where the
catalogue has one (``<code>.browser``: no "type ..."; the browser has buttons), see
:func:`dragonlair.tutorials.browser_code`.
"""

from __future__ import annotations

import asyncio
import itertools
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from dragonlair.server.errors import ServerError
from dragonlair.server.invites import refusals
from dragonlair.server.responses import TutorialHintOut, TutorialOut, TutorialStepOut

if TYPE_CHECKING:
    from dragonlair.tutorials import TutorialRunner

router = APIRouter(prefix="/api", tags=["tutorials"])

JSON = dict[str, Any]


#: one passed step: ``None`` for a text read, the accepted move for a question
Passed = Annotated[str, Field(max_length=200)] | None


class TutorialIn(BaseModel):
    #: the steps passed so far: ``None`` for a text read, the accepted move for a question
    progress: list[Passed] = Field(default_factory=list, max_length=500)
    #: a move to try at the current question, or ``None`` to read the current text on
    move: str | None = Field(default=None, max_length=200)
    #: ``True``: the current text has been read (go on to the next step)
    read: bool = False


class TutorialHintIn(BaseModel):
    #: the steps passed so far, as for a step: the hint is for the question they lead to
    progress: list[Passed] = Field(default_factory=list, max_length=500)


@cache
def _tutorial(game: str) -> Any:
    from dragonlair.tutorials import load_tutorial

    return load_tutorial(game)


@router.get("/tutorials", response_model=list[TutorialOut])
def tutorials() -> list[dict[str, Any]]:
    """The games with a tutorial: id, title code, questions asked."""
    from dragonlair.tutorials import available

    return [{"game": g, "title": _tutorial(g).title, "asks": _tutorial(g).asks}
            for g in available()]


def _replayed(game: str, passed: list[str | None]) -> TutorialRunner:
    """A runner of ``game``'s tutorial with ``passed`` replayed (refused with a code where
    the tutorial does not exist or the progress does not fit it)."""
    from dragonlair.tutorials import TutorialRunner, available

    if game not in available():
        raise ServerError("server.tutorial.none", 404, game=game[:64])
    runner = TutorialRunner(_tutorial(game))
    runner.play_scripted()
    for i, step in enumerate(passed):
        if runner.finished:
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
        shown = runner.current()
        if shown is None or shown["kind"] != ("say" if step is None else "ask"):
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
        if step is None:
            runner.acknowledge()
        elif runner.accept(step).kind != "ok":
            raise ServerError("server.tutorial.bad_progress", 422, at=i)
    return runner


def _for_browser(current: JSON | None) -> JSON | None:
    from dragonlair.tutorials import browser_code

    if current is not None:
        current["text"] = {**current["text"], "code": browser_code(current["text"]["code"])}
    return current


@router.post("/tutorials/{game}", responses=refusals(404, 422), response_model=TutorialStepOut,
             response_model_exclude_unset=True)
def step(game: Annotated[str, Path(max_length=64)], body: TutorialIn) -> JSON:
    """Replay ``progress``, judge ``move`` (or take ``read``), answer the step to show."""
    from dragonlair.tutorials import BROWSER_INTRO, browser_code

    runner = _replayed(game, body.progress)
    progress: list[str | None] = list(body.progress)
    verdict: JSON | None = None
    current = runner.current()
    if body.read and current is not None and current["kind"] == "say":
        runner.acknowledge()
        progress.append(None)
    elif body.move is not None and current is not None and current["kind"] == "ask":
        judged = runner.accept(body.move)
        verdict = {"kind": judged.kind,
                   "code": None if judged.code is None else browser_code(judged.code),
                   "params": judged.params, "error": judged.error}
        if judged.kind == "ok":
            progress.append(str(runner.game.parse_action(body.move)))
    current = _for_browser(runner.current())
    return {"game": game, "title": runner.tutorial.title, "seat": runner.seat,
            "names": list(runner.tutorial.names), "intro": {"code": BROWSER_INTRO, "params": {}},
            "progress": progress, "verdict": verdict, "step": current, "done": current is None}


#: keys of tutorial hints in the table hints' limiter (coach._busy holds user ids, which are
#: positive; a tutorial's asker is anonymous)
_askers = itertools.count(-1, -1)


@router.post("/tutorials/{game}/hint", responses=refusals(404, 409, 422, 429),
             response_model=TutorialHintOut, response_model_exclude_unset=True)
async def hint(game: Annotated[str, Path(max_length=64)], body: TutorialHintIn,
               request: Request) -> JSON:
    """At the question ``progress`` leads to: what the strongest bot would do from the
    learner's view, and how much each option matters (the shape of a table's hint)."""
    from dragonlair.analysis.hints import NoAnalyser
    from dragonlair.server import coach

    runner = _replayed(game, body.progress)
    current = runner.current()
    if current is None or current["kind"] != "ask":
        raise ServerError("server.tutorial.no_question", 409, at=len(body.progress))
    seq = len(body.progress)
    hub = getattr(request.app.state, "hub", None)
    workers = hub.settings.bot_workers if hub is not None else 1
    # the table hints' bound: no more hints at once than there are bot threads
    if len(coach._busy) >= max(1, workers):
        raise ServerError("server.hint.busy", 429)
    key = next(_askers)
    coach._busy.add(key)  # before the first await
    try:
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(
            None if hub is None else hub.executor,
            runner.hint)  # the learner's view, the real game, seeded by the step
    except NoAnalyser:
        raise ServerError("server.hint.none", 404, game=game) from None
    finally:
        coach._busy.discard(key)
    return {"game": game, "seat": runner.seat, "seq": seq, "step": current["step"],
            "hint": result.to_json()}
