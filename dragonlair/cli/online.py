"""The terminal as a client of a game server: ``dragonlair play GAME --server URL``.

The server is the game master here: it holds the state, draws chance and runs the bots; the
terminal holds only its seat's view, as the server sends it (``welcome`` and ``update``
messages, docs/protocol.md, kept by :class:`dragonlair.client.TableConnection`). The game's
existing terminal screens draw that view: each online session below is the game's terminal
session (:mod:`dragonlair.games.fist.terminal.play`, :mod:`~dragonlair.games.master.terminal.play`,
:mod:`~dragonlair.games.farkle.terminal.play`) with its state-reading parts replaced by the server's
view. What the player types is read by the same parsers into canonical action text and sent
with the newest ``seq`` seen and an idempotency key; the server's refusal (the engine's code
and params, or a ``server.*`` code) is rendered in the player's language and the player tries
again. A dropped socket is reopened and resumed by the client; a session cookie kept in the
data folder lets ``--table`` bring the same player back to their seat.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape

from dragonlair.cli.i18n import tr
from dragonlair.cli.session import (
    HUMAN,
    InputProblem,
    QuitGame,
    quit_code,
    refusal_words,
    seat_number,
    seats_words,
    unique_names,
)
from dragonlair.client import Client, ConnectionLost, Refused, TableConnection, legal_texts
from dragonlair.client.client import MOVED_ON
from dragonlair.core.errors import DragonlairError
from dragonlair.core.events import Event
from dragonlair.core.game import JSON, Action
from dragonlair.core.i18n import render, seat_name
from dragonlair.core.plugin import load_path
from dragonlair.games import make_game, plugin
from dragonlair.games.farkle.actions import FarkleAction
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.farkle.terminal.play import FarkleSession
from dragonlair.games.farkle.terminal.play import choice_from_text as farkle_choice
from dragonlair.games.farkle.terminal.play import typed_action as farkle_typed
from dragonlair.games.farkle.terminal.screen import end_lines as farkle_end_lines
from dragonlair.games.farkle.terminal.screen import render_screen, who
from dragonlair.games.fist.actions import FistAction
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.terminal.play import FistSession, bid_text, parse_bid_words
from dragonlair.games.fist.terminal.play import choice_from_text as fist_choice
from dragonlair.games.fist.terminal.play import typed_action as fist_typed
from dragonlair.games.fist.terminal.screen import (
    EventLog,
    forced_words,
    render_table,
    result_lines,
    ui,
)
from dragonlair.games.master.game import MasterGame
from dragonlair.games.master.state import MasterAction
from dragonlair.games.master.terminal.play import SCREEN_TOLD, MasterSession, placement_from_text
from dragonlair.games.master.terminal.screen import end_lines, event_line
from dragonlair.games.master.terminal.screen import render_screen as master_screen

#: how long the terminal waits for news before it looks again (seconds)
POLL = 1.0


class Moved(Exception):
    """The position moved on while the player decided (a stale ``seq``, a turn taken over):
    draw the screen again from the newest view."""


class OnlineTable(Protocol):
    """What :func:`play_online` needs of a game's online session."""

    def play(self) -> int: ...


class OnlineMaker(Protocol):
    def __call__(self, game: Any, client: Client, conn: TableConnection, names: list[str],
                 lang: str, console: Console, save: Path | None) -> OnlineTable: ...


# ---------------------------------------------------------------- shared by the three games
class Online:
    """The online part of a session: the server's connection, the seat, the loop."""

    conn: TableConnection
    seat: int | None
    lang: str
    names: list[str]
    console: Console
    save: Path | None
    client: Client

    def setup_online(self, client: Client, conn: TableConnection, names: list[str]) -> None:
        self.client, self.conn, self.seat = client, conn, conn.seat
        self.names = names
        self.drops_told = 0

    def server_view(self) -> JSON:
        view = self.conn.view
        assert view is not None
        return view

    def send(self, text: str) -> None:
        """Send ``text`` (canonical action text) and wait for the view after it. A refusal
        is an :class:`InputProblem` in the player's language (they type again), or
        :class:`Moved` when the position moved on meanwhile."""
        try:
            self.conn.act(text)  # acknowledged, and the view after it taken in
        except Refused as exc:
            if exc.code in MOVED_ON:
                raise Moved from None
            raise InputProblem(refusal_words(exc, self.lang, self.names)) from None

    def play(self) -> int:
        """Play (or watch) the table to its end; the exit code (0: finished, 1: left)."""
        lang = self.lang
        self.tell(escape(tr(lang, "seats_line", seats=seats_words(self.names))))
        try:
            while True:
                if self.conn.drops > self.drops_told:
                    self.drops_told = self.conn.drops
                    self.tell(f"[yellow]{escape(tr(lang, 'online_reconnected'))}[/]")
                if self.conn.finished:
                    self.tell_news()
                    self.finish()
                    saved = self.write_online_record()
                    return 0 if saved else 1
                if self.conn.my_turn() and self.seat is not None:
                    self.tell_clock()
                    with contextlib.suppress(Moved):
                        self.my_turn(self.seat)
                    continue
                self.tell_news()
                self.conn.recv(POLL)
        except (EOFError, KeyboardInterrupt, QuitGame) as exc:
            self.console.print()
            self.tell(f"[bold red]{escape(tr(lang, 'online_left'))}[/]")
            return quit_code(exc)
        except ConnectionLost as exc:
            self.tell(f"[bold red]{escape(tr(lang, 'online_lost', table=str(exc)))}[/]")
            return 1

    def tell(self, markup: str) -> None:
        self.console.print(markup, highlight=False)

    def tell_clock(self) -> None:
        """At a table with a clock: the time this seat has left (the server judges it)."""
        left = self.conn.time_left()
        if left is not None:
            said = tr(self.lang, "online_clock", time=clock_text(left))
            self.tell(f"[bold yellow]{escape(said)}[/]")

    def write_online_record(self) -> bool:
        """With ``--save``: the finished table's record, as the server keeps it."""
        if self.save is None:
            return True
        try:
            record = self.client.record(self.conn.table_id)
            self.save.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
        except (OSError, Refused) as exc:
            why = tr(self.lang, "save_failed", path=self.save, why=exc)
            self.tell(f"[bold red]{escape(why)}[/]")
            return False
        self.tell(escape(tr(self.lang, "saved", path=self.save)))
        return True

    # what each game supplies (from its terminal session)
    def tell_news(self) -> None:
        """Tell the events that arrived since the last look (while others move)."""
        raise NotImplementedError

    def my_turn(self, seat: int) -> None:
        """This seat's turn: its screen, its move read and sent (the session's
        ``ask_human``)."""
        raise NotImplementedError

    def finish(self) -> None:
        """The game is over: the session's ``show_end`` and ``end_prompt``."""
        raise NotImplementedError


def clock_text(seconds: float) -> str:
    """``4:05`` or ``1:02:03``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def kinds_for(seat: int | None, players: int) -> list[str]:
    """The session's seat kinds: this terminal's seat is the one human (others are played
    elsewhere: their names come from the server)."""
    return [HUMAN if s == seat else "remote" for s in range(players)]


# ---------------------------------------------------------------- Fist of Dragonstones
class OnlineFist(Online, FistSession):
    """Fist of Dragonstones from the server's view (sealed bids, decisions from a menu)."""

    def __init__(self, game: FistGame, client: Client, conn: TableConnection,
                 names: list[str], lang: str, console: Console, save: Path | None) -> None:
        FistSession.__init__(self, game, kinds_for(conn.seat, game.num_players), {}, 0, lang,
                             console, save)
        self.setup_online(client, conn, names)
        self.told_lines = 0

    def log(self, viewer: int | None) -> EventLog:
        if viewer not in self.event_logs:
            self.event_logs[viewer] = EventLog(self.game, self.lang, viewer, self.names)
        log = self.event_logs[viewer]
        log.feed_view(self.server_view())
        return log

    def view(self, viewer: int | None) -> JSON:
        self.log(viewer)
        return self.server_view()

    def my_turn(self, seat: int) -> None:
        self.ask_human(seat)

    def finish(self) -> None:
        self.show_end()
        self.end_prompt()

    def tell_news(self) -> None:
        log = self.log(self.seat)
        for line in log.lines[self.told_lines:]:
            self.say(line)
        self.told_lines = len(log.lines)
        if self.seat is not None:
            self.seen[self.seat] = len(log.lines)

    def ask_human(self, seat: int) -> FistAction:
        lang = self.lang
        view = self.view(seat)
        legal = legal_texts(view)
        if len(legal) == 1:  # nothing to decide: send it, say so on the next screen
            action = self.game.parse_action(legal[0])
            self.notices[seat].append(ui(lang, "forced", what=forced_words(
                self.game, view, action, lang, self.names)))
            try:
                self.send(legal[0])
            except InputProblem as problem:  # pragma: no cover - the server's own legal move
                raise Moved from problem
            return action
        self.private_screen(seat)
        seen = self.seen.get(seat, 0)
        log = self.log(seat)

        def below() -> None:  # what follows the table, the prompt's row aside
            self.tell_notices(seat)
            self.prompt_head(seat, view)

        rows = self.screen_rows(below)
        render_table(self.console, self.game, view, self.names, lang, log.lines,
                     summary=self.summary_since(log, seen), notes=log.private, rows=rows)
        self.seen[seat] = self.told_lines = len(log.lines)
        self.tell_notices(seat)
        self.notices[seat].clear()
        return self.prompt(seat, view)

    def parse_move(self, seat: int, text: str, *, sealed: bool, tiebreak: bool,
                   options: Sequence[FistAction],
                   choices: Sequence[JSON] | None = None) -> FistAction:
        """The typed move as the engine's text (a bid written in the view's form, a decision
        matched against the view's choices), sent: the server's engine judges it."""
        if sealed:
            words = text.lower().split()
            if not words:
                raise InputProblem(tr(self.lang, "empty_input"))
            legal = self.server_view().get("legal") or {}
            canon = text if words[0] in ("bid", "silver") else bid_text(
                parse_bid_words(text, self.lang, tiebreak=tiebreak), self.lang,
                tiebreak=tiebreak, form=legal.get("form"))
            try:
                action = self.game.parse_action(canon)
            except DragonlairError as err:
                raise InputProblem(refusal_words(err, self.lang, self.names)) from None
        else:
            try:
                action = fist_choice(self.game, text, options, self.lang, names=self.names,
                                     choices=choices)
            except InputProblem as problem:
                try:  # an action that is no choice now: the server's engine says why
                    typed = fist_typed(self.game, text.strip(), self.lang, self.names)
                except InputProblem:
                    raise problem from None
                if typed is None:
                    raise problem from None
                action = typed
        self.send(str(action))
        return action

    def show_end(self) -> None:
        lang = self.lang
        view = self.view(self.seat)
        log = self.log(self.seat)

        def result() -> None:
            self.console.rule(f"[bold]{tr(lang, 'result_head')}[/]")
            for line in result_lines(view, self.names, lang, int(view["turn"])):
                self.say(line)

        render_table(self.console, self.game, view, self.names, lang, log.lines,
                     notes=log.private if self.seat is not None else None,
                     rows=self.screen_rows(result, extra=1 if self.save else 0))
        result()


# ---------------------------------------------------------------- Dragon Master
class OnlineMaster(Online, MasterSession):
    """Dragon Master from the server's view: the grid from this seat's side."""

    def __init__(self, game: MasterGame, client: Client, conn: TableConnection,
                 names: list[str], lang: str, console: Console, save: Path | None) -> None:
        MasterSession.__init__(self, game, kinds_for(conn.seat, 2), {}, 0, lang, console, save)
        self.setup_online(client, conn, names)
        self.viewer = conn.seat

    def my_turn(self, seat: int) -> None:
        self.ask_human(seat)

    def finish(self) -> None:
        self.show_end()
        self.end_prompt()

    def tell_news(self) -> None:
        view = self.server_view()
        new = view["events"][self.told:]
        self.told = len(view["events"])
        for event in new:
            if event["code"] in SCREEN_TOLD or (self.seat is not None
                                                and event["code"] == "master.move.placed"
                                                and event["params"].get("seat") == self.seat):
                continue
            self.say(event_line(event, self.names, self.lang))
        public = view["public"]
        if len(public["rounds"]) > self.rounds_told:
            self.rounds_told = len(public["rounds"])
            self.tell_round_end(public)

    def tell_round_end(self, public: JSON) -> None:
        if self.game.match and not self.conn.finished:
            super().tell_round_end(public)  # with its pause before the next round
            return
        humans, self.humans = self.humans, []  # the last round: no pause, the end follows
        try:
            super().tell_round_end(public)
        finally:
            self.humans = humans

    def ask_human(self, seat: int) -> MasterAction:
        self.tell_news()
        view = self.server_view()
        self.private_screen(seat)
        master_screen(self.console, view, self.names, self.lang,
                      rows=self.screen_rows(lambda: self.say(self.place_head(seat, view, []))))
        return self.prompt(seat, view, [])

    def parse_move(self, seat: int, text: str, view: JSON,
                   legal: Sequence[Action]) -> MasterAction:
        canon = placement_from_text(text, view, self.lang, legal)
        action = self.game.parse_action(canon)
        self.send(str(action))
        assert isinstance(action, MasterAction)
        return action

    def show_end(self) -> None:
        view = self.server_view()
        self.console.rule(f"[bold]{tr(self.lang, 'result_head')}[/]")
        for line in end_lines(view, self.names, self.lang, self.game.match,
                              len(view["public"]["rounds"])):
            self.say(line)

    def end_log(self) -> tuple[str, list[str]] | None:
        lines = [event_line(e, self.names, self.lang) for e in self.server_view()["events"]]
        return (render("master.ui.log_title", {}, self.lang), lines) if lines else None


# ---------------------------------------------------------------- Dragon Farkle
class OnlineFarkle(Online, FarkleSession):
    """Dragon Farkle from the server's view: every decision from a numbered menu."""

    def __init__(self, game: FarkleGame, client: Client, conn: TableConnection,
                 names: list[str], lang: str, console: Console, save: Path | None) -> None:
        FarkleSession.__init__(self, game, kinds_for(conn.seat, game.num_players), {}, 0,
                               lang, console, save)
        self.setup_online(client, conn, names)
        self.narrator.names = list(names)
        self.narrator.shown_names = [who(s, names) for s in range(len(names))]
        self.told = 0

    def lines(self) -> list[str]:
        return [self.narrator.event_words(Event(e["code"], e["params"], e.get("to")))
                for e in self.server_view()["events"]]

    def log_for(self, viewer: int | None) -> list[str]:
        return self.lines()

    def my_turn(self, seat: int) -> None:
        self.ask_human(seat)

    def finish(self) -> None:
        self.show_end()
        self.end_prompt()

    def tell_news(self) -> None:
        lines = self.lines()
        for line in lines[self.told:]:
            self.say(line)
        self.told = len(lines)
        if self.seat is not None:
            self.seen[self.seat] = len(lines)

    def ask_human(self, seat: int) -> FarkleAction:
        view = self.server_view()
        legal = [self.game.parse_action(t) for t in legal_texts(view)]
        self.private_screen(seat, self.defend_note(seat, view))
        lines = self.lines()
        seen = self.seen.get(seat, 0)
        render_screen(self.console, self.game, view, self.names, self.lang, lines[seen:],
                      lines[:seen], rows=self.screen_rows(lambda: self.menu(seat, view, legal)))
        self.seen[seat] = self.told = len(lines)
        return self.prompt(seat, view, legal)

    def parse_move(self, seat: int, text: str, legal: Sequence[FarkleAction],
                   moves: Sequence[JSON] | None = None) -> FarkleAction:
        try:
            action = farkle_choice(self.game, text, legal, self.lang, names=self.names,
                                   moves=moves)
        except InputProblem as problem:
            try:  # an action that is no choice now: the server's engine says why
                typed = farkle_typed(self.game, text, self.lang, self.names)
            except InputProblem:
                raise problem from None
            if typed is None:
                raise problem from None
            action = typed
        self.send(action.text)
        return action

    def show_end(self) -> None:
        lang = self.lang
        view = self.server_view()
        lines = self.lines()
        seen = self.seen.get(self.seat, 0) if self.seat is not None else 0

        def result() -> None:
            self.console.rule(f"[bold]{tr(lang, 'result_head')}[/]")
            for line in farkle_end_lines(view, self.names, lang, int(view["turn"])):
                self.say(line)

        render_screen(self.console, self.game, view, self.names, lang, lines[seen:],
                      lines[:seen], rows=self.screen_rows(result, extra=1 if self.save else 0))
        result()



# ---------------------------------------------------------------- signing in, the table
def sessions_file() -> Path:
    """Where the terminal keeps its session cookies, one per server (``$DRAGONLAIR_DATA``,
    default ``~/.local/share/dragonlair``)."""
    base = os.environ.get("DRAGONLAIR_DATA") or str(Path.home() / ".local" / "share"
                                                    / "dragonlair")
    return Path(base) / "client-sessions.json"


def _load_sessions() -> dict[str, str]:
    try:
        data = json.loads(sessions_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def sign_in(server: str, name: str | None, lang: str | None = None) -> Client:
    """A client signed in to ``server``: the session kept from last time under this server
    and ``name`` if it is still good (the same player, so ``--table`` finds their seat; one
    kept without a name is taken over, renamed, by the first name given), else a new guest
    (named ``name``, or given a friendly name by the server in ``lang``)."""
    sessions = _load_sessions()
    key = client_key(server, name)
    kept = sessions.get(key)
    if kept is None and key != client_key(server):
        # a session kept without a name goes to the first name given (and is then that
        # name's alone: another terminal under another name is another player)
        kept = sessions.pop(client_key(server), None)
    client = Client(server, session=kept)
    if client.session:
        try:
            client.me()
            if name and client.user is not None and client.user["display_name"] != name:
                client.rename(name)
        except Refused:
            client.http.cookies.clear()
            client.user = None
    if client.user is None:
        client.http.cookies.clear()
        client.guest(name, lang=lang)
    token = client.session
    if token:
        sessions[key] = token
        path = sessions_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(sessions, indent=1), encoding="utf-8")
            path.chmod(0o600)
        except OSError:
            pass
    return client


def client_key(server: str, name: str | None = None) -> str:
    """The key of a kept session: one per server and ``--name``, so that two terminals on
    one machine playing under two names are two players (without ``--name``: the server's
    one unnamed session)."""
    base = server.rstrip("/")
    return f"{base} name={name.strip()}" if name and name.strip() else base


def table_seats(seats: Sequence[str], players: int) -> list[JSON]:
    """The seats of a new table: this player in the first ``human`` seat (seat 0 when no
    ``--seat`` is given), other ``human`` seats open for others to join, bots by name (the
    game's default bot when none is named)."""
    kinds = [s.strip() for s in seats] or [HUMAN] + ["bot"] * (players - 1)
    out: list[JSON] = []
    for kind in kinds:
        if kind.lower() == HUMAN:
            out.append({"kind": "open" if any(s["kind"] == "me" for s in out) else "me"})
        elif kind in ("bot", ""):
            out.append({"kind": "bot"})
        else:
            out.append({"kind": "bot", "bot": kind})
    return out


def seat_names(table: JSON, mine: int | None, lang: str) -> list[str]:
    """Each seat's name as the server gives it, your own included (the game's lines are in
    the third person: "Anna wins", never "You wins"); a seat without one by its number from
    1 ("Player 3"); names several seats share numbered (:func:`unique_names`)."""
    names = []
    for seat in table["seats"]:
        if seat["seat"] == mine and not seat.get("name"):
            names.append(tr(lang, "you"))
        elif seat["kind"] == "bot":
            names.append(str(seat.get("bot") or "bot"))
        else:
            names.append(str(seat.get("name") or seat_name(seat["seat"], None, lang)))
    return unique_names(names)


def open_seats(table: JSON) -> list[int]:
    return [s["seat"] for s in table["seats"] if s["kind"] == "open"]


class ServerFailure(Exception):
    """The server could not be reached or did not answer as a Dragonlair server (``code``
    1), or refused what was asked (a table it does not know, a bot it does not have: 2):
    ``str()`` is one line in the player's language, the command fails with it."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def server_url_problem(server: str) -> bool:
    """Whether ``server`` is no ``http(s)://HOST[:PORT]`` address (a usage error)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(server)
        _ = parts.port  # a port that is no number, or out of range, raises here
    except ValueError:
        return True
    return parts.scheme not in ("http", "https") or not parts.hostname


def unreachable(server: str, lang: str, exc: BaseException) -> ServerFailure:
    """The failure of a connection to ``server`` that broke with ``exc``, in one line."""
    if isinstance(exc, json.JSONDecodeError):  # an answer that is no JSON: not our server
        return ServerFailure(tr(lang, "err_server_answer", url=server))
    lines = str(exc).strip().splitlines()
    why = lines[0] if lines else type(exc).__name__
    return ServerFailure(tr(lang, "err_server_down", url=server, why=why))


def play_online(game_id: str, *, server: str, table: str | None, name: str | None,
                players: int | None, seats: Sequence[str], lang: str, options: JSON,
                save: Path | None, console: Console) -> int:
    """``dragonlair play GAME --server URL [--table ID]``; the exit code (0: finished).
    Raises :class:`ServerFailure` when the server cannot be reached (or is none)."""
    import httpx
    from websockets.exceptions import WebSocketException

    broken = (httpx.HTTPError, OSError, WebSocketException, ConnectionLost, json.JSONDecodeError)
    try:
        return _play_online(game_id, server=server, table=table, name=name, players=players,
                            seats=seats, lang=lang, options=options, save=save,
                            console=console)
    except broken as exc:
        raise unreachable(server, lang, exc) from None


def _play_online(game_id: str, *, server: str, table: str | None, name: str | None,
                 players: int | None, seats: Sequence[str], lang: str, options: JSON,
                 save: Path | None, console: Console) -> int:
    try:
        client = sign_in(server, name, lang)
    except Refused as exc:
        raise ServerFailure(exc.message(lang), 2) from None
    user = client.user or {}
    say = console.print
    try:
        if table is None:
            n = players or len(seats) or make_game(game_id, options).num_players
            info = client.create_table(game_id, options, table_seats(seats, n))
            table = str(info["id"])
            say(escape(tr(lang, "online_created", table=table, game=game_id)), highlight=False)
        info = client.table(table)
        mine = next((s["seat"] for s in info["seats"] if s.get("user_id") == user.get("id")
                     and s["kind"] == "human"), None)
        if mine is None and info["status"] == "open" and open_seats(info):
            info = client.join(table)
        if info["status"] == "open":
            if open_seats(info):
                say(escape(tr(lang, "online_invite", game=info["game"], server=server,
                              table=table)), highlight=False)
            while info["status"] == "open" and open_seats(info):
                time.sleep(POLL)
                info = client.table(table)
            if info["status"] == "open":
                try:
                    client.start(table)
                except Refused as exc:
                    if exc.code != "server.table.not_open":
                        raise
        game = make_game(info["game"], info["options"])
        conn = client.connect(table)
    except Refused as exc:
        raise ServerFailure(exc.message(lang), 2) from None
    info = client.table(table)
    if conn.seat is None:
        say(escape(tr(lang, "online_spectator", table=table)), highlight=False)
    else:
        say(escape(tr(lang, "online_seated", seat=seat_number(conn.seat), table=table)),
            highlight=False)
    entry = plugin(str(info["game"])).terminal_online
    kind: OnlineMaker | None = load_path(entry) if entry else None
    if kind is None:
        raise ServerFailure(tr(lang, "err_game", game=info["game"]), 2)
    names = seat_names(info, conn.seat, lang)
    session = kind(game, client, conn, names, lang, console, save)
    try:
        return session.play()
    finally:
        conn.close()
        client.close()
