"""A game's messages are found through its plugin (docs/i18n.md, Layout): a game installed as
its own distribution ships its ``.po`` files next to its plugin (or in the folder the plugin
names), and its codes render in every interface like a built-in game's."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dragonlair.games as registry
from dragonlair.cli.main import app
from dragonlair.core import i18n
from dragonlair.core.errors import IllegalActionError
from dragonlair.core.i18n import catalogue, export_json, languages, render

runner = CliRunner()
#: installs a throwaway game: ``install(package, locale_dir, messages)``
Install = Callable[..., None]

HEADER = '''msgid ""
msgstr ""
"Language: {lang}\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

'''
MESSAGES = {
    "en": {"tdice.roll.too_many": "{seat:seat} cannot keep {n} dice: only {have} rolled"},
    "de": {"tdice.roll.too_many": "{seat:seat} kann nicht {n} Würfel behalten: nur {have} "
                                  "geworfen"},
}


def _clear() -> None:
    registry.plugin.cache_clear()
    registry.locale_dir.cache_clear()
    catalogue.cache_clear()


def _write_game(root: Path, package: str, locale: str | None,
                messages: dict[str, dict[str, str]]) -> None:
    """A throwaway game distribution: Farkle's plugin under a new id, and its catalogues."""
    pkg = root / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "plugin.py").write_text(
        "from dataclasses import replace\n"
        "from dragonlair.games.farkle.plugin import PLUGIN as FARKLE\n"
        f"PLUGIN = replace(FARKLE, info=replace(FARKLE.info, id={package!r}, name='Test dice'),"
        f" locale_dir={locale!r})\n", encoding="utf-8")
    folder = pkg / (locale or "locale")
    for lang, entries in messages.items():
        out = folder / lang / "LC_MESSAGES"
        out.mkdir(parents=True)
        body = "".join(f'msgid "{code}"\nmsgstr "{text}"\n\n' for code, text in entries.items())
        (out / f"{package}.po").write_text(HEADER.format(lang=lang) + body, encoding="utf-8")


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """Installs a throwaway game as an entry point of ``dragonlair.games``."""
    installed: list[str] = []

    def do(package: str = "tdice", locale: str | None = None,
           messages: dict[str, dict[str, str]] = MESSAGES) -> None:
        _write_game(tmp_path, package, locale, messages)
        entry = EntryPoint(name=package, value=f"{package}.plugin:PLUGIN",
                           group=registry.ENTRY_POINT_GROUP)
        monkeypatch.setattr(registry, "_third_party", lambda: {package: entry})
        installed.append(package)
        _clear()

    monkeypatch.syspath_prepend(str(tmp_path))
    yield do
    monkeypatch.undo()
    for name in [m for m in sys.modules if m.partition(".")[0] in installed]:
        del sys.modules[name]
    _clear()


def test_built_in_games_ship_their_catalogues_next_to_their_plugin() -> None:
    for game in ("fist", "master", "farkle"):
        folder = registry.locale_dir(game)
        assert folder == Path(registry.__file__).resolve().parent / game / "locale"
        for lang in ("en", "de"):
            assert (folder / lang / "LC_MESSAGES" / f"{game}.po").is_file()
        assert not (i18n.LOCALE_DIR / "en" / "LC_MESSAGES" / f"{game}.po").exists()
    assert render("fist.bid.exceeds_unspent", {"seat": 1, "bid": 5, "coin": "red", "have": 3},
                  "de").startswith("Spieler 2 kann nicht 5")


def test_an_installed_game_renders_its_own_messages(install: Install) -> None:
    install()
    assert registry.locale_dir("tdice") is not None
    err = IllegalActionError("tdice.roll.too_many", rule="T1", seat=0, n=4, have=3)
    assert err.message("en", ["Ann"]) == "Ann cannot keep 4 dice: only 3 rolled (rule T1)"
    assert err.message("de", ["Ann"]).startswith("Ann kann nicht 4 Würfel behalten")
    assert export_json("de")["messages"]["tdice.roll.too_many"] == MESSAGES["de"][
        "tdice.roll.too_many"]
    assert languages() == ("en", "de")
    ok = runner.invoke(app, ["i18n", "check", "--no-source"])
    assert ok.exit_code == 0, ok.output


def test_a_plugin_may_name_its_folder_and_check_sees_a_missing_translation(
        install: Install) -> None:
    install("tdice2", "messages", {
        "en": {"tdice2.end.won": "{seat:seat} won"}, "de": {"tdice2.end.won": ""}})
    assert registry.locale_dir("tdice2") == Path(sys.modules["tdice2.plugin"].__file__ or ""
                                                 ).parent / "messages"
    # the English message, the fallback; the seat counted from 1 in the reader's language
    assert render("tdice2.end.won", {"seat": 1}, "de") == "Spieler 2 won"
    bad = runner.invoke(app, ["i18n", "check", "--no-source"])
    assert bad.exit_code == 1
    assert "tdice2.end.won: no message in de" in bad.output


def test_a_game_cannot_define_codes_outside_its_namespace(install: Install) -> None:
    install("tdice3", None, {"en": {"core.turn.not_your_move": "hijacked"}})
    with pytest.raises(ValueError, match="not of the game 'tdice3'"):
        catalogue("en")
