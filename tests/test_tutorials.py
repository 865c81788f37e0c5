"""The tutorials (issue 16, docs/tutorials.md): staged games that walk a learner through each
game, as data, a UI-free runner, and ``dragonlair learn GAME`` at the terminal.

Each tutorial is played through the engine along every path it accepts and ends the game;
the runner explains a wrong move and passes on the engine's refusal of an illegal one (with
the step's hint), changing nothing; every tutorial completes at the terminal with scripted
input in English and in German (no English in the German run, as tests/test_lang_de.py
scans); a malformed tutorial file is refused with a clear message; every text the tutorials
show is in every catalogue language."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from typer.testing import CliRunner

import dragonlair.cli.learn_cmd as learn_cmd
from dragonlair.cli.analyse_cmd import UNIT_CODES
from dragonlair.cli.main import app
from dragonlair.cli.session import shown_action
from dragonlair.core.i18n import catalogue, has_message, languages, render
from dragonlair.tutorials import (
    BROWSER_INTRO,
    LEARNER,
    AskStep,
    SayStep,
    TutorialError,
    TutorialRunner,
    available,
    browser_code,
    load_tutorial,
    parse_tutorial,
)
from dragonlair.tutorials.runner import check_path
from tests import sources
from tests.sizes import quick_first
from tests.test_lang_de import english_in, flat

cli = CliRunner()
GAMES = ("fist", "master", "farkle")

#: per game: (the question where a wrong and an illegal move are typed, the wrong move, the
#: illegal one, the engine's refusal code for it)
MISTAKES = {
    "fist": ("tutorial.fist.witch", "bid f2 c0", "bid f9 c0", "fist.bid.exceeds_unspent"),
    "master": ("tutorial.master.origin", "place ruby d4", "place ruby a1", None),
    "farkle": ("tutorial.farkle.straight", "keep 1", "keep 2", None),
}


def raw(game: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parents[1] / "dragonlair" / "games" / game / "tutorial.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


# ---------------------------------------------------------------- the data and the engine
def test_there_is_a_tutorial_for_every_game() -> None:
    assert available() == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_path_of_the_tutorial_plays_through_the_engine_to_the_end(game: str) -> None:
    """Every question's moves are legal where asked, every combination of accepted moves
    plays on to the end of the game, and the learner (seat 0) wins the staged game."""
    tutorial = load_tutorial(game)
    state = check_path(tutorial)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (tutorial.seat,)
    assert tutorial.asks >= 8  # the learner makes the moves


def test_what_each_tutorial_covers() -> None:
    """The rules the issue lists are each the subject of a step (by their codes), and each
    tutorial ends with a strategy tip."""
    covers = {
        "fist": ["witch", "empty", "curse", "tie", "silver", "thief", "pay", "end", "tip"],
        "master": ["origin", "touch", "box", "pair", "three", "compare", "tip"],
        "farkle": ["straight", "hot", "double", "bank", "skirmish", "tooth", "battle", "end",
                   "tip"],
    }
    for game, keys in covers.items():
        codes = set(load_tutorial(game).codes())
        assert {f"tutorial.{game}.{k}" for k in keys} <= codes
        last = load_tutorial(game).steps[-1]
        assert isinstance(last, SayStep) and last.text == f"tutorial.{game}.tip"


def test_fist_stages_the_rules_it_teaches() -> None:
    """The staged Fist game really has them: a Black coin curse (F5.4, Ember's), a Silver
    tie-break (F5.7), the Thief's steal and the Wizard's point (F6), one turn (F4.4, F5.10)."""
    runner = TutorialRunner(load_tutorial("fist"))
    assert len(list(runner.questions())) >= 4
    state = runner.state
    assert runner.finished and state.is_terminal()
    history = [str(a) for _, a in state.history]
    assert "bid f0 c0 black" in history and "silver 5" in history
    assert any(a.startswith("steal p1") for a in history) and "pay rby" in history
    assert state.full_state()["players_full"][0]["score"] == 1


# ---------------------------------------------------------------- the lessons and the bot
#: how far a lesson's move may fall short of the hint's best, per unit (docs/tutorials.md):
#: 3 points of win chance (Master, Fist, Farkle's turn choice), 50 expected soldiers (Farkle's
#: dice: half a single 1, the smallest score there is)
TOLERANCE = {"win_chance": 0.03, "soldiers": 50.0}


def lesson_hints(game: str) -> list[tuple[int, AskStep, Any]]:
    """Every question of ``game``'s tutorial along its own path, with the hint the learner
    gets there (:meth:`TutorialRunner.hint`, what the terminal and the server show)."""
    runner = TutorialRunner(load_tutorial(game))
    return [(runner.index, step, runner.hint()) for step in runner.questions()]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_no_lesson_teaches_a_move_the_strongest_bot_calls_a_mistake(game: str) -> None:
    """Issue 16: at every question the move the lesson teaches (its first expected move) is
    the hint's best, or valued within TOLERANCE of it, from the learner's view in the real
    game (F8: the ISMCTS estimates, the Fist lesson's turn limit lifted; M6: the expert's
    sampled and exact values; D9: the optimal policy's values): the hint agrees with the
    lesson. A move the bot does not value at all (a search left it untried) fails."""
    bad = []
    for index, step, hint in lesson_hints(game):
        move = step.expect[0]
        option = hint.option(move)
        if hint.best.action == move:
            continue
        if option is None or option.loss is None or option.loss > TOLERANCE[hint.unit]:
            bad.append(f"step {index} ({step.text}): teaches {move} "
                       f"(value {None if option is None else option.value}), "
                       f"the bot plays {hint.best.action} ({hint.best.value})")
    assert not bad, "\n".join(bad)


def test_a_lesson_hint_is_the_same_every_time_and_values_the_real_game() -> None:
    """The hint is seeded by the step (the same at the terminal and in the browser), and
    the Fist lesson's hint looks past the lesson's one-turn limit (F5.10): the real game's
    view has no turn limit, the staged one has."""
    runner = TutorialRunner(load_tutorial("fist"))
    to_question(runner, "tutorial.fist.empty")
    first, again = runner.hint(), runner.hint()
    assert first == again
    _, real_state = runner.real()
    assert real_state.view(0)["public"]["options"]["max_turns"] is None
    assert runner.state.view(0)["public"]["options"]["max_turns"] == 1
    assert [str(a) for a in real_state.legal_actions(0)] == \
        [str(a) for a in runner.state.legal_actions(0)]
    with pytest.raises(TutorialError):
        TutorialRunner(load_tutorial("fist")).hint()  # at a text: no question to hint at


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_learner_has_a_name_the_screens_read_right_with(lang: str) -> None:
    """The game's screens name seats in the third person ("{name} holds 8 cards", "{name}'s
    columns"), so the learner's seat is named (LEARNER), not "You": the terminal's screens use
    the name and the introduction says it, in every language."""
    name = render(LEARNER, None, lang)
    assert name and name.lower() not in {"you", "du", "sie", "ich"}
    code, out = learn("master", lang, script("master", mistakes=False))
    text = flat(out)
    assert code == 0 and flat(render("cli.m_hand_title", {"name": name}, lang)) in text
    assert not re.search(r"\bp\d\b", text)  # the seats by name, never the engine's p0
    assert flat(render("tutorial.ui.intro", {"name": name}, lang)) in text
    assert name in render(BROWSER_INTRO, {"name": name}, lang)
    assert not re.search(r"\bYou's\b|\bYou holds\b|\bDu hält\b|\bvon Du\b", text)


# ---------------------------------------------------------------- the runner
def to_question(runner: TutorialRunner, code: str) -> None:
    """Answer every question as taught up to the one asking ``code``; stop there."""
    for step in runner.questions():
        if step.text == code:
            return
    raise AssertionError(f"{code} never asked")


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_move_is_explained_and_an_illegal_one_refused_by_the_engine(game: str) -> None:
    code, wrong, illegal, refusal = MISTAKES[game]
    runner = TutorialRunner(load_tutorial(game))
    to_question(runner, code)
    info = runner.current()
    assert info is not None and info["kind"] == "ask" and info["text"]["code"] == code
    assert wrong in info["legal"] and set(info["expected"]) <= set(info["legal"])
    assert info["view"] == runner.state.view(runner.seat)  # the learner's own view only
    before = runner.state.view(runner.seat)
    step = runner.step
    assert isinstance(step, AskStep)

    verdict = runner.accept(wrong)
    assert verdict.kind == "wrong" and verdict.code == step.wrong.get(wrong, step.why)
    assert verdict.code in (step.why, *step.wrong.values())
    verdict = runner.accept(illegal)
    assert verdict.kind == "illegal" and verdict.code == step.hint
    assert verdict.error is not None and verdict.error["code"].startswith(f"{game}.")
    if refusal:
        assert verdict.error["code"] == refusal
    assert runner.accept("no such move at all").kind == "illegal"
    assert runner.state.view(runner.seat) == before and runner.step is step  # nothing changed

    assert runner.accept(step.expect[0]).kind == "ok"
    assert runner.step is not step


def test_the_steps_a_learner_sees_are_numbered_without_the_scripted_ones() -> None:
    runner = TutorialRunner(load_tutorial("fist"))
    info = runner.current()
    assert info is not None and info["number"] == 1 and info["kind"] == "say"
    shown = sum("do" not in s for s in raw("fist")["steps"])
    assert info["count"] == shown


# ---------------------------------------------------------------- the terminal
def script(game: str, *, mistakes: bool = True) -> list[str]:
    """The lines a learner types: Enter at each text (help once), the expected move at each
    question as the terminal says to type it (a seat from 1: ``steal 2 yellow`` for the
    engine's ``steal p1 yellow``), and at one question first a wrong and an illegal move."""
    lines: list[str] = []
    helped = False
    for step in load_tutorial(game).steps:
        if isinstance(step, SayStep):
            if not helped:
                lines.append("help")
                helped = True
            lines.append("")
        elif isinstance(step, AskStep):
            if mistakes and step.text == MISTAKES[game][0]:
                lines += [MISTAKES[game][1], MISTAKES[game][2]]
            lines.append(shown_action(step.expect[0]))
    return lines + [""] * 3


def learn(game: str, lang: str, lines: list[str]) -> tuple[int, str]:
    result = cli.invoke(app, ["learn", game, "--lang", lang], input="\n".join(lines) + "\n")
    return result.exit_code, result.output


@pytest.mark.parametrize("lang", quick_first(1, ["en", "de"]))  # CI: German too
@pytest.mark.parametrize("game", GAMES)
def test_each_tutorial_completes_at_the_terminal(game: str, lang: str) -> None:
    code, out = learn(game, lang, script(game))
    text = flat(out)
    assert code == 0, out[-3000:]
    tutorial = load_tutorial(game)
    assert flat(render("tutorial.ui.done", None, lang)) in text
    assert flat(render(tutorial.title, None, lang)) in text
    # every text and question was shown, the explanation of the wrong move, and the
    # illegal move's hint after the engine's refusal
    for code_ in (s.text for s in tutorial.steps if isinstance(s, SayStep | AskStep)):
        assert flat(render(code_, None, lang)) in text, code_
    step = next(s for s in tutorial.steps
                if isinstance(s, AskStep) and s.text == MISTAKES[game][0])
    explained = step.wrong.get(MISTAKES[game][1], step.why)
    assert flat(render(explained, None, lang)) in text
    assert flat(render(step.hint, None, lang)) in text
    assert text.count(flat(render("tutorial.ui.not_quite", None, lang))) == 1
    assert flat(render("tutorial.ui.help", None, lang)) in text
    if lang == "de":
        leaks = english_in(out)
        assert not leaks, "English in the German tutorial:\n" + "\n".join(leaks)


def test_the_fist_refusal_at_the_terminal_is_the_engines() -> None:
    _, out = learn("fist", "en", script("fist"))
    tutorial = load_tutorial("fist")
    names = [render(LEARNER, None, "en") if s == tutorial.seat else name
             for s, name in enumerate(tutorial.names)]
    refusal = render("fist.bid.exceeds_unspent",
                     {"seat": tutorial.seat, "coin": "fairy", "bid": 9, "have": 8}, "en", names)
    assert flat(refusal.split(":")[0]) in flat(out)  # the learner by their name


def test_quit_leaves_the_tutorial() -> None:
    code, out = learn("master", "de", ["", "beenden"])
    assert code == 0 and flat(render("tutorial.ui.quit", None, "de")) in flat(out)
    code, out = learn("farkle", "en", ["", "quit"])
    assert code == 0 and flat(render("tutorial.ui.quit", None, "en")) in flat(out)
    code, out = learn("farkle", "en", [""])  # the input ends: a failure
    assert code == 1 and flat(render("tutorial.ui.quit", None, "en")) in flat(out)


# ---------------------------------------------------------------- malformed files
def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, "utf-8")
    return path


@pytest.mark.parametrize(("change", "code"), [
    ({"format": "dragonlair-record"}, "tutorial.file.not_a_tutorial"),
    ({"format_version": 7}, "tutorial.file.version"),
    ({"game": 3}, "tutorial.file.game"),
    ({"seat": 5}, "tutorial.file.seats"),
    ({"terminal": "nothing"}, "tutorial.file.terminal"),
    ({"steps": []}, "tutorial.file.steps"),
    ({"steps": [{"dance": 1}]}, "tutorial.file.step"),
    ({"steps": [{"do": "chance: stone red"}]}, "tutorial.file.entries"),
    ({"steps": [{"say": "Hello!"}]}, "tutorial.file.text"),
    ({"steps": [{"ask": "tutorial.fist.witch", "expect": [],
                 "why": "tutorial.fist.witch.why", "hint": "tutorial.fist.bid_hint"}]},
     "tutorial.file.expect"),
])
def test_a_malformed_tutorial_is_refused_with_its_reason(change: dict[str, Any],
                                                         code: str) -> None:
    with pytest.raises(TutorialError) as exc:
        parse_tutorial({**raw("fist"), **change})
    assert exc.value.code == code
    for lang in languages():
        assert has_message(code, lang)


def test_a_tutorial_that_does_not_fit_the_engine_is_refused() -> None:
    data = raw("fist")
    bad_entry = json.loads(json.dumps(data))
    bad_entry["steps"][0]["do"][0] = "chance: stone purple"
    with pytest.raises(TutorialError) as exc:
        check_path(parse_tutorial(bad_entry))
    assert exc.value.code == "tutorial.file.bad_entry"
    bad_move = json.loads(json.dumps(data))
    first_ask = next(s for s in bad_move["steps"] if "ask" in s)
    first_ask["expect"] = ["bid f12 c0"]
    with pytest.raises(TutorialError) as exc:
        check_path(parse_tutorial(bad_move))
    assert exc.value.code == "tutorial.file.bad_expect"
    assert "F5.1" in exc.value.message("en")
    short = json.loads(json.dumps(data))
    short["steps"] = short["steps"][:6]
    with pytest.raises(TutorialError) as exc:
        check_path(parse_tutorial(short))
    assert exc.value.code == "tutorial.file.unfinished"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_learn_refuses_a_malformed_file_in_one_line(tmp_path: Path, lang: str) -> None:
    for content, code in (("{not json", "tutorial.file.not_json"),
                          ({"format": "x"}, "tutorial.file.not_a_tutorial")):
        path = write(tmp_path, content)
        result = cli.invoke(app, ["learn", "fist", "--file", str(path), "--lang", lang])
        out = flat(result.output)
        assert result.exit_code == 2 and "Traceback" not in result.output
        head = render("tutorial.ui.bad_file", {"why": ""}, lang)
        assert flat(head) in out
        assert flat(render(code, {"path": str(path), "why": "", "line": 1, "column": 2,
                                  "format": "dragonlair-tutorial"}, lang).split(":")[0]) in out
    path = write(tmp_path, raw("master"))
    result = cli.invoke(app, ["learn", "fist", "--file", str(path), "--lang", lang])
    assert result.exit_code == 2
    assert flat(render("tutorial.file.other_game", {"game": "master", "wanted": "fist"},
                       lang)) in flat(result.output)
    for change in ({"terminal": "dragonlair.nothing_here:Session"},
                   {"terminal": "dragonlair.tutorials:TutorialRunner"}, {"names": ["", "Ember"]},
                   {"game": "chess"}):
        path = write(tmp_path, {**raw("fist"), **change})
        result = cli.invoke(app, ["learn", "fist", "--file", str(path), "--lang", lang])
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert flat(head) in flat(result.output)
    result = cli.invoke(app, ["learn", "chess", "--lang", lang])
    assert result.exit_code == 2
    assert flat(render("tutorial.ui.no_tutorial", {"game": "chess", "known": sorted(GAMES)},
                       lang)) in flat(result.output)


# ---------------------------------------------------------------- the catalogues
def source_codes() -> set[str]:
    """The ``tutorial.*`` literals of the tutorial code and the terminal command."""
    files = [*Path(learn_cmd.__file__).parent.parent.joinpath("tutorials").glob("*.py"),
             Path(learn_cmd.__file__)]
    found = set()
    for path in files:
        for node in ast.walk(sources.tree(path)):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("tutorial.") and " " not in node.value
                    and not node.value.endswith(".")):
                found.add(node.value)
    return found


def test_every_text_of_the_tutorials_is_in_every_language() -> None:
    used = source_codes() | {c for g in GAMES for c in (*load_tutorial(g).codes(),
                                                         *load_tutorial(g).browser_codes())}
    assert "tutorial.ui.done" in used and "tutorial.file.bad_entry" in used
    missing = [f"{c} ({lang})" for c in sorted(used) for lang in languages()
               if not has_message(c, lang)]
    assert not missing, missing
    mine = {lang: {c for c in catalogue(lang).messages if c.startswith("tutorial.")}
            for lang in languages()}
    assert all(codes == mine["en"] for codes in mine.values())
    assert not mine["en"] - used, "entries no tutorial uses"
    # the German lesson is German: no step reads the same as in English
    en, de = catalogue("en").messages, catalogue("de").messages
    same = [c for g in GAMES for c in load_tutorial(g).browser_codes() if en[c] == de[c]]
    assert not same, same


@pytest.mark.parametrize("game", GAMES)
def test_the_texts_name_moves_in_words_and_the_terminal_adds_the_command(game: str) -> None:
    """Issue 16: a question's text names the move in words, the same in every interface (no
    record notation such as "bid f2 c0" or "keep 11555" in it); the terminal adds the
    command to type from the step's first expected move, the browser has its own controls.
    Terminal-only texts (how to type a bid) have a browser wording (``<code>.browser``)."""
    tutorial = load_tutorial(game)
    asks = [s for s in tutorial.steps if isinstance(s, AskStep)]
    # the moves written as commands (a single word such as roll is also a plain word)
    commands = {m for s in asks for m in (*s.expect, *s.wrong) if " " in m}
    for lang in languages():
        for code in {c for s in asks for c in (s.text, s.why, *s.wrong.values())}:
            text = render(code, None, lang)
            assert not [m for m in commands if m in text], (code, lang, text)
    code, out = learn(game, "en", script(game, mistakes=False))
    assert code == 0
    for step in asks:  # a seat in the command as the terminal shows seats: from 1
        move = shown_action(step.expect[0])
        assert flat(render("tutorial.ui.type", {"move": move}, "en")) in flat(out)
    assert not re.search(r"\bp\d\b", out)
    browser = {browser_code(s.hint) for s in asks}
    assert browser.isdisjoint({s.hint for s in asks}), "the browser's own refusal hints"


@pytest.mark.parametrize("lang", quick_first(1, ["en", "de"]))  # CI: German too
@pytest.mark.parametrize("game", GAMES)
def test_a_hint_at_a_question_at_the_terminal(game: str, lang: str) -> None:
    """Issue 16: ``hint`` at a question shows what the strongest bot would do from the
    learner's view (F8, M6, D9: the analyser reads the view only), the same hint a friendly
    table gives; it is no move (the question is asked again, nothing is judged) and the
    tutorial completes. German output has no English."""
    tutorial = load_tutorial(game)
    lines: list[str] = []
    asked_at = None
    for i, step in enumerate(tutorial.steps):
        if isinstance(step, SayStep):
            lines.append("")
        elif isinstance(step, AskStep):
            if asked_at is None:
                asked_at = i
                lines.append("hint" if lang == "en" else "hinweis")
            lines.append(shown_action(step.expect[0]))
    code, out = learn(game, lang, lines + [""] * 3)
    text = flat(out)
    assert code == 0, out[-3000:]
    assert flat(render("tutorial.ui.done", None, lang)) in text
    runner = TutorialRunner(tutorial)
    to_question(runner, cast(AskStep, tutorial.steps[cast(int, asked_at)]).text)
    hint = runner.hint()
    unit = render(UNIT_CODES[hint.unit], None, lang)
    assert flat(render("tutorial.ui.hint", {"action": shown_action(hint.best.action),
                                            "unit": unit}, lang)) in text
    assert flat(render("tutorial.ui.not_quite", None, lang)) not in text  # no move judged
    if lang == "de":
        leaks = english_in(out)
        assert not leaks, "English in the German tutorial:\n" + "\n".join(leaks)


def test_a_tutorial_file_of_ones_own_runs_like_the_built_in_one(tmp_path: Path) -> None:
    path = write(tmp_path, raw("master"))
    result = cli.invoke(app, ["learn", "master", "--file", str(path)],
                        input="\n".join(script("master", mistakes=False)) + "\n")
    assert result.exit_code == 0
    assert flat(render("tutorial.ui.done", None, "en")) in flat(result.output)
