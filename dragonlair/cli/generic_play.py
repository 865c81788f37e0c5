"""Terminal play of any game, from its views alone: the session for a game whose plugin
names no terminal screen of its own (a game installed as its own package, docs/new-game.md).

It shows what the view gives in words, all through the catalogues: the public part's
``summary`` lines (``{code, params}``), the events since the player last looked, and the
legal actions, numbered, worded by the view's ``legal.choices`` (``{action, code, params}``)
where the game gives them, else their texts. The player types a number or an action's text;
the engine judges it, and a refusal is its own message. Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from dragonlair.cli.session import (
    InputProblem,
    Session,
    check_name,
    make_bots,
    pick_seed,
    plain_number,
    resolve_seats,
)
from dragonlair.core.errors import DragonlairError, OptionError
from dragonlair.core.game import JSON, Action, Game, State
from dragonlair.core.i18n import error_message, render, term


def choice_labels(view: JSON, legal: Sequence[Action], lang: str,
                  names: Sequence[str]) -> list[str]:
    """One label per legal action, in order: the view's wording where it gives one."""
    worded: dict[str, str] = {}
    described = view.get("legal") if isinstance(view.get("legal"), dict) else None
    for choice in (described or {}).get("choices", []) if described else []:
        if isinstance(choice, dict) and "action" in choice and "code" in choice:
            worded[str(choice["action"])] = render(choice["code"], choice.get("params"),
                                                   lang, names)
    return [worded.get(str(a), str(a)) for a in legal]


def summary_lines(view: JSON, lang: str, names: Sequence[str]) -> list[str]:
    """The public part's ``summary`` in words (empty where the game gives none)."""
    public = view.get("public")
    lines = public.get("summary", []) if isinstance(public, dict) else []
    return [render(line["code"], line.get("params"), lang, names) for line in lines
            if isinstance(line, dict) and "code" in line]


class GenericSession(Session[Game, State]):
    """A game at the terminal, drawn from its views (see the module docs)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # bots by the game's name for them (<game>.ui.bot.<id>), numbered where they repeat
        game_id = self.game.info.id
        labels = {s: term(f"{game_id}.ui.bot.{k}", self.lang,
                          fallback=term(f"web.bot.{k}", self.lang, fallback=k))
                  for s, k in enumerate(self.kinds) if s in self.bots}
        for s, label in labels.items():
            twins = sum(1 for other in labels.values() if other == label)
            self.names[s] = f"{label} #{s + 1}" if twins > 1 else label  # as session.py
        # the events each human has been shown, and the ones told to the table as they come
        self.seen: dict[int, int] = {}
        self.told = 0

    def viewer(self) -> int | None:
        """Whose events are told as they happen: the one human's, else the public ones (a
        hot-seat table or an all-bot table)."""
        return self.humans[0] if len(self.humans) == 1 else None

    def event_lines(self, seat: int | None, since: int) -> tuple[list[str], int]:
        lines = [render(e.code, e.params, self.lang, self.names)
                 for _, e in self.state.events_for(seat, since)]
        return lines, self.state.event_count

    def after_apply(self, seat: int, action: Action) -> None:
        if self.hotseat:  # each player catches up on their own screen (ask_human)
            return
        viewer = self.viewer()
        lines, self.told = self.event_lines(viewer, self.told)
        for line in lines:
            self.say(f"  {escape(line)}")
        if viewer is not None:
            self.seen[viewer] = self.told

    def ask_human(self, seat: int) -> Action:
        self.private_screen(seat)
        view = self.state.view(seat)
        legal = list(self.state.legal_actions(seat))
        if self.hotseat:  # what this player has not seen yet (the others' turns)
            lines, self.seen[seat] = self.event_lines(seat, self.seen.get(seat, 0))
            for line in lines[-12:]:
                self.say(f"  {escape(line)}")
        else:  # what has not been told yet (the game's first events)
            lines, self.told = self.event_lines(seat, self.told)
            for line in lines:
                self.say(f"  {escape(line)}")
        self.show_position(view)
        labels = choice_labels(view, legal, self.lang, self.names)
        head = render("cli.g_your_move", {"name": self.names[seat]}, self.lang)
        self.say(f"[bold]{escape(head)}[/]")
        for i, label in enumerate(labels, 1):
            self.say(f"  [bold]{i}[/] {escape(label)}")

        def show_help() -> None:
            self.say(escape(render("cli.g_help", {}, self.lang)))
            self.show_position(view)
            for i, label in enumerate(labels, 1):
                self.say(f"  [bold]{i}[/] {escape(label)}")

        def show_log() -> None:
            self.console.rule(f"[bold]{escape(render('cli.g_log_title', {}, self.lang))}[/]")
            for line in self.event_lines(seat, 0)[0]:
                self.say(escape(line))

        action = self.read_command(render("cli.g_prompt", {}, self.lang),
                                   lambda text: self.parse(seat, text, legal),
                                   on_help=show_help, on_log=show_log)
        self.end_private_screen()
        return action

    def show_position(self, view: JSON) -> None:
        for line in summary_lines(view, self.lang, self.names):
            self.say(escape(line))

    def parse(self, seat: int, text: str, legal: Sequence[Action]) -> Action:
        """A number of the list, or an action's text, judged by the engine."""
        number = plain_number(text)
        if number is not None:
            if not 1 <= number <= len(legal):
                raise InputProblem(render("cli.g_not_a_choice",
                                          {"n": number, "most": len(legal)}, self.lang))
            return legal[number - 1]
        try:
            action = self.game.parse_action(text)
            if action not in legal:  # the engine's own reason why not
                self.state.clone().apply(seat, action)
        except DragonlairError as exc:
            raise InputProblem(error_message(exc.to_json(), self.lang, self.names)) from exc
        return action

    def show_end(self) -> None:
        outcome = self.state.outcome()
        if outcome is None:
            return
        self.console.rule(f"[bold]{escape(render('cli.result_head', {}, self.lang))}[/]")
        self.say(escape(outcome.message(self.lang, self.names)))
        self.show_position(self.state.view(None))
        for s, score in enumerate(outcome.scores):
            self.say(escape(render("cli.g_score", {"name": self.names[s], "score": f"{score:g}",
                                                   "place": outcome.placings[s]}, self.lang)))

    def end_log(self) -> tuple[str, Sequence[str]] | None:
        viewer = self.viewer()
        return (render("cli.g_log_title", {}, self.lang),
                [escape(line) for line in self.event_lines(viewer, 0)[0]])


def play_generic(game_id: str, *, players: int | None, seats: list[str], seed: int | None,
                 lang: str, options: dict[str, Any], save: Path | None, console: Console,
                 name: str | None = None) -> int:
    """Play one game of ``game_id`` in the terminal from its views; the exit code."""
    from dragonlair.games import make_game, plugin

    p = plugin(game_id)
    info = p.info
    declares_players = any(spec.name == "players" for spec in info.options)
    default = next((spec.default for spec in info.options if spec.name == "players"),
                   info.min_players)
    count = len(seats) if seats else (default if players is None else players)
    if not info.min_players <= count <= info.max_players:
        raise OptionError("cli.g_players", game=render(f"{game_id}.game.name", {}, lang),
                          min=info.min_players, max=info.max_players, n=count)
    kinds = resolve_seats(players, seats, lang, allowed=(info.min_players, info.max_players),
                          default_players=default, default_bot=p.default_bot,
                          players_error="g_players")
    name = check_name(name, kinds)
    table = {**options, "players": len(kinds)} if declares_players else dict(options)
    game = make_game(game_id, table)
    seed = pick_seed(seed)
    bots = make_bots(game_id, kinds, seed)
    session = GenericSession(game, game.new_initial_state(), kinds, bots, seed, lang,
                             console, save, name)
    return session.run()
