"""Dragon's Hoard: the engine (rules in ``rules/en.md``, sections H1-H5).

A push-your-luck dice game for 2 to 4 players, after the classic "Pig": roll the dragon die
as often as you dare, each face 2-6 adding gold to the turn's pile, and bank the pile into
your hoard before a 1 wakes the dragon and the pile is lost. The first hoard to reach the
target wins; at the round limit the richest hoards win.

The engine follows Dragonlair's contract (``dragonlair.core.game``): one state class, its
actions by index and text, events as codes with params, the view envelope, snapshots. It has
no secrets: everything a seat knows, every seat and spectator knows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dragonlair.core.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    shown,
)
from dragonlair.core.game import (
    CHANCE,
    JSON,
    Game,
    GameInfo,
    OptionSpec,
    Outcome,
    State,
    check_seat_range,
    placings_from_scores,
    resolve_options,
    snapshot_header,
)
from dragonlair.core.records import entry_text, parse_entry
from dragonlair.core.views import envelope

GAME_ID = "hoard"
FACES = 6
#: the face that wakes the dragon (H3)
DRAGON = 1

INFO = GameInfo(
    id=GAME_ID,
    name="Dragon's Hoard",
    min_players=2,
    max_players=4,
    version=1,
    options=(
        OptionSpec("players", 2, "2 to 4 players (H1)", kind="int", minimum=2, maximum=4,
                   refuse=lambda v: OptionError("hoard.option.players", value=shown(v))),
        OptionSpec("target", 50, "the gold a hoard needs to win (H5)", kind="int",
                   minimum=20, maximum=100),
        OptionSpec("max_turns", 30, "rounds before the richest hoard wins (H5)", kind="int",
                   minimum=1, maximum=100),
    ),
)


class HoardAction:
    """``roll``, ``bank`` (a player's), or ``die N`` (chance: the face rolled, 1-6)."""

    __slots__ = ("face", "index", "text")

    def __init__(self, index: int) -> None:
        self.index = index
        self.face = index - 1 if index >= 2 else 0
        self.text = ("roll", "bank")[index] if index < 2 else f"die {self.face}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"HoardAction({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HoardAction) and other.index == self.index

    def __hash__(self) -> int:
        return self.index


ACTIONS = tuple(HoardAction(i) for i in range(2 + FACES))
ROLL, BANK = ACTIONS[0], ACTIONS[1]
DIE = {a.face: a for a in ACTIONS[2:]}
BY_TEXT = {a.text: a for a in ACTIONS}


class HoardState(State[HoardAction]):
    """A position: the hoards, whose turn, the turn's gold, and whether the die is rolling."""

    def __init__(self, game: HoardGame) -> None:
        self.game = game
        self.num_players = game.num_players
        self.target: int = game.options["target"]
        self.max_turns: int = game.options["max_turns"]
        self.hoards = [0] * self.num_players
        self.roller = 0
        self.turn_gold = 0
        self.last_roll: int | None = None
        self.rolling = False  # a roll was asked for: the die (chance) is due
        self.turns = 0  # player turns finished
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.end_params: dict[str, Any] = {}
        self._history: list[tuple[int, HoardAction]] = []
        self._ev = None
        self._nev = 0

    # ---------------------------------------------------------------- the contract
    def current_seats(self) -> tuple[int, ...]:
        if self.winners:
            return ()
        return (CHANCE,) if self.rolling else (self.roller,)

    @property
    def history(self) -> Sequence[tuple[int, HoardAction]]:
        return self._history

    def turn_count(self) -> int:
        """Rounds begun (1 in the first round)."""
        return min(self.turns // self.num_players + 1, self.max_turns)

    def legal_actions(self, seat: int) -> Sequence[HoardAction]:
        check_seat_range(seat, self.num_players, chance=True)
        if seat not in self.current_seats() or seat == CHANCE:
            return ()
        return (ROLL, BANK) if self.turn_gold > 0 else (ROLL,)

    def chance_outcomes(self) -> list[tuple[HoardAction, float]]:
        return [(DIE[f], 1 / FACES) for f in range(1, FACES + 1)] if self.rolling else []

    def refusal(self, seat: int, action: HoardAction) -> IllegalActionError | None:
        """Why ``seat`` may not take ``action`` now, or None."""
        if not isinstance(action, HoardAction):
            return IllegalActionError("hoard.action.not_ours", action=shown(action))
        self.check_seat(seat)
        if seat == CHANCE:
            if action.index < 2:
                return IllegalActionError("hoard.chance.die_expected", action=action.text)
            return None
        if action.index >= 2:
            return IllegalActionError("hoard.chance.not_due", action=action.text)
        if action is BANK and self.turn_gold == 0:
            return IllegalActionError("hoard.bank.nothing", rule="H4", seat=seat)
        return None

    def apply(self, seat: int, action: HoardAction) -> None:
        problem = self.refusal(seat, action)
        if problem is not None:
            raise problem
        self._history.append((seat, action))
        if seat == CHANCE:
            self._die(action.face)
        elif action is ROLL:
            self.rolling = True
        else:
            self._bank()

    def _die(self, face: int) -> None:
        self.rolling = False
        self.last_roll = face
        seat = self.roller
        if face == DRAGON:  # H3
            self.emit("hoard.turn.dragon", seat=seat, face=face, lost=self.turn_gold)
            self.turn_gold = 0
            self._next_turn()
        else:  # H2
            self.turn_gold += face
            self.emit("hoard.turn.rolled", seat=seat, face=face, gold=self.turn_gold)

    def _bank(self) -> None:  # H4
        seat = self.roller
        self.hoards[seat] += self.turn_gold
        self.emit("hoard.turn.banked", seat=seat, gold=self.turn_gold, hoard=self.hoards[seat])
        self.turn_gold = 0
        if self.hoards[seat] >= self.target:  # H5
            self._end((seat,), "hoard.end.target_reached",
                      {"seat": seat, "hoard": self.hoards[seat], "target": self.target})
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.max_turns * self.num_players:  # H5: the round limit
            best = max(self.hoards)
            self._end(tuple(s for s, h in enumerate(self.hoards) if h == best),
                      "hoard.end.turn_limit", {"rounds": self.max_turns, "hoard": best})
            return
        self.roller = (self.roller + 1) % self.num_players
        self.emit("hoard.turn.start", seat=self.roller)

    def _end(self, winners: tuple[int, ...], reason: str, params: dict[str, Any]) -> None:
        self.winners = winners
        self.end_reason = reason
        self.end_params = params
        self.emit(reason, winners=list(winners), **params)

    def stop_at_limit(self, reason: str) -> None:
        best = max(self.hoards)
        self.rolling = False
        self._end(tuple(s for s, h in enumerate(self.hoards) if h == best),
                  "hoard.end.turn_limit", {"rounds": self.turn_count(), "hoard": best})

    def outcome(self) -> Outcome | None:
        if not self.winners:
            return None
        scores = tuple(float(h) for h in self.hoards)
        return Outcome(winners=self.winners,
                       placings=placings_from_scores(scores, self.winners),
                       reason=self.end_reason, scores=scores,
                       reason_params=dict(self.end_params))

    def clone(self) -> HoardState:
        other = HoardState.__new__(HoardState)
        other.__dict__.update(self.__dict__)
        other.hoards = self.hoards[:]
        other._history = self._history[:]
        other.end_params = dict(self.end_params)
        return other

    # ---------------------------------------------------------------- views
    def _public(self) -> JSON:
        summary: list[JSON] = [
            {"code": "hoard.summary.hoard", "params": {"seat": s, "gold": g,
                                                       "target": self.target}}
            for s, g in enumerate(self.hoards)]
        if not self.winners:
            summary.append({"code": "hoard.summary.turn",
                            "params": {"seat": self.roller, "gold": self.turn_gold,
                                       "round": self.turn_count(), "rounds": self.max_turns}})
        return {"target": self.target, "max_turns": self.max_turns,
                "hoards": self.hoards[:], "roller": self.roller,
                "turn_gold": self.turn_gold, "last_roll": self.last_roll,
                "summary": summary}

    def _legal(self, seat: int) -> JSON | None:
        actions = self.legal_actions(seat)
        if not actions:
            return None
        return {"actions": [a.text for a in actions],
                "choices": [{"action": a.text, "code": f"hoard.choice.{a.text}",
                             "params": {"gold": self.turn_gold,
                                        "hoard": self.hoards[seat] + self.turn_gold}}
                            for a in actions]}

    def view(self, seat: int | None, since: int = 0) -> JSON:
        if seat is not None:
            check_seat_range(seat, self.num_players)
        if type(since) is not int or since < 0:
            raise IllegalActionError("hoard.view.bad_since", since=shown(since))
        outcome = self.outcome()
        return envelope(
            game=GAME_ID, game_version=INFO.version, seat=seat,
            to_move=[s for s in self.current_seats() if s != CHANCE],
            chance=self.rolling and not self.winners,
            phase="over" if self.winners else ("rolling" if self.rolling else "turn"),
            turn=self.turn_count(), public=self._public(),
            private=None if seat is None else {},
            legal=None if seat is None else self._legal(seat),
            events=[e.to_json(seq) for seq, e in self.events_for(seat, since)],
            since=since, total=self._nev,
            result=outcome.to_json() if outcome else None)

    def full_state(self) -> JSON:
        out = self._public()
        outcome = self.outcome()
        out.update(game=GAME_ID, rolling=self.rolling, turns=self.turns,
                   history=[entry_text(s, a) for s, a in self._history],
                   result=outcome.to_json() if outcome else None)
        return out

    # ---------------------------------------------------------------- snapshots
    def snapshot(self) -> JSON:
        """The options, the record entries and the events; :meth:`HoardGame.restore` plays
        the entries through the rules and checks that it arrives at this very snapshot."""
        return {**snapshot_header(self.game),
                "state": {"history": [entry_text(s, a) for s, a in self._history],
                          "hoards": self.hoards[:], "roller": self.roller,
                          "turn_gold": self.turn_gold, "rolling": self.rolling},
                "events": [{"code": e.code, "params": dict(e.params), "to": e.to}
                           for e in self.all_events()]}


class HoardGame(Game):
    """A configured table of Dragon's Hoard."""

    info = INFO

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = resolve_options(INFO, dict(options or {}))
        self.num_players = self.options["players"]

    def new_initial_state(self) -> HoardState:
        state = HoardState(self)
        state.emit("hoard.turn.start", seat=0)
        return state

    def parse_action(self, text: str) -> HoardAction:
        if not isinstance(text, str):
            raise MalformedActionError("hoard.action.malformed", text=shown(text))
        action = BY_TEXT.get(" ".join(text.lower().split()))
        if action is None:
            raise MalformedActionError("hoard.action.malformed", text=shown(text))
        return action

    def action_from_index(self, index: int) -> HoardAction:
        if type(index) is not int or not 0 <= index < len(ACTIONS):
            raise MalformedActionError("hoard.action.no_index", index=shown(index),
                                       size=len(ACTIONS))
        return ACTIONS[index]

    @property
    def num_distinct_actions(self) -> int:
        return len(ACTIONS)

    def restore(self, snapshot: JSON) -> HoardState:
        def bad(why: str) -> RecordError:
            return RecordError("hoard.snapshot.invalid", why=why)

        if not isinstance(snapshot, dict) or not isinstance(snapshot.get("state"), dict):
            raise bad("not a snapshot object")
        header = snapshot_header(self)
        for key, value in header.items():
            if snapshot.get(key) != value:
                raise bad(f"{key} is {shown(snapshot.get(key))}, this table's is {shown(value)}")
        entries = snapshot["state"].get("history")
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise bad("history is not a list of record entries")
        state = self.new_initial_state()
        try:
            for entry in entries:
                seat, text = parse_entry(entry, self.num_players)
                state.apply(seat, self.parse_action(text))
        except (IllegalActionError, MalformedActionError, RecordError) as exc:
            raise bad(f"entry {shown(entry)}: {exc.code}") from exc
        if state.snapshot() != snapshot:
            raise bad("the entries do not lead to the position and events given")
        return state

