"""Walking a tutorial: the staged game, the current step, and the learner's moves judged.

The runner holds the game state; scripted entries (``do`` steps) are applied as a record's
are, so the game goes the same way every time. :meth:`TutorialRunner.accept` judges a move:
``ok`` (one of the step's expected moves: it is applied and the tutorial goes on),
``wrong`` (legal, but not what the step teaches: nothing changes, and the explanation says
why the expected move is right) or ``illegal`` (the engine's own refusal, plus the step's
hint). No interface holds a rule: the engine says what is legal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from dragonlair.core.errors import DragonlairError
from dragonlair.core.game import JSON, Action, Game, State
from dragonlair.core.plugin import make_game
from dragonlair.core.records import parse_entry
from dragonlair.tutorials.loader import AskStep, DoStep, SayStep, Step, Tutorial, TutorialError

if TYPE_CHECKING:
    from dragonlair.analysis.hints import Hint


def hint_seed(game: str, step: int) -> str:
    """The seed of the hint at the question at ``step`` (its index in the file): the same
    question, the same hint, at the terminal and in the browser."""
    return f"tutorial:{game}:{step}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What became of a move: ``kind`` ``ok``, ``wrong`` or ``illegal``; ``code`` (with
    ``params``) the explanation to show (``None`` for ``ok``); ``error`` the engine's refusal
    as JSON (``{"code", "params", "rule"}``) for an illegal move."""

    kind: str
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    error: JSON | None = None


class TutorialRunner:
    """One learner going through one tutorial."""

    def __init__(self, tutorial: Tutorial) -> None:
        self.tutorial = tutorial
        try:
            self.game: Game = make_game(tutorial.game, tutorial.options)
        except DragonlairError as exc:
            raise TutorialError("tutorial.file.options", cause=exc.to_json()) from None
        if len(tutorial.names) != self.game.num_players:
            raise TutorialError("tutorial.file.seats")
        self.state: State = self.game.new_initial_state()
        self.seat = tutorial.seat
        self.index = 0  # the step to do next
        self.scripted: list[tuple[int, Action]] = []  # applied by the script, in order

    # ---------------------------------------------------------------- where we are
    @property
    def step(self) -> Step | None:
        steps = self.tutorial.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.tutorial.steps)

    def play_scripted(self) -> list[tuple[int, Action]]:
        """Apply the ``do`` steps from here up to the next text or question; the
        ``(seat, action)`` pairs applied. A bad entry is a :class:`TutorialError` naming
        the step (the file does not fit the engine)."""
        applied: list[tuple[int, Action]] = []
        while isinstance(self.step, DoStep):
            for entry in self.step.entries:
                try:
                    seat, text = parse_entry(entry, self.game.num_players)
                    action = self.game.parse_action(text)
                    self.state.apply(seat, action)
                except DragonlairError as exc:
                    raise TutorialError("tutorial.file.bad_entry", step=self.index,
                                        entry=entry, cause=exc.to_json()) from None
                applied.append((seat, action))
            self.index += 1
        self.scripted += applied
        return applied

    def current(self) -> JSON | None:
        """The step to show (after :meth:`play_scripted`): ``kind`` (``say``/``ask``),
        ``text`` (``{"code", "params"}``), ``step`` (its index in the file), ``number`` of
        ``count`` (where among the steps a learner sees: texts and questions), and
        for a question the learner's ``view``, its ``legal`` moves and what is ``expected``.
        ``None`` once the tutorial is over."""
        self.play_scripted()
        step = self.step
        if step is None:
            return None
        shown = [i for i, s in enumerate(self.tutorial.steps) if not isinstance(s, DoStep)]
        out: JSON = {"step": self.index, "number": shown.index(self.index) + 1,
                     "count": len(shown)}
        if isinstance(step, SayStep):
            out.update(kind="say", text={"code": step.text, "params": {}})
            return out
        assert isinstance(step, AskStep)
        out.update(kind="ask", text={"code": step.text, "params": {}},
                   view=self.state.view(self.seat),
                   legal=[str(a) for a in self.state.legal_actions(self.seat)],
                   expected=list(step.expect))
        return out

    def real(self) -> tuple[Game, State]:
        """The real game the lesson stands for (``real_options`` over the options) and the
        position in it: the staged game's record replayed there. Without ``real_options``
        the staged game itself."""
        extra = self.tutorial.real_options
        if not extra:
            return self.game, self.state
        try:
            game = make_game(self.tutorial.game, {**self.tutorial.options, **extra})
            state = game.new_initial_state()
            for seat, action in self.state.history:
                state.apply(seat, game.parse_action(str(action)))
        except DragonlairError as exc:
            raise TutorialError("tutorial.file.options", cause=exc.to_json()) from None
        return game, state

    def hint(self, effort: float = 1.0) -> Hint:
        """The hint at the current question: the strongest bot's judgement of the learner's
        options from their view alone (:func:`dragonlair.analysis.hint_for`, the hint a
        friendly table gives), in the real game (:meth:`real`), seeded by the step
        (:func:`hint_seed`). :class:`~dragonlair.analysis.hints.NoAnalyser` where the game
        has no analyser."""
        from dragonlair.analysis import hint_for

        if not isinstance(self.step, AskStep):
            raise TutorialError("tutorial.file.no_question", step=self.index)
        game, state = self.real()
        return hint_for(game, state.view(self.seat), list(state.legal_actions(self.seat)),
                        seed=hint_seed(self.tutorial.game, self.index), effort=effort)

    # ---------------------------------------------------------------- the learner
    def acknowledge(self) -> None:
        """The learner has read a ``say`` step: go on."""
        if isinstance(self.step, SayStep):
            self.index += 1
        self.play_scripted()

    def judge(self, move: str | Action) -> tuple[Verdict, Action | None]:
        """What ``move`` (text or an action) would be at the current question, and the
        action it parses to; nothing changes."""
        step = self.step
        if not isinstance(step, AskStep):
            raise TutorialError("tutorial.file.no_question", step=self.index)
        try:
            action = self.game.parse_action(move) if isinstance(move, str) else move
            trial = self.state.clone()
            trial.apply(self.seat, action)
        except DragonlairError as exc:
            return Verdict("illegal", step.hint, error=exc.to_json()), None
        if str(action) in step.expect:
            return Verdict("ok"), action
        code = step.wrong.get(str(action), step.why)
        return Verdict("wrong", code, {"move": str(action)}), action

    def accept(self, move: str | Action) -> Verdict:
        """Judge ``move``; an expected one is applied and the tutorial goes on."""
        verdict, action = self.judge(move)
        if verdict.kind == "ok" and action is not None:
            self.state.apply(self.seat, action)
            self.index += 1
            self.play_scripted()
        return verdict


    def questions(self, choices: Sequence[int] = ()) -> Iterator[AskStep]:
        """Walk the rest of the tutorial as a learner who reads every text: yield each
        question while the runner stands at it (to hint, judge, or stop there), then answer
        it with its expected move ``choices[k]`` at the k-th question (the first expected
        move where ``choices`` says nothing). A move the tutorial does not accept is a
        :class:`TutorialError` naming the step."""
        self.play_scripted()
        asked = 0
        while not self.finished:
            step = self.step
            if isinstance(step, SayStep):
                self.acknowledge()
                continue
            assert isinstance(step, AskStep)
            yield step
            move = step.expect[choices[asked] if asked < len(choices) else 0]
            asked += 1
            if self.accept(move).kind != "ok":
                raise TutorialError("tutorial.file.not_canonical", step=self.index, move=move)


def _walk(tutorial: Tutorial, choices: Sequence[int]) -> State:
    """Play ``tutorial`` taking expected move ``choices[k]`` at its k-th question, checking
    each question's moves on the way; the final state."""
    runner = TutorialRunner(tutorial)
    for step in runner.questions(choices):
        if runner.seat not in runner.state.current_seats():
            raise TutorialError("tutorial.file.not_learners_turn", step=runner.index)
        for move in (*step.expect, *step.wrong):
            verdict, _ = runner.judge(move)
            if verdict.kind == "illegal":
                raise TutorialError("tutorial.file.bad_expect", step=runner.index, move=move,
                                    cause=verdict.error)
            if (verdict.kind == "ok") != (move in step.expect):
                raise TutorialError("tutorial.file.not_canonical", step=runner.index,
                                    move=move)
    if not runner.state.is_terminal():
        raise TutorialError("tutorial.file.unfinished")
    return runner.state


def check_path(tutorial: Tutorial) -> State:
    """Play ``tutorial`` through the engine along every path it accepts (each combination
    of its questions' expected moves), checking on the way that every expected and every
    explained ``wrong`` move is legal and that each path ends the game. The final state of
    the tutorial's own path (the first expected move everywhere); a :class:`TutorialError`
    says where the file and the engine disagree."""
    counts = [range(len(s.expect)) for s in tutorial.steps if isinstance(s, AskStep)]
    first = _walk(tutorial, [0] * len(counts))
    for choices in product(*counts):
        if any(choices):
            _walk(tutorial, choices)
    return first
