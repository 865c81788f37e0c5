"""``dragonlair learn GAME [--lang de]``: a game's tutorial in the terminal
(:mod:`dragonlair.tutorials`, docs/tutorials.md).

The tutorial's staged game is shown on the game's own terminal screens: the game's
:class:`~dragonlair.cli.session.Session` (named by the tutorial file, so nothing here knows a
game) draws the learner's view and reads the move, refusing an illegal one with the engine's
reason; :class:`TutorialScreens` puts the step's text above the prompt and adds the step's
hint to a refusal. The :class:`~dragonlair.tutorials.runner.TutorialRunner` judges the move:
an unexpected legal move is explained and asked again. The step's text names the move in
words (as in the browser); the terminal adds the command to type (``tutorial.ui.type``, from
the step's first expected move). ``hint`` at a question shows what the strongest bot would do
from the learner's view (:func:`dragonlair.analysis.hint_for`, as a hint at a friendly
table), without counting as a move. Registered on the app in :mod:`dragonlair.cli.main`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel

from dragonlair.cli.fit import height
from dragonlair.cli.options import games_help, tutorial_games
from dragonlair.cli.session import (
    HELP_WORDS,
    HUMAN,
    QUIT_WORDS,
    InputProblem,
    QuitGame,
    Session,
    quit_code,
    shown_action,
)
from dragonlair.core.i18n import render
from dragonlair.core.plugin import load_path
from dragonlair.tutorials.loader import LEARNER, AskStep, TutorialError, load_tutorial
from dragonlair.tutorials.runner import TutorialRunner

A = TypeVar("A")

#: what asks for a hint at a question (in every language)
HINT_WORDS = {"hint", "hinweis"}
#: the options a terminal hint lists (the bot's choice first, then by value)
HINT_ROWS = 8


class TutorialScreens(Session[Any, Any]):
    """Mixed in before a game's session class: the step's text above every prompt, and the
    step's hint after the engine's refusal of an illegal move."""

    #: the question's text under the game's screen (markup): unframed, so that with the
    #: word on a wrong move the page still fits the terminal where it can
    step_text: str = ""
    step_hint: str = ""
    #: shows the hint of the current question (``None`` outside questions)
    on_hint: Callable[[], None] | None = None

    def read(self, prompt: str) -> str:
        while True:
            line = super().read(prompt)
            if self.on_hint is None or line.lower() not in HINT_WORDS:
                return line
            self.on_hint()

    #: what was wrong with the learner's last move (markup), shown above the prompt (under
    #: the step's text) until the next move is typed: the screen drawn again, or the help
    #: asked for, does not push it away
    feedback: str = ""

    #: what comes under the game's final screen on the page it ends on (the step's text
    #: that follows it, framed), counted with the rows that screen leaves
    end_below: RenderableType | None = None

    def show_step(self) -> None:
        if self.step_text:
            self.console.print(self.step_text, highlight=False)
        if self.feedback:
            self.say(self.feedback)

    def screen_extra(self) -> None:
        self.show_step()
        if self.end_below is not None:
            self.console.print(self.end_below)

    def read_command(self, prompt: str, parse: Callable[[str], A], *,
                     on_help: Callable[[], None], on_log: Callable[[], None]) -> A:
        self.show_step()
        hint = self.step_hint

        def hinted(text: str) -> A:
            try:
                return parse(text)
            except InputProblem as problem:
                raise InputProblem(f"{problem}\n{hint}" if hint else str(problem)) from None

        def helped() -> None:
            on_help()
            self.show_step()

        return super().read_command(prompt, hinted, on_help=helped, on_log=on_log)


def screens_for(path: str) -> Callable[..., TutorialScreens]:
    """The game's session class (``module:Class``) with :class:`TutorialScreens` mixed in
    (made as the game makes it: ``(game, kinds, bots, seed, lang, console, save)``)."""
    try:
        base = load_path(path)
    except (ImportError, AttributeError, ValueError):
        raise TutorialError("tutorial.file.terminal") from None
    if not (isinstance(base, type) and issubclass(base, Session)):
        raise TutorialError("tutorial.file.terminal")
    made: Callable[..., TutorialScreens] = type(f"Tutorial{base.__name__}",
                                                (TutorialScreens, base), {})
    return made


def show_hint(console: Console, runner: TutorialRunner, lang: str) -> None:
    """The strongest bot's judgement of the learner's options at the current question, from
    their view only (:meth:`TutorialRunner.hint`, the hint a friendly table gives): its
    choice, then the others by value with what each costs."""
    from dragonlair.analysis.hints import NoAnalyser
    from dragonlair.cli.analyse_cmd import UNIT_CODES, _figure

    try:
        hint = runner.hint()
    except NoAnalyser:
        console.print(escape(render("tutorial.ui.hint_none", None, lang)), highlight=False)
        return
    unit = render(UNIT_CODES[hint.unit], None, lang)
    # the engine's action texts as the terminal shows them (seats from 1: steal 2 red)
    lines = [render("tutorial.ui.hint", {"action": shown_action(hint.best.action), "unit": unit},
                    lang)]
    # the options the bot valued (a search leaves some untried), the bot's choice first
    rows = [o for o in hint.options if o.best or o.value is not None][:HINT_ROWS]
    for option in rows:
        value = _figure(option.value, hint.unit, lang)
        if option.best:
            lines.append(render("tutorial.ui.hint_best", {"action": shown_action(option.action),
                                                          "value": value}, lang))
        else:
            lines.append(render("tutorial.ui.hint_row", {
                "action": shown_action(option.action), "value": value,
                "loss": _figure(option.loss, hint.unit, lang)}, lang))
    if len(hint.options) > len(rows):
        lines.append(render("tutorial.ui.hint_more", {"n": len(hint.options) - len(rows)},
                            lang))
    console.print(Panel(escape("\n".join(lines)), border_style="magenta"), highlight=False)


def run_tutorial(source: str | Path, lang: str, console: Console, game: str | None = None) -> int:
    """Walk the tutorial of a game id (or in a file) at the terminal; the exit code (0: done,
    1: the learner quit). A malformed tutorial, or one of another game than ``game`` (when
    given), raises :class:`TutorialError`."""
    tutorial = load_tutorial(source)
    if game is not None and tutorial.game != game:
        raise TutorialError("tutorial.file.other_game", game=tutorial.game, wanted=game)
    runner = TutorialRunner(tutorial)
    kinds = [HUMAN if s == tutorial.seat else name for s, name in enumerate(tutorial.names)]
    session = screens_for(tutorial.terminal)(runner.game, kinds, {}, 0, lang, console, None)
    learner = render(LEARNER, None, lang)  # a name the screens' third-person lines read right with
    session.names[tutorial.seat] = learner
    session.state = runner.state
    state = runner.state
    told = 0
    ended = False

    def text(code: str, **params: Any) -> str:
        return render(code, params, lang)

    def tell() -> None:  # what happened since, as the game's screens tell it
        nonlocal told
        history = state.history
        for seat, action in history[told:]:
            session.after_apply(seat, action)
        told = len(history)

    def said(info: dict[str, Any]) -> Panel:  # a step that only tells, framed
        where = text("tutorial.ui.step", n=info["number"], total=info["count"])
        return Panel(escape(text(info["text"]["code"])), title=escape(where),
                     border_style="cyan")

    #: the word on the move that ended the game, said on the page of the final position
    praise = ""

    def end_page(info: dict[str, Any] | None) -> None:
        """The final position before the last words: at a terminal on a page of its own,
        under the word on the last move and fitted above the step that follows."""
        session.step_text = ""  # the last question is answered
        session.end_below = said(info) if info is not None and info["kind"] == "say" else None
        if console.is_terminal:
            session.clear()
        if praise:
            session.say(praise)
            session.carried_rows += height(console, praise)
        try:
            tell()
            session.show_end()
        finally:
            session.end_below = None

    console.rule(f"[bold]{escape(text(tutorial.title))}[/]")
    session.say(escape(text("tutorial.ui.intro", name=learner)))
    try:
        while True:
            info = runner.current()
            if state.is_terminal() and not ended:
                end_page(info)
                ended = True
            tell()
            if info is None:
                break
            where = text("tutorial.ui.step", n=info["number"], total=info["count"])
            if info["kind"] == "say":
                if session.feedback:  # not asked again: told here
                    session.say(session.feedback)
                    session.feedback = ""
                console.print(said(info), highlight=False)
                while True:
                    word = session.read(text("tutorial.ui.go_on") + " ").lower()
                    if word in QUIT_WORDS:
                        raise QuitGame
                    if word not in HELP_WORDS:
                        break
                    session.say(escape(text("tutorial.ui.help")))
                runner.acknowledge()
                continue
            step = runner.step
            assert isinstance(step, AskStep)
            typed = text("tutorial.ui.type", move=shown_action(step.expect[0]))
            session.step_text = (f"[bold cyan]{escape(where)}:[/] {escape(text(step.text))}\n"
                                 f"[cyan]{escape(typed)}[/]")
            session.step_hint = text(step.hint)
            session.on_hint = partial(show_hint, console, runner, lang)
            try:
                action = session.ask_human(tutorial.seat)
            finally:
                session.on_hint = None
            session.feedback = ""  # read: a move was made
            verdict = runner.accept(action)
            if verdict.kind == "ok":
                praise = f"[bold green]{escape(text('tutorial.ui.right'))}[/]"
                if not state.is_terminal():  # else said on the final position's page
                    session.say(praise)
                    praise = ""
            else:  # shown under the step when it is asked again, right above the prompt
                session.feedback = (f"[bold yellow]{escape(text('tutorial.ui.not_quite'))}[/] "
                                    + escape(text(verdict.code or step.why, **verdict.params)))
            if not state.is_terminal():  # else told on the final position's page
                tell()
    except (EOFError, KeyboardInterrupt, QuitGame) as exc:
        console.print()
        session.say(f"[bold red]{escape(text('tutorial.ui.quit'))}[/]")
        return quit_code(exc)
    if state.is_terminal() and not ended:
        session.show_end()
    session.say(f"[bold green]{escape(text('tutorial.ui.done'))}[/]")
    return 0


def learn(
    game: Annotated[str, typer.Argument(help=games_help("cmdhelp_learn__game",
                                                         tutorial_games))],
    lang: Annotated[str, typer.Option()] = "en",
    file: Annotated[Path | None, typer.Option()] = None,
) -> None:
    """Learn a game: a staged game that walks you through its rules, asking for your moves
    (about five minutes)."""
    from dragonlair.cli.main import check_lang, console, fail_with
    from dragonlair.tutorials.loader import available

    check_lang(lang)
    if file is None and game not in available():
        fail_with("tutorial.ui.no_tutorial", lang, game=game, known=available())
    try:
        code = run_tutorial(file if file is not None else game, lang, console, game)
    except TutorialError as exc:
        fail_with("tutorial.ui.bad_file", lang, why=exc.message(lang))
        return
    raise typer.Exit(code)
