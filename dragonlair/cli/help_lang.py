"""The command line's help and its usage errors in the reader's language.

Every help text of the command line lives in the catalogues (``cli.po``): a command's as
``cli.cmdhelp_<path>`` (``cli.cmdhelp_db_upgrade``; the app's own ``cli.cmdhelp_app``), an
option's or argument's as ``cli.cmdhelp_<path>__<name>`` (``cli.cmdhelp_play__seat``; one
that several commands share as ``cli.cmdhelp__<name>``), and the words
typer and its click print around them ("Usage:", "Options", "Show this message and exit.",
an error's "No such option: ...") as ``cli.click_<key>``. :class:`LocalisedGroup`, the
app's group, chooses the language of one run before the command line is read
(:func:`help_lang`) and puts the texts in that language on the commands.

The language: ``--lang LANG`` on the command line where the command has that option, else
the environment's, as gettext reads it (:func:`env_lang`): the locale of messages is the
first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; ``LANGUAGE`` (a list such as
``de:fr``) comes before it unless that locale is ``C`` or ``POSIX``; a language without
catalogues falls back to English.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import typer
import typer.rich_utils
from typer import _click
from typer.core import TyperGroup

from dragonlair.core.i18n import DEFAULT_LANG, catalogue, languages

#: the language the help and the usage errors of this run are shown in
_current = [DEFAULT_LANG]


def current_lang() -> str:
    """The language of this run's help and usage errors (:class:`LocalisedGroup` sets it)."""
    return _current[0]


def set_lang(lang: str) -> None:
    _current[0] = lang


def words(key: str, lang: str | None = None) -> str:
    """The catalogue's template ``cli.<key>`` in ``lang`` (default: :func:`current_lang`),
    its fields not filled in (English where ``lang`` lacks it)."""
    for cat in (catalogue(lang or current_lang()), catalogue(DEFAULT_LANG)):
        text = cat.template(f"cli.{key}")
        if text is not None:
            return text
    return key


def known_lang(name: str) -> str | None:
    """The language with catalogues that a locale name means (``de_DE.UTF-8@euro``: ``de``),
    or None."""
    name = name.partition(".")[0].partition("@")[0]
    have = languages()
    for candidate in (name, name.partition("_")[0]):
        if candidate in have:
            return candidate
    return None


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of messages that the environment asks for, as gettext reads it: the
    locale is the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and not empty;
    under the locale ``C`` or ``POSIX`` (or none) messages are English, else ``LANGUAGE``,
    where set, lists the languages to try in order, and otherwise the locale's language is
    used. A language without catalogues is English."""
    env = os.environ if environ is None else environ
    locale = next((env[var] for var in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(var)), "")
    if locale.partition(".")[0] in ("", "C", "POSIX"):
        return DEFAULT_LANG
    wanted = [n for n in env.get("LANGUAGE", "").split(":") if n] or [locale]
    return next((lang for lang in map(known_lang, wanted) if lang is not None), DEFAULT_LANG)


def args_lang(args: Sequence[str]) -> str | None:
    """The language given by ``--lang LANG`` or ``--lang=LANG`` in ``args`` (up to ``--``),
    if it has catalogues."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return known_lang(args[i + 1])
        if arg.startswith("--lang="):
            return known_lang(arg.partition("=")[2])
    return None


def help_lang(args: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of a run's help: ``--lang`` first, else the environment's."""
    return args_lang(args) or env_lang(environ)


# ---------------------------------------------------------------- the commands' help texts
def help_code(path: Sequence[str], param: str | None = None) -> str:
    """The catalogue code of a command's help (``path``: the command's names below the app)
    or of one of its parameters' (``param``: its name); a parameter's text that several
    commands share is ``cmdhelp__<name>``."""
    key = "_".join(p.replace("-", "_") for p in path) or "app"
    return f"cmdhelp_{key}" + (f"__{param}" if param is not None else "")


def help_texts(command: _click.Command,
               path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str | None, Any]]:
    """Every command below ``command`` (itself included) and every parameter of each:
    ``(path, parameter name or None, the command or parameter)``."""
    out: list[tuple[tuple[str, ...], str | None, Any]] = [(path, None, command)]
    out += [(path, p.name, p) for p in command.params if p.name]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        out += help_texts(sub, (*path, name))
    return out


def localise(command: _click.Command, lang: str) -> None:
    """Put the help texts of ``lang`` on ``command`` and everything below it: each one the
    catalogue has (a text worked out when shown, such as a list of games, words itself)."""
    from dragonlair.cli.options import LazyText

    cat, english = catalogue(lang), catalogue(DEFAULT_LANG)
    for path, param, obj in help_texts(command):
        if isinstance(obj.help, LazyText):
            continue
        codes = ["cli." + help_code(path, param)]
        if param is not None:  # one text several commands share
            codes.append("cli." + f"cmdhelp__{param}")
        text = next((found for code in codes
                     for found in (cat.template(code), english.template(code)) if found), None)
        if text is not None:
            obj.help = text
            if param is None:
                obj.short_help = None
        if param is None:
            obj.options_metavar = words("click_options_metavar", lang)
            if isinstance(obj, TyperGroup):
                obj.subcommand_metavar = words("click_command_metavar", lang)


class LocalisedGroup(TyperGroup):
    """The app's group: before reading the command line, chooses the language of the help
    and of usage errors (:func:`help_lang`) and puts its texts on every command; English
    again once the run is over."""

    def main(self, args: Sequence[str] | None = None, *more: Any, **extra: Any) -> Any:
        import sys

        given = list(sys.argv[1:] if args is None else args)
        lang = help_lang(given)
        set_lang(lang)
        localise(self, lang)
        typer_words(lang)
        try:
            return super().main(given, *more, **extra)
        finally:  # the next run in this process (a test's) starts from English
            set_lang(DEFAULT_LANG)
            typer_words(DEFAULT_LANG)


# ---------------------------------------------------------------- typer's and click's words
#: typer's constants of its help screens and error boxes, and their catalogue keys
TYPER_CONSTANTS = {
    "ARGUMENTS_PANEL_TITLE": "click_arguments", "OPTIONS_PANEL_TITLE": "click_options",
    "COMMANDS_PANEL_TITLE": "click_commands", "ERRORS_PANEL_TITLE": "click_error",
    "DEFAULT_STRING": "click_default", "ENVVAR_STRING": "click_envvar",
    "REQUIRED_LONG_STRING": "click_required", "DEPRECATED_STRING": "click_deprecated",
    "ABORTED_TEXT": "click_aborted", "RICH_HELP": "click_try_help",
}


def typer_words(lang: str) -> None:
    """typer's own words in ``lang`` (its help screens and error boxes read them from
    module constants)."""
    for name, key in TYPER_CONSTANTS.items():
        setattr(typer.rich_utils, name, words(key, lang))


#: the messages of click's usage errors (as typer's copy of click words them) and of the
#: value checks typer leaves to pydantic, each with its catalogue key; ``{x}`` stands for
#: any text, each a field of the message in the catalogue. The first that fits wins.
ERROR_PATTERNS = (
    ("No such option: {name} (Possible options: {options})", "click_no_such_option_maybe"),
    ("No such option: {name}", "click_no_such_option"),
    ("No such command {name}. Did you mean {options}?", "click_no_such_command_maybe"),
    ("No such command {name}.", "click_no_such_command"),
    ("Missing command.", "click_missing_command"),
    ("Missing argument {name}.", "click_missing_argument"),
    ("Missing option {name}.", "click_missing_option"),
    ("Missing parameter {name}.", "click_missing_parameter"),
    ("Invalid value for {name}: {message}", "click_invalid_value_for"),
    ("Invalid value: {message}", "click_invalid_value"),
    ("Got unexpected extra argument(s) ({args})", "click_extra_args"),
    ("Option {name} does not take a value.", "click_no_value"),
    ("Option {name} requires an argument.", "click_needs_value"),
    ("Option {name} requires {n} arguments.", "click_needs_values"),
    ("{value} is not one of {choices}.", "click_not_one_of"),
    ("Value {value} is not a valid {kind}.", "click_not_valid"),
    ("Input should be a valid integer, unable to parse string as an integer", "click_int"),
    ("Input should be a valid integer, got a number with a fractional part", "click_int"),
    ("Input should be a valid integer", "click_int"),
    ("Input should be a valid number, unable to parse string as a number", "click_number"),
    ("Input should be a valid number", "click_number"),
    ("Input should be a valid boolean, unable to interpret input", "click_bool"),
    ("Input should be greater than or equal to {n}", "click_at_least"),
    ("Input should be less than or equal to {n}", "click_at_most"),
    ("Input should be greater than {n}", "click_above"),
    ("Input should be less than {n}", "click_below"),
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    def regex(template: str) -> re.Pattern[str]:
        parts = re.split(r"\{(\w+)\}", template)
        body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                       for i, p in enumerate(parts))
        return re.compile(body, re.DOTALL)

    return tuple((regex(template), key) for template, key in ERROR_PATTERNS)


def error_words(message: str, lang: str | None = None) -> str:
    """A usage error's message as click words it, in ``lang`` (default: :func:`current_lang`):
    the catalogue's wording of the first of :data:`ERROR_PATTERNS` that fits, its parts in
    ``lang`` too; a message that none fits, as it is."""
    lang = lang or current_lang()
    if lang == DEFAULT_LANG:
        return message
    for pattern, key in _compiled():
        match = pattern.fullmatch(message)
        if match is not None:
            fields = {name: error_words(value, lang) for name, value in match.groupdict().items()}
            try:
                return words(key, lang).format(**fields)
            except (KeyError, IndexError, ValueError):
                return message
    return message


def _wrap(cls: type[Any], name: str, change: Callable[..., Any]) -> None:
    original = cls.__dict__[name]

    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        return change(original(self, *args, **kwargs))

    wrapped.__doc__ = original.__doc__
    setattr(cls, name, wrapped)


def _help_option(option: Any) -> Any:
    if option is not None:
        option.help = words("click_help_option")
    return option


def _install() -> None:
    """Route click's own words through the catalogue: the messages of its usage errors,
    the help option's text, and the usage line's "Usage:" (identical in English)."""
    from typer._click import exceptions, formatting
    from typer.exceptions import TyperException

    for cls in (TyperException, exceptions.BadParameter,
                exceptions.MissingParameter, exceptions.NoSuchOption, exceptions.FileError):
        _wrap(cls, "format_message", error_words)
    _wrap(_click.Command, "get_help_option", _help_option)
    write_usage = formatting.HelpFormatter.write_usage

    def localised_usage(self: formatting.HelpFormatter, prog: str, args: str = "",
                        prefix: str | None = None) -> None:
        write_usage(self, prog, args, words("click_usage") + " " if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = localised_usage  # type: ignore[method-assign]


_install()
