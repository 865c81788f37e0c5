"""Messages from gettext catalogues: one source for the core, the games and the terminal.

Every code the sources name has a message in every language; every message's fields are
ones its params fill; every entry renders; plurals choose their form; a language is a folder
of files; the JSON export for the browser round-trips (docs/i18n.md)."""

from __future__ import annotations

import json
import pickle
import re
import shutil
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dragonlair.cli import i18n_cmd
from dragonlair.cli.i18n import coins, colour_name, points, tr
from dragonlair.cli.main import app
from dragonlair.core import i18n
from dragonlair.core.errors import IllegalActionError, RecordError, SeatError
from dragonlair.core.game import CHANCE, check_seat_range
from dragonlair.core.i18n import (
    all_codes,
    catalogue,
    export_json,
    has_message,
    languages,
    render,
    term,
)
from dragonlair.core.records import EntryError, Record, new_record, parse_entry, replay
from dragonlair.games import make_game

runner = CliRunner()
#: a field left unfilled in rendered text
LEFTOVER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")


@pytest.fixture
def fresh_catalogues() -> Iterator[None]:
    """Catalogues read anew in the test, and again after it (the cache is shared)."""
    catalogue.cache_clear()
    yield
    catalogue.cache_clear()


def test_english_and_german_are_there_english_first() -> None:
    langs = languages()
    assert langs[0] == "en" and "de" in langs


# ---------------------------------------------------------------- (a) codes in use
def test_every_code_in_the_sources_has_a_message_in_every_language() -> None:
    """Errors, events, reasons (string literals shaped like ``<game>.<area>.<name>``) and the
    terminal's ``tr(lang, "key")``: each needs a message in each language."""
    used = i18n_cmd.codes_in_source()
    assert "core.turn.not_your_move" in used and "cli.try_again" in used  # the scan sees them
    missing = [f"{code} ({lang}) at {where}" for code, where in sorted(used.items())
               for lang in languages() if not has_message(code, lang)]
    assert not missing, "codes with no message:\n" + "\n".join(missing)


def test_every_code_of_any_catalogue_is_in_every_language() -> None:
    missing = [f"{code} ({lang})" for code in sorted(all_codes())
               for lang in languages() if not has_message(code, lang)]
    assert not missing, "codes with no message:\n" + "\n".join(missing)


def test_the_source_scan_finds_codes_of_errors_events_and_tr_keys(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "games" / "demo").mkdir(parents=True)
    (pkg / "games" / "demo" / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(
        "raise IllegalActionError('demo.bid.too_high', rule='F5.1', have=3)\n"
        "emit('demo.turn.start', n=1)\n"
        "x = 'core.record.game_over' if a else 'demo.end.reason'\n"
        "tr(lang, 'seed', seed=1)\n"
        "tr(lang, 'one' if n == 1 else 'many')\n"
        "path = 'demo.md'; mod = 'dragonlair.games.demo.state'; other = 'zzz.a.b'\n")
    found = i18n_cmd.codes_in_source(pkg)
    assert set(found) == {"demo.bid.too_high", "demo.turn.start", "core.record.game_over",
                          "demo.end.reason", "cli.seed", "cli.one", "cli.many"}
    assert found["cli.seed"] == "pkg/mod.py:4"


# ---------------------------------------------------------------- (b) fields
def test_every_message_uses_the_fields_of_its_english_message() -> None:
    """A translation may only name params the code is given (the English message names all
    of them), and names the same ones: no fact is lost in a language."""
    english = catalogue("en")
    wrong = []
    for lang in languages()[1:]:
        for code, text in catalogue(lang).messages.items():
            if code in english.messages and text:
                mine, theirs = i18n_cmd.fields_of(text), i18n_cmd.fields_of(
                    english.messages[code])
                if mine != theirs:
                    wrong.append(f"{code} ({lang}): {sorted(mine)} vs en {sorted(theirs)}")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- (c) every entry renders
def sample_params(text: str | tuple[str, ...], n: int) -> dict[str, Any]:
    """A value for each field of a message, by the field's kind."""
    forms = (text,) if isinstance(text, str) else text
    params: dict[str, Any] = {}
    for form in forms:
        for _, field, spec, _ in string.Formatter().parse(form):
            if not field:
                continue
            name = field.partition(".")[0].partition("[")[0]
            if name == "n":
                params[name] = n
            elif spec == "seat":
                params[name] = 1
            elif spec and spec.startswith("list"):
                params[name] = ["a", "b"]
            elif spec == "error":
                params[name] = {"code": "core.record.game_over", "params": {}, "rule": "M2"}
            else:
                params[name] = 3
    return params


@pytest.mark.parametrize("lang", languages())
def test_every_entry_renders_with_sample_params(lang: str) -> None:
    bad = []
    for code in sorted(all_codes()):
        text = catalogue(lang).messages.get(code) or catalogue("en").messages[code]
        for n in (1, 2):
            out = render(code, sample_params(text, n), lang, names=["Ann", "Bob", "Cy"])
            if not out or LEFTOVER.search(out) or out.startswith(code):
                bad.append(f"{code}: {out!r}")
    assert not bad, "entries that do not render:\n" + "\n".join(bad)


def test_rendering_fills_kinds_seats_nested_errors_and_files() -> None:
    # without names a seat is counted from 1, as people count, in the reader's language
    assert render("core.turn.not_your_move", {"seat": 1}, "en") == "it is not Player 2's move"
    assert render("core.turn.not_your_move", {"seat": 0}, "de") == "Spieler 1 ist nicht am Zug"
    assert render("core.turn.not_your_move", {"seat": 2}, "en", ["Ann"]) == (
        "it is not Player 3's move")  # a seat beyond the names given
    assert render("core.turn.not_your_move", {"seat": 1}, "de", ["Ann", "Bob"]) == (
        "Bob ist nicht am Zug")
    assert render("core.turn.not_your_move", {"seat": CHANCE}, "de") == (
        "der Zufall ist nicht am Zug")
    nested = {"code": "core.record.game_over", "params": {}, "rule": "M2"}
    assert render("core.record.bad_action", {"step": 5, "entry": "'x'", "cause": nested},
                  "de") == "Aktion 5 ('x'): die Partie ist schon vorbei (Regel M2)"
    assert render("core.record.too_deep", {"source": None}, "en") == (
        "the record nests its JSON too deeply to read")
    assert render("core.record.too_deep", {"source": "a.json"}, "de").startswith("a.json ")
    # unknown codes show themselves and their params; unknown languages fall back to English
    assert render("demo.none", {"a": 1}) == "demo.none(a=1)"
    assert render("core.record.game_over", {}, "xx") == "the game is already over"
    assert term("core.nothing", "de") == "nichts"


# ---------------------------------------------------------------- (d) plurals
def test_plural_entries_choose_their_form_by_n() -> None:
    assert (points("en", 1), points("en", 2), points("en", 0)) == ("1 point", "2 points",
                                                                    "0 points")
    assert (points("de", 1), points("de", 2)) == ("1 Punkt", "2 Punkte")
    assert (coins("de", "amulet", 1), coins("de", "amulet", 3)) == ("1 rotes Amulett",
                                                                     "3 rote Amulette")
    assert (coins("en", "black", 1), coins("en", "black", 2)) == ("1 Black Magic coin",
                                                                   "2 Black Magic coins")
    assert render("core.record.not_over", {"n": 1}).endswith("after its 1 action the game "
                                                             "is not over")
    assert "nach 7 Aktionen" in render("core.record.not_over", {"n": 7}, "de")


def test_every_plural_entry_has_every_form_of_its_language() -> None:
    for lang in languages():
        cat = catalogue(lang)
        nplurals = len({cat.plural(n) for n in range(200)})
        for code, text in cat.messages.items():
            if isinstance(text, tuple):
                assert len(text) == nplurals and all(text), (lang, code)


# ---------------------------------------------------------------- the terminal's words
def test_tr_renders_the_terminal_words_from_the_catalogues() -> None:
    assert tr("en", "you") == "You" and tr("de", "you") == "Du"
    assert tr("de", "seed", seed=7) == "Startwert 7 (dieselbe Partie nochmal mit --seed 7)"
    assert tr("de", "bad_choice", text="x", max=3).startswith("'x' ist keine")  # !r works
    assert tr("fr", "try_again") == "Try again."  # a language without catalogues: English
    assert tr("en", "stopped", n=1) == "Stopped after 1 action without a result."
    assert tr("en", "stopped", n=12) == "Stopped after 12 actions without a result."
    assert colour_name("de", "yellow") == "gelb"
    assert has_message("cli.help_rules", "de")


def test_the_terminal_keeps_no_strings_of_its_own() -> None:
    import dragonlair.cli.i18n as cli_i18n

    assert not hasattr(cli_i18n, "STRINGS") and not hasattr(cli_i18n, "COLOUR_NAMES")


# ---------------------------------------------------------------- core errors as codes
def test_seat_errors_are_codes_with_params_in_both_languages() -> None:
    with pytest.raises(SeatError) as caught:
        check_seat_range(9, 4)
    err = caught.value
    assert (err.code, err.params) == ("core.seat.not_at_table",
                                      {"who": "p9", "players": 4, "last": 3})
    assert str(err) == "there is no seat p9 at a 4-player table (seats: 0 to 3)"
    assert err.message("de") == ("an einem Tisch mit 4 Plätzen gibt es keinen Platz p9 "
                                 "(Plätze: 0 bis 3)")
    with pytest.raises(SeatError) as caught:
        check_seat_range(True, 4, chance=True)
    assert caught.value.code == "core.seat.not_a_number_or_chance"
    assert caught.value.params["type"] == "bool"


def test_not_your_move_names_the_seat() -> None:
    state = make_game("master").new_initial_state()
    with pytest.raises(IllegalActionError) as caught:
        state.check_seat(0)  # the deal comes first: chance moves (M2)
    assert caught.value.code == "core.turn.not_your_move"
    assert caught.value.params == {"seat": 0}
    assert caught.value.message("de", ["Ann", "Bob"]) == "Ann ist nicht am Zug"


def test_record_errors_are_codes_and_keep_the_index() -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(b"{")
    assert caught.value.code == "core.record.not_json"
    assert caught.value.params["line"] == 1
    assert "kein gültiges JSON" in caught.value.message("de")
    game = make_game("master")
    record = new_record(game, [{"name": "a"}, {"name": "b"}])
    record.actions = ["chance: deal egg"] * 6  # M2: five Eggs in the deck
    with pytest.raises(RecordError) as caught:
        replay(record)
    err = caught.value
    assert err.index == 5 and err.code == "core.record.bad_action"
    assert err.params["cause"]["rule"] == "M2"
    json.dumps(err.to_json())  # JSON-ready: the cause is data, not an exception
    assert err.message("de").startswith("Aktion 5 ('chance: deal egg'): ")
    assert "(Regel M2)" in err.message("de")
    again = pickle.loads(pickle.dumps(err))
    assert again.index == 5 and str(again) == str(err)


def test_a_bad_entry_is_a_record_error_and_a_value_error() -> None:
    with pytest.raises(EntryError) as caught:
        parse_entry("p7: roll", 2)
    assert isinstance(caught.value, RecordError) and isinstance(caught.value, ValueError)
    assert caught.value.code == "core.record.entry_no_seat"
    assert str(caught.value) == "there is no seat p7 at a 2-player table"


# ---------------------------------------------------------------- (e) a language is files
def test_adding_a_language_is_adding_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           fresh_catalogues: None) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    fake = locale / "xx" / "LC_MESSAGES"
    fake.mkdir(parents=True)
    for po in (i18n.LOCALE_DIR / "en" / "LC_MESSAGES").glob("*.po"):
        text = po.read_text(encoding="utf-8").replace('"Language: en\\n"',
                                                      '"Language: xx\\n"')
        if po.stem == "cli":
            text = text.replace('msgid "cli.you"\nmsgstr "You"', 'msgid "cli.you"\nmsgstr "Xu"')
        (fake / po.name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    assert "xx" in languages()
    assert tr("xx", "you") == "Xu"
    assert tr("xx", "try_again") == "Try again."
    assert render("core.turn.not_your_move", {"seat": 2}, "xx") == "it is not Player 3's move"
    assert export_json("xx")["messages"]["cli.you"] == "Xu"


def test_check_lists_a_code_missing_in_a_language(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  fresh_catalogues: None) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    ok = runner.invoke(app, ["i18n", "check", "--no-source"])
    assert ok.exit_code == 0, ok.output
    core_de = locale / "de" / "LC_MESSAGES" / "core.po"
    core_de.write_text(core_de.read_text(encoding="utf-8").replace(
        'msgid "core.record.game_over"\nmsgstr "die Partie ist schon vorbei"',
        'msgid "core.record.game_over"\nmsgstr ""'), encoding="utf-8")
    catalogue.cache_clear()
    bad = runner.invoke(app, ["i18n", "check", "--no-source"])
    assert bad.exit_code == 1
    assert "core.record.game_over: no message in de" in bad.output


# ---------------------------------------------------------------- (f) the JSON export
@pytest.mark.parametrize("lang", languages())
def test_the_json_export_round_trips(lang: str, tmp_path: Path) -> None:
    data = export_json(lang)
    assert json.loads(json.dumps(data)) == data
    assert data["lang"] == lang and data["plural"] == catalogue(lang).plural_expr
    assert data["messages"] == {
        code: list(text) if isinstance(text, tuple) else text
        for code, text in catalogue(lang).messages.items() if text}
    out = tmp_path / f"{lang}.json"
    result = runner.invoke(app, ["i18n", "export", "--lang", lang, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8")) == data


def test_export_refuses_a_language_without_catalogues() -> None:
    result = runner.invoke(app, ["i18n", "export", "--lang", "xx"])
    assert result.exit_code == 2
