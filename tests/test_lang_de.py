"""`dragonlair play <game> --lang de`: whole terminal games in German, with no English in them.

Every message, event and refusal a player reads comes from the catalogues in the language
chosen (docs/i18n.md). Each test here plays a whole game at the terminal in German: bots in
the other seats, a scripted human in seat 0 who also asks for help and the log, types words
the terminal cannot read and moves the engine refuses (so refusals are shown), and reads the
log again on the end screen. The output is then scanned for English: every fragment of three
or more words of an English catalogue message that differs from its German one must be absent.
The default run plays one short game per game; longer and hot-seat tables are marked slow
(CI plays the first of their seeds, one or two tables a game; the release run,
``scripts/test.sh --long``, every one).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dragonlair
from dragonlair.bots import Bot, make_bot
from dragonlair.cli.main import app
from dragonlair.cli.session import shown_action
from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.errors import CODE_PATTERN
from dragonlair.core.game import CHANCE, JSON, Action
from dragonlair.core.i18n import catalogue, render
from dragonlair.games import make_game
from tests import sources
from tests.sizes import size

runner = CliRunner()

#: the borders of rich's panels, rules and tables: not words
BORDERS = re.compile(r"[\u2500-\u257f]")
#: a field of a template (``{seat:seat}``), or rich markup (``[bold]``, ``[/]``)
FIELD = re.compile(r"\{[^{}]*\}|\[/?[a-z_ ]*\]")
#: English words that no German message uses (whole words, lower case)
ENGLISH_WORDS = ("the", "and", "you", "your", "is", "are", "has", "with", "cannot", "wins",
                 "won", "turn", "round", "player", "none", "nobody", "game", "over", "press")


def flat(text: str) -> str:
    """The output as one line of words: borders gone, so that text wrapped in a panel or a
    table cell reads as it was written."""
    return " ".join(BORDERS.sub(" ", text).split())


def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return (text,) if isinstance(text, str) else text


@cache
def english_fragments() -> dict[str, str]:
    """Fragment -> code: the parts between the fields of every English message that differs
    from its German one, three words or more, that no German message contains (a command
    such as ``pip install ...`` is the same in both)."""
    en, de = catalogue("en").messages, catalogue("de").messages
    german = flat(" ".join(" ".join(forms(t)) for t in de.values()))
    found: dict[str, str] = {}
    for code, text in en.items():
        if de.get(code) == text:
            continue
        for form in forms(text):
            for part in FIELD.split(form):
                words = flat(part).strip(" .,:;()!?'\"—-·")
                if len(words.split()) >= 3 and words not in german:
                    found.setdefault(words, code)
    return found


def english_in(out: str) -> list[str]:
    """What of ``out`` reads as English: catalogue fragments, and English words."""
    text = flat(out)
    leaks = [f"{frag!r} (from {code})" for frag, code in english_fragments().items()
             if frag in text]
    lower = text.lower()
    leaks += [f"the word {w!r}" for w in ENGLISH_WORDS if re.search(rf"\b{w}\b", lower)]
    return leaks


class StandIn:
    """Chooses for the human seat as a bot would, and remembers what it chose (typed later
    in the record's own words, which the terminal reads in every language)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.typed: list[tuple[str, int]] = []  # each choice and how many there were

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        self.typed.append((str(action), len(legal)))
        return action


def human_script(game_id: str, seed: int, kinds: Sequence[str], stand_in: str,
                 options: dict[str, object] | None = None,
                 asks_forced: bool = True, pause_every: int = 0) -> list[str]:
    """The lines the humans type to play the table to its end: the game is played here
    first, as the terminal seeds it (chance ``seed_for(seed, 0)``, the bot in seat ``s``
    ``seed_for(seed, 0, s + 1)``), a ``stand_in`` bot choosing for each human. At a hot-seat
    table a human first presses Enter when only they are looking. ``asks_forced``: whether
    the terminal asks when there is one legal action (Fist's says so on the next screen
    instead). ``pause_every``: the terminal waits for Enter after every so many moves (a
    Dragon Master round is 16 placements, M5) unless the game is over."""
    game = make_game(game_id, {**(options or {}), "players": len(kinds)}
                     if game_id != "master" else dict(options or {}))
    humans = {s: StandIn(make_bot(game_id, stand_in, random.Random(1000 + s)))
              for s, kind in enumerate(kinds) if kind == "human"}
    seats = [humans[s] if s in humans else
             make_bot(game_id, kind, random.Random(seed_for(seed, 0, s + 1)))
             for s, kind in enumerate(kinds)]
    state = play_out(game.new_initial_state(), seats, random.Random(seed_for(seed, 0)))
    assert state.is_terminal()
    chosen = {s: iter(human.typed) for s, human in humans.items()}
    moves = [seat for seat, _ in state.history if seat != CHANCE]
    lines: list[str] = []
    looker: int | None = None
    for done, seat in enumerate(moves, 1):
        if seat in humans:
            text, choices = next(chosen[seat])
            if asks_forced or choices > 1:
                if len(humans) > 1 and looker != seat:
                    lines.append("")  # Enter: only this player is looking
                    looker = seat
                lines.append(shown_action(text))  # a seat as the terminal shows it: from 1
        if pause_every and done % pause_every == 0 and done < len(moves):
            lines.append("")  # Enter: the next round
            looker = None
    return lines


def play_de(game_id: str, seed: int, kinds: Sequence[str], stand_in: str, bad: Sequence[str],
            options_args: Sequence[str] = (), options: dict[str, object] | None = None,
            every: int = 7, asks_forced: bool = True,
            pause_every: int = 0) -> tuple[str, int]:
    """Play the table in German; seat 0 asks for help and the log and types each of ``bad``
    before its first move, asks for the log again every ``every`` moves, and reads the log
    on the end screen. Returns the output and the number of inputs refused."""
    moves = human_script(game_id, seed, kinds, stand_in, options, asks_forced, pause_every)
    assert moves, "the human has something to do"
    lines = ["hilfe", "?", "log", *bad]
    if moves[0] == "":  # a hot-seat table: Enter first, then the player's own screen
        lines, moves = ["", *lines], moves[1:]
    for i, move in enumerate(moves):
        if i and i % every == 0 and move:
            lines.append("verlauf")
        lines.append(move)
    lines += ["log", ""]  # the end screen: the whole log again, then Enter
    args = ["play", game_id, "--lang", "de", "--seed", str(seed), *options_args]
    for kind in kinds:
        args += ["--seat", kind]
    result = runner.invoke(app, args, input="\n".join(lines) + "\n", terminal_width=100)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    return out, len(bad)


def check_german(out: str, refused: int) -> None:
    """The common ground of every German game."""
    try_again = render("cli.try_again", None, "de")
    assert flat(out).count(flat(try_again)) == refused, "each bad input refused once, no more"
    assert render("cli.seed", {"seed": 0}, "de").split()[0] in out  # "Startwert ..."
    assert not re.search(r"\b(?:core|cli|fist|master|farkle)\.[a-z_]+\.[a-z_.]+", out), \
        "a code printed as it is"
    leaks = english_in(out)
    assert not leaks, leaks


def rule_de(rule: str) -> str:
    """How a refusal names its rule in German: ``(Regel F5.1)``."""
    return render("core.rule_suffix", {"rule": rule}, "de").strip()


# ---------------------------------------------------------------- one short game per game
@pytest.mark.slow
def test_fist_in_german_has_no_english() -> None:
    """F5.1: bidding more Fairy Gold than is unspent is refused, in German, with the rule."""
    out, refused = play_de("fist", 3, ["human", "greedy", "greedy"], "greedy",
                           bad=["quatsch", "bid f9 c0", "99 99 99"], asks_forced=False,
                           options_args=["--max-turns", "4"], options={"max_turns": 4})
    check_german(out, refused)
    assert rule_de("F5.1") in flat(out)  # the engine's refusal, rendered from its code
    assert "So wird gespielt" in out  # help
    assert "Spielende" in out and "Grund:" in out
    assert flat(out).count("Partie vorbei") >= 2  # the end prompt, again after the log


def test_master_in_german_has_no_english() -> None:
    """M3: a card must touch one already placed: the engine refuses, in German."""
    out, refused = play_de("master", 4, ["human", "greedy"], "random",
                           bad=["quatsch", "place egg a1", "99 d4"])
    check_german(out, refused)
    assert rule_de("M3") in flat(out)  # the engine's refusal, rendered from its code
    assert flat(out).count("Partie vorbei") >= 2  # the end prompt, again after the log


@pytest.mark.slow
def test_farkle_in_german_has_no_english() -> None:
    """D5.1: a skirmish against oneself is refused, in German; so is a seat number that no
    player has, and the engine's own seat word (p1: seats are typed from 1)."""
    out, refused = play_de("farkle", 3, ["human", "cautious"], "cautious",
                           bad=["banane", "99", "skirmish 1", "skirmish 3", "skirmish p1"])
    check_german(out, refused)
    assert rule_de("D5.1") in flat(out)  # the engine's refusal, rendered from its code
    assert "„3“ nennt hier keinen Spieler" in flat(out)
    assert "„p1“ nennt hier keinen Spieler" in flat(out)
    assert "Spielende" in out and "Grund:" in out


def test_simulate_and_replay_speak_german(tmp_path: Path) -> None:
    """`simulate --lang de` renders how games ended from the reason codes; `replay --lang de`
    the result; an option error is German too."""
    folder = tmp_path
    sim = runner.invoke(app, ["simulate", "master", "--games", "4", "--lang", "de",
                              "--save-dir", str(folder)], terminal_width=100)
    assert sim.exit_code == 0, sim.output
    assert "Siegquote" in sim.output and "Partien/s" in sim.output
    ended = [render("master.end.lowest_lines", {"seat": s}, "de") for s in (0, 1)]
    assert any(text in sim.output for text in ended)  # the reason, rendered from its code
    assert "master.end." not in sim.output
    assert not english_in(sim.output), english_in(sim.output)
    record = sorted(folder.glob("*.json"))[0]
    rep = runner.invoke(app, ["replay", str(record), "--lang", "de"], terminal_width=100)
    assert rep.exit_code == 0, rep.output
    assert "alle erlaubt" in rep.output and "Gewinner:" in rep.output
    assert not english_in(rep.output), english_in(rep.output)
    bad = runner.invoke(app, ["simulate", "fist", "--games", "0", "--lang", "de"])
    assert bad.exit_code == 2 and "Fehler: --games muss mindestens 1 sein" in bad.output


# ---------------------------------------------------------------- longer tables (slow)
#: how often the human asks for the log at the longer tables: each time the whole log so far
#: is drawn again (the end screen shows all of it once more), so a long table asking every
#: few moves spends its time drawing the same lines
LOG_EVERY = 12


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 8, 1, 5][:size(ci=2, long=4)])  # CI: 5 and 3 players
def test_fist_tables_in_german_have_no_english(seed: int) -> None:
    kinds = ["human", *["greedy", "random", "greedy", "random", "greedy"][:2 + seed % 4]]
    out, refused = play_de("fist", seed, kinds, "random", bad=["quatsch", "bid f9 c0"],
                           every=LOG_EVERY, asks_forced=False)
    check_german(out, refused)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3][:size(ci=1, long=3)])
def test_master_matches_in_german_have_no_english(seed: int) -> None:
    out, refused = play_de("master", seed, ["human", "random"], "greedy", bad=["quatsch"],
                           options_args=["--match"], options={"match": True}, every=3,
                           pause_every=16)
    check_german(out, refused)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 5][:size(ci=1, long=2)])
def test_hot_seat_master_match_in_german_has_no_english(seed: int) -> None:
    """Two humans at one terminal: the pauses between their screens are German too."""
    out, refused = play_de("master", seed, ["human", "human"], "random", bad=[],
                           options_args=["--match"], options={"match": True}, every=5,
                           pause_every=16)
    check_german(out, refused)
    assert render("cli.pause", {"seat": 1, "name": "Spieler 2"}, "de").split()[0] in out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 4, 2, 6][:size(ci=2, long=4)])  # CI: 3 and 2 players
def test_farkle_tables_in_german_have_no_english(seed: int) -> None:
    kinds = ["human", *["cautious", "random", "cautious", "random"][:1 + seed % 4]]
    out, refused = play_de("farkle", seed, kinds, "random", bad=["banane", "skirmish 9"],
                           every=LOG_EVERY)
    check_german(out, refused)


def test_the_scan_finds_english_where_there_is_english() -> None:
    """The same kind of game in English is caught by the scan (the scan is not blind)."""
    moves = human_script("master", 4, ["human", "greedy"], "random")
    result = runner.invoke(app, ["play", "master", "--seed", "4", "--seat", "human", "--seat",
                                 "greedy"], input="\n".join(["help", "log", *moves, "log", ""]))
    assert result.exit_code == 0, result.output[-2000:]
    leaks = english_in(result.output)
    assert len(leaks) >= 10, leaks


# ---------------------------------------------------------------- no English at the source
def package_sources() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the package: its path (``dragonlair/cli/main.py``) and syntax tree."""
    root = Path(dragonlair.__file__).parent
    return tuple((path.relative_to(root.parent).as_posix(), sources.tree(path))
                 for path in sources.python_files(root))


def dragonlair_error_names() -> set[str]:
    """The names of DragonlairError and every subclass the package defines."""
    bases = {"DragonlairError"}
    classes: dict[str, set[str]] = {}
    for _, tree in package_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = {b.id if isinstance(b, ast.Name) else
                                      b.attr if isinstance(b, ast.Attribute) else ""
                                      for b in node.bases}
    grew = True
    while grew:
        more = {name for name, parents in classes.items() if parents & bases} - bases
        grew = bool(more)
        bases |= more
    return bases


def test_no_error_is_raised_with_an_english_sentence() -> None:
    """Every DragonlairError the package raises names a code (``core.run.games_min``), never
    a sentence, which would reach a player as the transitional ``core.text`` in English. A
    code may be built at run time from a code-shaped literal (``f"fist.custom.{code}"``) or
    come in a variable; a call (``tr(...)``: text already rendered) or a sentence may not."""
    names = dragonlair_error_names()
    assert {"OptionError", "IllegalActionError", "RecordError", "ResampleError"} <= names
    bad = []
    root = Path(dragonlair.__file__).parent
    for path, tree in package_sources():
        if not any(name in sources.text(root.parent / path) for name in names):
            continue  # raises none of them
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name not in names:
                continue
            first = node.args[0]
            where = f"{path}:{node.lineno}"
            if isinstance(first, ast.Constant):
                if not (isinstance(first.value, str) and CODE_PATTERN.match(first.value)):
                    bad.append(f"{where}: {first.value!r}")
            elif isinstance(first, ast.JoinedStr):
                head = first.values[0] if first.values else None
                if not (isinstance(head, ast.Constant) and isinstance(head.value, str)
                        and re.match(r"^[a-z][a-z0-9_]*\.[a-z0-9_.-]*$", head.value)):
                    bad.append(f"{where}: {ast.unparse(first)}")
            elif isinstance(first, ast.Call):
                bad.append(f"{where}: {ast.unparse(first)}")
    assert not bad, bad


@pytest.mark.parametrize("args", [
    ["play", "fist", "--seat", "human", "--seat", "wizard", "--seat", "greedy"],
    ["play", "fist", "--players", "9"],
    ["play", "chess"],
    ["play", "master", "--seat", "human"],
    ["play", "master", "--dragon", "4"],
    ["play", "farkle", "--dragon", "9"],
    ["play", "fist", "--max-turns", "-3"],
    ["play", "fist", "--save", "/nonexistent-folder/partie.json"],
    ["simulate", "fist", "--bots", "a,b,c,d,e,f,g"],
    ["simulate", "fist", "--games", "0"],
    ["simulate", "fist", "--decks", "x.toml"],
    ["rules", "chess"],
])
def test_refusals_of_the_commands_are_german(args: list[str]) -> None:
    """A table that cannot be set up is refused in the language chosen, from the
    catalogues: the word for error too."""
    result = runner.invoke(app, [*args, "--lang", "de"], terminal_width=200)
    assert result.exit_code == 2, result.output
    out = flat(result.output)
    assert out.startswith(render("cli.error", None, "de")), out
    assert "Traceback" not in out
    assert not english_in(out), english_in(out)
