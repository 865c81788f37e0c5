"""Every word a player reads right (issue 25): the tips pages and the tutorials state facts of
the rules and of the staged games, and each fact is checked here against the engines, the
bots' policies and the rulings (shared/rules/*.md), in every catalogue language.

Two kinds of test: one per corrected line (each cites the ruling it was corrected against),
and a scan of every ``tips.*`` and ``tutorial.*`` message for figures and rule citations:
every figure in a text is either a placeholder filled from code or listed in :data:`FIGURES`
with a check that computes it from the engine (a rule's constant, a scoring function, the
tutorial's staged position at the step that shows the text); every cell a Dragon Master text
names is one a card lies on or is asked for there; every rule citation names a section of
the rulings that a test cites."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from math import factorial
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.balance import Z95
from dragonlair.cli.main import app
from dragonlair.core.i18n import catalogue, languages, render
from dragonlair.games import make_game
from dragonlair.games.farkle.base import BATTLE_ARMY, SKIRMISH_BONUS
from dragonlair.games.farkle.cards import COMPANIONS
from dragonlair.games.farkle.policy import recruit_dp
from dragonlair.games.farkle.scoring import counts_of, scorer_for
from dragonlair.games.fist.actions import Kind
from dragonlair.games.fist.holdings import WIN_POINTS
from dragonlair.games.master.cards import CARDS, FOUR_OF_A_KIND, line_code, score_table
from dragonlair.games.master.grid import BOX
from dragonlair.tips import tips_page
from dragonlair.tutorials import AskStep, SayStep, TutorialRunner, browser_code, load_tutorial

REPO = Path(__file__).resolve().parents[1]
RULES = REPO.parent / "shared" / "rules"
GAMES = ("fist", "master", "farkle")
LANGS = ("en", "de")


# ------------------------------------------------------------------ the tutorials, replayed
@dataclass(frozen=True)
class At:
    """Where a text is shown: the tutorial's staged game at that step (``None`` for the tips
    pages and the interface's own texts) and the step (its question, for a question's
    explanations and hints)."""

    game: str
    state: Any = None
    step: AskStep | SayStep | None = None

    def after(self, move: str | None = None) -> Any:
        """The staged game after the learner's ``move`` (default: the step's first expected
        move), on a copy."""
        assert isinstance(self.step, AskStep)
        state = self.state.clone()
        game = make_game(self.game, load_tutorial(self.game).options)
        state.apply(0, game.parse_action(move or self.step.expect[0]))
        return state

    def expected(self, k: int = 0) -> Any:
        assert isinstance(self.step, AskStep)
        return make_game(self.game, load_tutorial(self.game).options).parse_action(
            self.step.expect[k])


@cache
def walk(game: str) -> tuple[dict[str, At], Any]:
    """Every text code ``game``'s tutorial shows along its own path, with where it is first
    shown (a question's explanations and hints, and their browser wordings, at the
    question), and the final state."""
    tutorial = load_tutorial(game)
    runner = TutorialRunner(tutorial)
    runner.play_scripted()
    shown: dict[str, At] = {tutorial.title: At(game, runner.state.clone())}
    while not runner.finished:
        step = runner.step
        assert isinstance(step, SayStep | AskStep)
        at = At(game, runner.state.clone(), step)
        codes = [step.text] if isinstance(step, SayStep) else [
            step.text, step.why, step.hint, *step.wrong.values()]
        for code in codes:
            shown.setdefault(code, at)
            shown.setdefault(browser_code(code), at)
        if isinstance(step, SayStep):
            runner.acknowledge()
        else:
            assert runner.accept(step.expect[0]).kind == "ok"
    return shown, runner.state


def at(code: str) -> At:
    game = code.split(".")[1]
    if code.startswith("tutorial.") and game in GAMES:
        return walk(game)[0][code]
    return At(game)


def player(state: Any, seat: int) -> dict[str, Any]:
    p: dict[str, Any] = state.full_state()["players_full"][seat]
    return p


def fist_action(text: str) -> Any:
    """A Fist action as the engine reads ``text`` (its fields: fairy, common, silver...)."""
    return make_game("fist", load_tutorial("fist").options).parse_action(text)


def sealed(state: Any, seat: int) -> Any:
    """A Fist seat's sealed (not yet revealed) bid at ``state``, as an action."""
    text = player(state, seat)["pending_bid"]
    assert text is not None
    return fist_action(text)


def replay(final: Any, game: str, upto: int) -> Any:
    """``game``'s tutorial replayed from the start through the first ``upto`` moves of the
    final state's record."""
    g = make_game(game, load_tutorial(game).options)
    state = g.new_initial_state()
    for seat, action in list(final.history)[:upto]:
        state.apply(seat, g.parse_action(str(action)))
    return state


# ------------------------------------------------------------------ the engines' facts
@cache
def merchant_price() -> tuple[int, int]:
    """F7, the Merchant, as the Fist lesson stages it: Ember buys a stone with Silver. The
    Silver it costs and the stones it brings, from the engine (replayed to that purchase)."""
    final = walk("fist")[1]
    texts = [str(a) for _, a in final.history]
    i = texts.index("buy red silver")
    before = replay(final, "fist", i)
    assert "buy red silver" in [str(a) for a in before.legal_actions(1)]
    after = replay(final, "fist", i + 1)
    paid = player(before, 1)["silver"] - player(after, 1)["silver"]
    got = sum(player(after, 1)["stones"].values()) - sum(player(before, 1)["stones"].values())
    return paid, got


def wizard_silver() -> int:
    """F6: the Silver the Wizard's winner takes instead of paying stones (the lesson's)."""
    where = at("tutorial.fist.pay")
    return int(player(where.after("take"), 0)["silver"] - player(where.state, 0)["silver"])


def bid_value(action: Any) -> int:
    return int(action.fairy + action.common)


SCORER = scorer_for()


def soldiers(dice: str) -> int | None:
    """D2: the best value of exactly these dice (``None``: some die scores nothing)."""
    best = SCORER.best(counts_of(dice))
    return None if best is None else best[0]


def single_faces() -> list[int]:
    """D2: the faces a single die scores with."""
    return [f for f in range(1, 7) if soldiers(str(f))]


def farkle_chance(n: int) -> float:
    """D2, D4.2: the chance that ``n`` dice score nothing."""
    total = 0
    for roll in product(range(n + 1), repeat=6):
        if sum(roll) != n:
            continue
        ways = factorial(n)
        for k in roll:
            ways //= factorial(k)
        if not SCORER.selections(roll):  # type: ignore[arg-type]
            total += ways
    return total / float(6 ** n)


def table() -> list[int]:
    return score_table(load_tutorial("master").options["four_of_a_kind"])


def line(*values: int) -> int:
    return table()[line_code(list(values))]


def cells(state: Any) -> list[str]:
    """The cells the cards on the Master grid lie on, as the record names them."""
    return [str(a).split()[-1] for _, a in state.history if str(a).startswith("place")]


def column(state: Any, letter: str) -> int:
    """The score of the learner's column ``letter`` (M4), from the engine's line scores."""
    cols, _ = state.line_scores()
    first = min(c[0] for c in cells(state))
    return int(cols[ord(letter) - ord(first)])


def row(state: Any, number: int) -> int:
    _, rows = state.line_scores()
    first = min(int(c[1:]) for c in cells(state))
    return int(rows[number - first])


def battle_damage() -> dict[str, int]:
    """D6.2: the damage each event face did in the lesson's Final Battle (replayed)."""
    final = walk("farkle")[1]
    g = make_game("farkle", load_tutorial("farkle").options)
    state = g.new_initial_state()
    done: dict[str, int] = {}
    for seat, action in final.history:
        before = state.full_state()["dragon"]["damage"]
        state.apply(seat, g.parse_action(str(action)))
        fs = state.full_state()
        if fs["mode"] == "battle" and str(action).startswith("dice"):
            done[fs["event"]] = fs["dragon"]["damage"] - before
    return done


def farkled_attack() -> int:
    """D5.1: the attack value after a farkle (the lesson's attack, farkled on a copy)."""
    return int(at("tutorial.farkle.tooth").after("farkle").full_state()["skirmish"][
        "attack_value"])


def games_min() -> list[int]:
    """The least ``--games`` the tips command takes: 0 is refused, 1 is not."""
    import tempfile

    runner = CliRunner()
    least = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (0, 1):
            r = runner.invoke(app, ["tips", "fist", "--regenerate", "--games", str(n),
                                    "--out", str(Path(folder) / "fist.json")])
            if r.exit_code == 0:
                least.append(n)
    return least[:1]


def scout() -> int:
    return next(c.amount for c in COMPANIONS if c.id == "scout")


def roll_digits(state: Any) -> list[int]:
    return [int(d) for d in state.full_state()["roll"]]


def pending(state: Any) -> int:
    return int(state.full_state()["pending"])


def army(state: Any, seat: int = 0) -> int:
    return int(state.full_state()["seats"][seat]["army"])


# ------------------------------------------------------------------ the scan
#: a figure as texts write it: 1,300 (English), 1.300 (German), 95, 3
NUMBER = re.compile(r"\d{1,3}(?:[,.]\d{3})+(?!\d)|\d+")
#: a placeholder, filled from code
FIELD = re.compile(r"\{[^{}]*\}")
#: a rule citation (F5.1, M4, D6.4)
CITATION = re.compile(r"\b([FMD]\d+(?:\.\d+)?)\b")
#: a cell of the Dragon Master grid (d4)
CELL = re.compile(r"\b[a-h][1-9]\b")
#: figures a language writes in words: a multiple ("ten times", "das Zehnfache") and, in
#: German, the dice faces in the plural ("drei Fünfen": three 5s)
WORDS = {"en": {"ten times": 10},
         "de": {"Zehnfache": 10, "Hundertfache": 100, "Einsen": 1, "Zweien": 2, "Dreien": 3,
                "Vieren": 4, "Fünfen": 5, "Sechsen": 6}}
#: the Dragon Master texts whose cell is an example of how to type a move, not a position
CELL_EXAMPLES = {"tutorial.master.place_hint": "place ruby c4"}

Check = Callable[[At], Iterable[int]]


def _fist_silver(a: At) -> list[int]:
    ours, embers = (sealed_bid(a, 0), sealed_bid(a, 1))
    assert a.state.full_state()["tie_break"] == [0, 1] and ours == embers
    return [ours, player(a.state, 0)["silver"]]


def sealed_bid(a: At, seat: int) -> int:
    """A seat's revealed bid in the auction just held (the last bid it made)."""
    bids = [act for s, act in a.state.history if s == seat and str(act).startswith("bid")]
    return bid_value(bids[-1])


def _fist_silver_why(a: At) -> list[int]:
    paid, got = merchant_price()
    assert got == 1
    least = min(a.expected(k).silver for k in range(len(a.step.expect)))  # type: ignore[union-attr]
    assert least == sealed(a.state, 1).silver + 1  # one more than Ember's Silver wins
    return [player(a.state, 0)["silver"], paid, least]


def _fist_wizard_why(a: At) -> list[int]:
    best, other = a.expected(0), a.expected(1)
    others = max(bid_value(sealed(a.state, s)) for s in (1, 2))
    assert bid_value(best) == bid_value(other) == others + 1  # wins outright
    return [bid_value(best), best.fairy, other.fairy, other.common]


def _master_compare(a: At) -> list[int]:
    last = walk("master")[1].rounds[-1]
    cols, rows = sorted(last.columns), sorted(last.rows)
    assert last.winner == 0 and last.decided_at == 0 and cols[0] > rows[0]
    return [len(cells(walk("master")[1])), *cols, *rows, cols[0], rows[0]]


def _master_box(a: At) -> list[int]:
    rows = [int(c[1:]) for c in cells(a.state)]
    cols = [c[0] for c in cells(a.state)]
    assert (min(cols), max(cols)) == ("b", "e")
    return [min(rows), max(rows), BOX, BOX]


def _master_grow(a: At) -> list[int]:
    cell = a.step.expect[0].split()[-1]  # type: ignore[union-attr]
    number = int(cell[1:])
    assert column(a.after(), cell[0]) == line(2, 2, 2, 1)
    return [number, row(a.after(), number) - row(a.state, number)]


def _farkle_straight(a: At) -> list[int]:
    roll = roll_digits(a.state)
    straight = soldiers("123456")
    assert straight is not None
    for face in range(2, 7):
        assert soldiers(str(face) * 3) == 100 * face
    return [*roll, straight, 1, soldiers("1") or 0, 5, soldiers("5") or 0, 100, 1,
            soldiers("111") or 0, straight]


def _farkle_best_part(a: At) -> list[int]:
    """The most that fewer than all six dice of the straight score (the 1 and the 5)."""
    roll = counts_of("".join(map(str, roll_digits(a.state))))
    return [max(v for sel, v in SCORER.selections(roll) if sum(sel) < 6)]


def _farkle_alliance(a: At) -> list[int]:
    roll = roll_digits(a.state)
    assert roll.count(1) == 2 and roll.count(5) == 3
    return [1, 5, 1, 5, 1, soldiers("11") or 0, 5, soldiers("555") or 0, soldiers("11555") or 0]


def _farkle_six_unkept(a: At) -> list[int]:
    roll = counts_of("".join(map(str, roll_digits(a.state))))
    assert 6 in roll_digits(a.state)
    assert all(sel[5] == 0 for sel, _ in SCORER.selections(roll))  # the 6 is never kept
    return [1, 5, soldiers("11555") or 0, 6]


def _farkle_double(a: At) -> list[int]:
    kept = a.state.full_state()["last_keep"]["soldiers"]
    return [kept, pending(a.after()) - pending(a.state)]


def _farkle_stop(a: At) -> list[int]:
    attack = a.after().full_state()["skirmish"]["attack_value"]
    assert attack - pending(a.state) == scout()
    return [pending(a.state), scout()]


#: every figure of a text, by code: the check computes them from the engine (a Counter of
#: the check's figures must equal the text's, in every language)
FIGURES: dict[str, Check] = {
    # the tips pages: the 95% of the Wilson interval (z is the 97.5th percentile)
    "tips.games_min": lambda a: games_min(),
    # M4: a pair scores ten times the value, whatever the value
    "tips.master.pairs": lambda a: [line(1, 1)] if all(
        line(c.value, c.value) == line(1, 1) * c.value for c in CARDS) else [],
    **{f"tips.fist.{k}": (lambda a: [round(100 * (2 * NormalDist().cdf(Z95) - 1))])
       for k in ("above", "noise", "below", "table.caption", "table.ci95")},
    # Fist (F3.1, F5, F6, F7)
    "tutorial.fist.goal": lambda a: [WIN_POINTS],
    "tutorial.fist.end": lambda a: [WIN_POINTS] if max(
        range(3), key=lambda s: player(a.state, s)["score"]) == 0 else [],
    "tutorial.fist.coins": lambda a: [player(a.state, 0)[c] for c in ("fairy", "common",
                                                                        "silver")],
    "tutorial.fist.bid_hint": lambda a: [(x := fist_action("bid f2 c0")).fairy, x.common],
    "tutorial.fist.silver.hint": lambda a: [fist_action("silver 2").silver],
    "tutorial.fist.empty": lambda a: [player(a.state, 1)["fairy_spent"]],
    "tutorial.fist.magician": lambda a: [a.expected().fairy],
    "tutorial.fist.magician.why": lambda a: [a.expected().fairy],
    "tutorial.fist.curse": lambda a: [player(a.state, 0)["fairy_spent"]],
    "tutorial.fist.tie": lambda a: [a.expected().fairy],
    "tutorial.fist.tie.why": lambda a: [a.expected().fairy],
    "tutorial.fist.silver": _fist_silver,
    "tutorial.fist.silver.why": _fist_silver_why,
    "tutorial.fist.silver.zero": lambda a: [player(a.state, 0)["silver"]],
    "tutorial.fist.silver.one": lambda a: [sealed(a.state, 1).silver,
                                           player(a.state, 0)["silver"]],
    "tutorial.fist.wizard": lambda a: [a.expected().fairy],
    "tutorial.fist.wizard.why": _fist_wizard_why,
    "tutorial.fist.wizard.low": lambda a: [max(bid_value(sealed(a.state, s)) for s in (1, 2)),
                                           bid_value(a.expected())],
    "tutorial.fist.pay": lambda a: [wizard_silver()],
    "tutorial.fist.pay.take": lambda a: [wizard_silver()] if merchant_price() == (
        wizard_silver(), 1) else [],
    # Dragon Master (M1, M2, M3, M4)
    "tutorial.master.goal": lambda a: [BOX * BOX, BOX, BOX, *(c.value for c in CARDS)],
    "tutorial.master.lines": lambda a: [line(1, 1), line(3, 3, 3),
                                        line(3, 3, 3, 3), BOX * BOX],
    "tutorial.master.place_hint": lambda a: [BOX, BOX],
    "tutorial.master.place_hint.browser": lambda a: [BOX, BOX],
    "tutorial.master.origin": lambda a: [int(a.step.expect[0][-1])],  # type: ignore[union-attr]
    "tutorial.master.box": _master_box,
    "tutorial.master.box.why": lambda a: [column(a.after(), "c")],
    "tutorial.master.pair": lambda a: [line(1, 1), column(a.after(), "c")],
    "tutorial.master.pair.why": lambda a: [column(a.after(), "c"), line(3) + line(3)],
    "tutorial.master.pair2": lambda a: [column(a.after(), "e")],
    "tutorial.master.pair2.why": lambda a: [column(a.after(), "e")],
    "tutorial.master.three": lambda a: [line(0, 0, 0), max(table())],
    "tutorial.master.three.why": lambda a: [line(0, 0, 0),
                                            column(a.after(), "d") - line(0, 0, 0)],
    "tutorial.master.grow": _master_grow,
    "tutorial.master.grow.why": lambda a: [line(2, 2, 2), column(a.after(), "e") - 100,
                                           column(a.after(), "e")],
    "tutorial.master.last.why": lambda a: [line(3, 3), line(1, 1), column(a.after(), "b")],
    "tutorial.master.compare": _master_compare,
    # Dragon Farkle (D2, D3, D4, D5, D6, D8)
    "tutorial.farkle.goal": lambda a: [BATTLE_ARMY, scout()],
    "tutorial.farkle.menu_hint": lambda a: [int(str(make_game("farkle", {}).parse_action(
        "keep 15")).split()[1])],
    "tutorial.farkle.recruit": lambda a: [BATTLE_ARMY],
    "tutorial.farkle.straight": _farkle_straight,
    "tutorial.farkle.straight.why": lambda a: [soldiers("123456") or 0, 1, 5,
                                               _farkle_best_part(a)[0]],
    "tutorial.farkle.straight.less": lambda a: [*_farkle_best_part(a),
                                                soldiers("123456") or 0],
    "tutorial.farkle.hot": lambda a: [pending(a.state)],
    "tutorial.farkle.hot.bank": lambda a: [pending(a.state)],
    "tutorial.farkle.hot.why": lambda a: [round(100 * farkle_chance(6)), 100],
    "tutorial.farkle.alliance_keep": _farkle_alliance,
    "tutorial.farkle.alliance_keep.why": _farkle_six_unkept,
    "tutorial.farkle.alliance_keep.less": lambda a: [1, 5, soldiers("11555") or 0],
    "tutorial.farkle.double": lambda a: [a.state.full_state()["last_keep"]["soldiers"]],
    "tutorial.farkle.double.why": _farkle_double,
    "tutorial.farkle.double.item": lambda a: [_farkle_double(a)[1], BATTLE_ARMY],
    "tutorial.farkle.bank": lambda a: [pending(a.state), *single_faces()],
    "tutorial.farkle.bank.why": lambda a: [pending(a.state)],
    "tutorial.farkle.bank.roll": lambda a: [*single_faces(), pending(a.state)],
    "tutorial.farkle.skirmish": lambda a: [SKIRMISH_BONUS],
    "tutorial.farkle.skirmish.why": lambda a: [SKIRMISH_BONUS, BATTLE_ARMY - army(a.state)],
    "tutorial.farkle.triple": lambda a: [2, soldiers("222") or 0, 2] if soldiers("2") is None
    else [],
    "tutorial.farkle.triple.why": lambda a: [2, soldiers("222") or 0, 2] if (
        soldiers("2") is None and soldiers("22") is None) else [],
    "tutorial.farkle.push": lambda a: [pending(a.state)],
    "tutorial.farkle.push.why": lambda a: [pending(a.state)],
    "tutorial.farkle.push.stop": lambda a: [pending(a.state)],
    "tutorial.farkle.tooth": lambda a: [*roll_digits(a.state), farkled_attack()] if not
    SCORER.selections(counts_of(a.state.full_state()["roll"])) else [],
    "tutorial.farkle.tooth.why": lambda a: [farkled_attack()],
    "tutorial.farkle.tooth.farkle": lambda a: [farkled_attack()],
    "tutorial.farkle.keep15": lambda a: [1, 5, pending(a.after()) - pending(a.state)],
    "tutorial.farkle.keep15.why": lambda a: [1, 5, pending(a.after()) - pending(a.state),
                                             pending(a.after())],
    "tutorial.farkle.stop": _farkle_stop,
    "tutorial.farkle.stop.roll": lambda a: [*single_faces(), farkled_attack()],
    "tutorial.farkle.battle": lambda a: [SKIRMISH_BONUS, BATTLE_ARMY] if army(
        a.state) >= BATTLE_ARMY else [],
    "tutorial.farkle.end": lambda a: [battle_damage()["dragon"], battle_damage()["alliance"]],
    "tutorial.farkle.tip": lambda a: single_faces(),
}


def messages(lang: str) -> dict[str, list[str]]:
    """Every tips and tutorial message of ``lang`` (each plural form)."""
    out: dict[str, list[str]] = {}
    for code, text in catalogue(lang).messages.items():
        if code.startswith(("tips.", "tutorial.")) and text:
            out[code] = list(text) if isinstance(text, tuple) else [text]
    return out


def figures(code: str, text: str) -> list[int]:
    """The figures a text states (placeholders, citations and Master cells aside), in
    digits or in words (:data:`WORDS`, every language's)."""
    text = CITATION.sub("", FIELD.sub("", text))
    if code.startswith("tutorial.master."):
        text = CELL.sub("", text)
    found = [int(re.sub(r"[,.]", "", n)) for n in NUMBER.findall(text)]
    for words in WORDS.values():
        for word, value in words.items():
            found += [value] * len(re.findall(rf"\b{word}\b", text))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_a_text_states_is_listed_and_the_same_in_every_language(
        lang: str) -> None:
    """A text with a figure has a check in FIGURES (and only such texts do), and states the
    same figures in every language."""
    mine = messages(lang)
    stated = {c: f for c, forms in mine.items() for text in forms if (f := figures(c, text))}
    assert set(stated) == set(FIGURES), (sorted(set(stated) - set(FIGURES)),
                                         sorted(set(FIGURES) - set(stated)))
    english = messages("en")
    for code, texts in mine.items():
        for text, en in zip(texts, english[code], strict=True):
            assert Counter(figures(code, text)) == Counter(figures(code, en)), (code, lang)


@pytest.mark.parametrize("code", sorted(FIGURES))
def test_each_figure_is_what_the_engine_computes(code: str) -> None:
    """The figures of ``code`` (the English text's; the German states the same, above) are
    what its check computes from the engine, the policy or the tutorial's staged game at the
    step that shows the text."""
    for text in messages("en")[code]:
        assert Counter(figures(code, text)) == Counter(FIGURES[code](at(code))), (code, text)


def test_every_cell_a_master_text_names_is_on_the_grid_there() -> None:
    """M3: a cell a Dragon Master text names holds a card at that step, or is the cell the
    question asks for; the example of how to type a move is a legal move's text."""
    game = make_game("master", load_tutorial("master").options)
    seen = 0
    for lang in languages():
        for code, texts in messages(lang).items():
            if not code.startswith("tutorial.master."):
                continue
            for text in texts:
                named = set(CELL.findall(text))
                if not named:
                    continue
                seen += 1
                if code.split(".browser")[0] in CELL_EXAMPLES:
                    example = CELL_EXAMPLES[code.split(".browser")[0]]
                    assert str(game.parse_action(example)) == example
                    assert named == {example.split()[-1]}
                    continue
                where = at(code)
                asked = ({m.split()[-1] for m in where.step.expect}
                         if isinstance(where.step, AskStep) else set())
                assert named <= set(cells(where.state)) | asked, (code, lang, named)
    assert seen >= 10


def sections() -> set[str]:
    """The sections of the rulings: F5, and F5.1 for the numbered points in F5."""
    found: set[str] = set()
    for path in RULES.glob("*.md"):
        section = None
        for text in path.read_text("utf-8").splitlines():
            head = re.match(r"## ([FMD]\d+)\.", text)
            if head:
                section = head.group(1)
                found.add(section)
                continue
            point = re.match(r"(\d+)\. ", text)
            if point and section:
                found.add(f"{section}.{point.group(1)}")
    return found


def test_every_rule_a_text_cites_exists_and_a_test_covers_it() -> None:
    """A citation in a tips or tutorial text ("(F5.1)") names a section of the rulings
    (shared/rules/*.md) that a test cites."""
    assert RULES.is_dir(), f"the rulings are not at {RULES} (shared/ beside the checkout)"
    known = sections()
    assert {"F5.1", "F7", "M4", "D6.4"} <= known
    tests = " ".join(p.read_text("utf-8") for p in Path(__file__).parent.rglob("test_*.py")
                     if p.name != Path(__file__).name)
    for lang in languages():
        for code, texts in messages(lang).items():
            for text in texts:
                for cited in CITATION.findall(text):
                    assert cited in known, (code, lang, cited)
                    assert re.search(rf"\b{re.escape(cited)}\b", tests), (code, cited)


# ------------------------------------------------------------------ the corrected lines
def rendered(code: str, lang: str) -> str:
    return render(code, {"cards": "X", "n": 1, "base": "25%"}, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_fist_tips_say_bids_are_gold_not_stones(lang: str) -> None:
    """F5.1: a sealed bid is Fairy and Common Gold (and a Black coin, an Amulet); stones are
    never bid. The tips that advise what to bid speak of gold; the engine's bids at the
    lesson's first auction hold only those coins."""
    stone, gold = {"en": ("stone", "gold"), "de": ("Stein", "Gold")}[lang]
    for code in ("tips.fist.best", "tips.fist.worst", "tips.fist.advice"):
        text = rendered(code, lang)
        assert stone not in text.lower() and stone not in text, (code, text)
        assert gold in text.lower() or gold in text, (code, text)
    page = " ".join(tips_page("fist", lang).paragraphs)
    assert not re.search(r"bidding more stones|keep your stones|bought with every stone"
                         r"|Steine als sonst|deine Steine|alle Steine ausgibst", page)
    state = at("tutorial.fist.witch").state
    bids = state.legal_actions(0)
    assert bids and all(b.kind == Kind.BID for b in bids)
    assert all(b.stones == (0, 0, 0) and b.silver == 0 for b in bids)
    p = player(state, 0)
    assert max(b.fairy for b in bids) == p["fairy"] and max(b.common for b in bids) == p["common"]
    assert len(bids) == (p["fairy"] + 1) * (p["common"] + 1) * (p["black"] + 1) * (
        p["amulet"] + 1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_fist_lesson_knows_the_merchant_sells_stones_for_silver(lang: str) -> None:
    """F7: the Merchant sells a stone for three unspent Silver (the lesson stages it: Ember
    buys one), so Silver is good for more than ties (F5.7). The lesson's lines about Silver
    say so and no longer call it good for nothing but ties."""
    assert merchant_price() == (3, 1)
    assert wizard_silver() == 3  # F6: the Wizard's alternative, which pay.take weighs
    merchant = {"en": "Merchant", "de": "Händler"}[lang]
    why = render("tutorial.fist.silver.why", None, lang)
    assert merchant in why and 3 in figures("tutorial.fist.silver.why", why)
    assert merchant in render("tutorial.fist.coins", None, lang)
    assert merchant in render("tutorial.fist.pay.take", None, lang)
    lesson = " ".join(render(c, None, lang) for c in load_tutorial("fist").codes())
    assert not re.search(r"nothing but ties|only good for ties|only help in ties"
                         r"|only breaks ties|taugt nur|nützt nur bei|helfen nur bei"
                         r"|entscheidet nur Gleichstände", lesson)


@pytest.mark.parametrize("lang", LANGS)
def test_master_three_of_a_kind_scores_100_and_the_fourth_card_adds_its_value(
        lang: str) -> None:
    """M4: three of a value score 100, and the fourth card of the line scores its own value
    (a value present once), so three of a kind and a Ruby make 103, the most a line scores
    under either option; the lesson's own columns score 101 and 102. The text says so and no
    longer calls 100 the most."""
    for option in FOUR_OF_A_KIND:
        scores = score_table(option)
        assert scores[line_code([0, 0, 0, 3])] == 103
        assert scores[line_code([1, 1, 1])] == 100
        assert max(scores) == 103
    assert max(walk("master")[1].rounds[-1].columns) > 100
    text = render("tutorial.master.three", None, lang)
    assert 103 in figures("tutorial.master.three", text)
    assert not re.search(r"the most a line can score|mehr bringt keine Reihe,", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_farkle_tip_agrees_with_the_optimal_policy(lang: str) -> None:
    """D4: the optimal Recruit policy banks with four or five dice once enough is pending
    (its thresholds, which the tips page shows, are below what the Final Battle needs, D3),
    and with six dice only from a sum no turn needs; the tip says so, states no figure of
    its own but the faces that score alone (D2), and no longer says to roll on with four
    dice or more."""
    dp = recruit_dp()
    assert dp.threshold(4) < dp.threshold(5) < BATTLE_ARMY < dp.threshold(6)
    text = render("tutorial.farkle.tip", None, lang)
    assert figures("tutorial.farkle.tip", text) == single_faces() == [1, 5]
    assert not re.search(r"four dice or more|vier oder mehr Würfel", text)
    page = tips_page("farkle", lang).paragraphs
    for n in (4, 5):
        assert render("tips.farkle.threshold", {"n": n, "points": dp.threshold(n)},
                      lang) in page


@pytest.mark.parametrize("lang", LANGS)
def test_a_pair_beats_two_different_cards_except_a_pair_of_eggs(lang: str) -> None:
    """M4: a pair scores ten times its value, so a pair of Emeralds, Sapphires or Rubies
    beats any two different cards; a pair of Eggs scores 0, less than an Egg and an Emerald.
    The tip says Eggs are the exception."""
    scores = score_table("100")
    most_two = max(scores[line_code([a, b])] for a in range(4) for b in range(4) if a != b)
    assert all(scores[line_code([v, v])] > most_two for v in (1, 2, 3))
    assert scores[line_code([0, 0])] < scores[line_code([0, 1])]
    text = render("tips.master.pairs", {"pairs": "X"}, lang)
    assert {"en": "Eggs aside", "de": "außer Eiern"}[lang] in text


def stones(state: Any, seat: int) -> dict[str, int]:
    s: dict[str, int] = player(state, seat)["stones"]
    return s


def dice(state: Any) -> int:
    return int(state.full_state()["dice_in_hand"])


#: facts of the staged games that the texts state in words (the scan above reads digits and
#: a few words only; the words "one", "ein" are also articles): the phrase in each language
#: and the check of the fact against the tutorial's staged game where the text is shown
WORDED: list[tuple[str, dict[str, str], Callable[[At], bool]]] = [
    ("tutorial.fist.goal", {"en": "This lesson lasts one turn",
                            "de": "Diese Lektion dauert eine Runde"},
     lambda a: walk("fist")[1].full_state()["turn"] == 1
     and load_tutorial("fist").options["max_turns"] == 1),
    ("tutorial.fist.coins", {"en": "your four dragonstones", "de": "deine vier Drachensteine"},
     lambda a: sum(stones(a.state, 0).values()) == 4),
    ("tutorial.fist.empty", {"en": "you hold two already", "de": "zwei hast du schon"},
     lambda a: stones(a.state, 0)["red"] == 2),
    ("tutorial.fist.magician", {"en": "and you hold four", "de": "und du hast vier"},
     lambda a: sum(stones(a.state, 0).values()) == 4),
    ("tutorial.fist.thief", {"en": "Ember holds one red, two blue and one yellow stone",
                             "de": "Ember hat einen roten, zwei blaue und einen gelben Stein"},
     lambda a: stones(a.state, 1) == {"red": 1, "blue": 2, "yellow": 1}),
    ("tutorial.master.goal", {"en": "Your eight cards are hidden from Ember, and four cards "
                                    "are set aside unseen",
                              "de": "Deine acht Karten sieht Ember nicht, und vier Karten "
                                    "liegen ungesehen beiseite"},
     lambda a: sum(a.state.view(0)["private"]["hand"].values()) == 8
     and len(walk("master")[1].rounds[-1].set_aside) == 4),
    ("tutorial.farkle.bank", {"en": "one die is left", "de": "dir bleibt ein Würfel"},
     lambda a: dice(a.state) == 1),
    ("tutorial.farkle.push", {"en": "with three dice left", "de": "drei Würfel sind übrig"},
     lambda a: dice(a.state) == 3),
    ("tutorial.farkle.stop.why", {"en": "with one die left", "de": "Mit einem Würfel"},
     lambda a: dice(a.state) == 1),
    ("tutorial.farkle.defend", {"en": "with five dice", "de": "mit fünf Würfeln"},
     lambda a: a.state.full_state()["roller"] == 1 and dice(a.state) == 5),
    ("tutorial.farkle.skirmish", {"en": "Ember defends with five dice",
                                  "de": "verteidigt sich Ember mit fünf Würfeln"},
     lambda a: at("tutorial.farkle.defend").state.full_state()["roller"] == 1
     and dice(at("tutorial.farkle.defend").state) == 5),
    ("tutorial.farkle.end", {"en": "Three damage slay the dragon",
                             "de": "Drei Schaden besiegen den Drachen"},
     lambda a: a.state.full_state()["dragon"] == {"strength": 3, "damage": 3}),
]


@pytest.mark.parametrize(("code", "phrases", "check"), WORDED, ids=[w[0] for w in WORDED])
def test_a_fact_stated_in_words_is_the_staged_games(code: str, phrases: dict[str, str],
                                                    check: Callable[[At], bool]) -> None:
    """F3.1, F6, M2, D4, D5.2, D6.4: the staged position a text describes in words is the
    tutorial's own at that step, in every language."""
    for lang, phrase in phrases.items():
        assert phrase in render(code, None, lang), (code, lang)
    assert check(at(code)), code
