"""``--help`` in German: with ``--lang de``, or with the environment's language German
(``LANG``/``LC_ALL``/``LC_MESSAGES``/``LANGUAGE``, read as gettext reads them), every help
screen of the command line is German: the commands' and options' texts (from the
catalogues, ``cli.cmdhelp_*``) and typer's and click's own words around them ("Usage",
"Options", "Show this message and exit.", an error box's "No such option"). English stays
the default and unchanged. All in this one process, through click's test runner."""

from __future__ import annotations

import sys

import pytest
import typer.main
from typer.testing import CliRunner

from dragonlair.cli.help_lang import env_lang, help_lang, help_texts, localise, set_lang
from dragonlair.cli.main import app, main

runner = CliRunner()
#: a German environment, nothing else that names a language (the machine's own unset)
GERMAN = {"LANG": "de_DE.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None,
          "COLUMNS": "80"}
ENGLISH = {**GERMAN, "LANG": "C.UTF-8"}

#: words of typer's and click's help screens and of the app's help that must not be left in
#: a German one
ENGLISH_WORDS = ("Usage:", "Options", "Commands", "Arguments", "Show this message and exit",
                 "[default:", "[required]", "env var", "Install completion", "the game:",
                 "language:", "Play a game", "who holds", "database URL", "Error",
                 "for help")


def run(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env=env or ENGLISH, prog_name="dragonlair")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def no_english(out: str) -> None:
    left = [w for w in ENGLISH_WORDS if w in out]
    assert not left, (left, out)


def fits(out: str) -> None:
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, wide


# ---------------------------------------------------------------- which language
@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT"}, "de"),
    ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
    ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "en"),  # LC_ALL first
    ({"LC_ALL": "de_CH.UTF-8@euro", "LANG": "en_US"}, "de"),
    ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de"),  # LANGUAGE's list, in order
    ({"LANGUAGE": "de", "LANG": "C.UTF-8"}, "en"),  # ignored under the C locale, as gettext
    ({"LANGUAGE": "de"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),  # no catalogues: English
    ({"LANG": "POSIX"}, "en"),
    ({}, "en"),
])
def test_the_environments_language_as_gettext_reads_it(env: dict[str, str],
                                                        lang: str) -> None:
    assert env_lang(env) == lang


def test_lang_on_the_command_line_comes_first() -> None:
    de, en = {"LANG": "de_DE.UTF-8"}, {"LANG": "en_US.UTF-8"}
    assert help_lang(["play", "--lang", "de", "-h"], en) == "de"
    assert help_lang(["play", "--lang=de", "-h"], en) == "de"
    assert help_lang(["play", "--lang", "en", "-h"], de) == "en"
    assert help_lang(["play", "--lang", "xx", "-h"], de) == "de"  # unknown: the environment's
    assert help_lang(["play", "--", "--lang", "de"], en) == "en"


# ---------------------------------------------------------------- German help screens
def test_the_apps_help_in_german_from_the_environment() -> None:
    code, out = run("--help", env=GERMAN)
    assert code == 0
    assert "Aufruf: dragonlair [OPTIONEN] BEFEHL [ARGUMENTE]..." in out
    for words in ("Optionen", "Befehle", "Diese Hilfe zeigen und beenden.",
                  "Die Dragonlair-Spiele spielen", "Eine Partie im Terminal spielen",
                  "Die Vervollständigung für die aktuelle"):
        assert words in out, words
    no_english(out)
    fits(out)


def test_a_commands_and_a_nested_commands_help_in_german() -> None:
    code, out = run("play", "-h", env=GERMAN)
    assert code == 0 and "Aufruf: dragonlair play [OPTIONEN]" in out
    for words in ("Argumente", "das Spiel: farkle, fist", "[erforderlich]", "[Standard: en]",
                  "Sprache: en, de", "wer welchen Platz hat"):
        assert words in out, words
    no_english(out)
    fits(out)
    code, out = run("db", "upgrade", "--help", env=GERMAN)
    assert code == 0 and "Aufruf: dragonlair db upgrade [OPTIONEN]" in out
    assert "[Umgebungsvariable: DRAGONLAIR_DB]" in out and "Datenbank-URL" in out
    no_english(out)
    fits(out)
    code, out = run("i18n", "-h", env=GERMAN)  # a group below the app
    assert code == 0 and "Befehle" in out and "Nachrichtenkataloge" in out
    no_english(out)


def test_lang_de_makes_the_help_german_in_an_english_environment() -> None:
    code, out = run("learn", "--lang", "de", "-h")
    assert code == 0 and "das zu lernende Spiel: " in out and "Optionen" in out
    no_english(out)
    code, out = run("learn", "--lang", "en", "-h", env=GERMAN)  # and the other way round
    assert code == 0 and "the game to learn: " in out and "Usage: dragonlair learn" in out


def test_usage_errors_in_german() -> None:
    code, out = run("play", "fist", "--nope", env=GERMAN)
    assert code == 2 and "Unbekannte Option: --nope" in out and "Fehler" in out
    assert "dragonlair play -h" in out
    no_english(out)
    code, out = run("play", env=GERMAN)
    assert code == 2 and "Es fehlt das Argument 'game'." in out
    no_english(out)
    code, out = run("simulate", "fist", "--games", "x", env=GERMAN)
    assert code == 2 and "Ungültiger Wert für '--games': erwartet wird eine ganze Zahl" in out
    code, out = run("serve", "--port", "99999", env=GERMAN)
    assert code == 2 and "der Wert darf höchstens 65535 sein" in out
    code, out = run("pley", env=GERMAN)
    assert code == 2 and "Unbekannter Befehl 'pley'. Gemeint war vielleicht 'play'" in out


def test_the_entry_points_error_lines_in_german(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["dragonlair", "play", "fist", "--nope", "--lang", "de"])
    with pytest.raises(SystemExit) as done:
        main()
    err = capsys.readouterr().err
    assert done.value.code == 2
    first, then = err.splitlines()
    assert first == "Fehler: Unbekannte Option: --nope (in Frage kommen: --name)"
    assert then.startswith("Hilfe gibt es mit '") and then.endswith("play -h'.")


# ---------------------------------------------------------------- English unchanged
def test_english_stays_the_default_and_unchanged() -> None:
    code, out = run("--help")
    assert code == 0 and "Usage: dragonlair [OPTIONS] COMMAND [ARGS]..." in out
    for words in ("Options", "Commands", "Show this message and exit.",
                  "Play, replay, simulate and benchmark the Dragonlair games.",
                  "Install completion for the current"):
        assert words in out, words
    fits(out)
    code, out = run("play", "-h")
    assert code == 0 and "the game: farkle, fist" in out and "[default: en]" in out
    assert "who holds each seat, in order" in out and "[required]" in out
    code, out = run("play", "fist", "--nope")
    assert code == 2 and "No such option: --nope" in out and "Error" in out
    assert "Aufruf" not in out and "Fehler" not in out


# ---------------------------------------------------------------- every help text
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_command_and_option_has_a_help_text_without_backticks_or_hard_breaks(
        lang: str) -> None:
    """Each command and each of its options and arguments has its text in the catalogue of
    the language (German different from English), with no backtick (typer would print it)
    and no line break inside a paragraph (the terminal wraps)."""
    english = {(path, param): text for path, param, text in localised("en")}
    for path, param, text in localised(lang):
        assert isinstance(text, str)
        where = (" ".join(path), param)
        assert text.strip(), where
        assert "`" not in text, where
        for paragraph in text.split("\n\n"):
            assert "\n" not in paragraph.strip(), where
        if lang != "en":
            assert text != english[path, param], where


def localised(lang: str) -> list[tuple[tuple[str, ...], str | None, object]]:
    """Every command and parameter with its help text in ``lang`` (a game argument's list
    of games is worded when read: read here, in ``lang``)."""
    command = typer.main.get_command(app)
    localise(command, lang)
    set_lang(lang)
    try:
        return [(path, param, str(obj.help or "")) for path, param, obj in help_texts(command)]
    finally:
        set_lang("en")
