"""The lobby's answers as models: every REST route declares what it answers, so that the
OpenAPI document names each shape and the browser client's types are generated from it
(``web/src/gen/openapi.ts``; none is written by hand in ``web/src/lib/api.ts``).

The routes build plain dicts, as they always did; FastAPI validates each against its model
and writes it out again with ``response_model_exclude_unset``, so that a key a route leaves
out stays out (a list of tables has no ``seq``, a replay asked with ``record=false`` no
``record``) and the JSON is the one the route built. The models forbid unknown fields (as
the play protocol's do: dragonlair/server/protocol.py): a route that gains a field needs it
here too, else its tests fail (a 500) rather than the field being dropped unseen. Numbers
that may be whole or not (scores, values, seconds) are ``int | float``, so that a ``3``
stays ``3``.

A view (a replay's, a tutorial question's) is the play protocol's model
(:class:`~dragonlair.server.protocol.View`). Shapes inside that are a game's own (a view's
``public``, ``private`` and ``legal``; a table's options, an event's params) stay open
objects: each game describes them (its view schema,
``dragonlair/games/<game>/schemas/view-<game>.v1.json``; its option specs at ``/api/games``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from dragonlair.core.views import EventModel
from dragonlair.server.openapi import ErrorOut
from dragonlair.server.protocol import RematchNote, View

__all__ = [
    "AccountOut", "AnalysedDecisionOut", "AnalysisOut", "ApiTokenOut", "ErrorOut",
    "EventModel", "HealthOut", "HintOptionOut", "HintOut", "InviteOut", "NewApiTokenOut",
    "NewTableOut", "OkOut", "RecordMetaOut", "RecordOut", "RecordSeatOut", "RematchNote",
    "ReplayOut", "ReplayStepOut", "SetSeatOut", "TableAwayOut", "TableClockOut",
    "TableHintOut", "TableInfoOut", "TableResultOut", "TableSeatOut", "TakeoverOut",
    "TutorialHintOut", "TutorialOut", "TutorialShownOut", "TutorialStepOut", "TutorialTextOut",
    "TutorialVerdictOut", "ViewOut", "WinChanceOut",
]

#: a number as JSON has it: whole or not, written back as it came
Number = Annotated[int | float, WithJsonSchema({"type": "number"})]


class Out(BaseModel):
    """Base of the answers: unknown fields are an error (the model is the truth)."""

    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ server, accounts
class HealthOut(Out):
    ok: bool
    protocol: int = Field(description="the play protocol's version (``hello.protocol``)")
    process: str | None = Field(
        description="the id of the server process that answered (null: not started yet)")


class OkOut(Out):
    """Done (logout, password changed, token or push subscription revoked)."""

    ok: bool


class AccountOut(Out):
    """The signed-in account (``/api/me``; the answer of signing up, in or as a guest)."""

    id: int
    username: str
    display_name: str
    guest: bool
    bot: bool
    moderator: bool = Field(description="may hide and restore posts and workshop entries "
                                        "(docs/forum.md)")
    profile: str = Field(
        description="where the account's profile is (``/api/users/{profile}``): its username, or "
                    "``@<id>`` for a guest (whose username is an internal handle nobody is shown)")


class ApiTokenOut(Out):
    """A personal API token, as listed (never the token itself)."""

    id: int
    name: str
    created_at: Number


class NewApiTokenOut(ApiTokenOut):
    """A new API token: the only answer that holds the token (``Authorization: Bearer``)."""

    token: str


# ------------------------------------------------------------------------- tables
class TableSeatOut(Out):
    seat: int
    kind: Literal["open", "human", "bot", "invite"] = Field(
        description="``open``, ``human`` (a person holds it), ``bot`` or ``invite`` (reserved for "
                    "the holder of its invite link)")
    user_id: int | None
    bot: str | None = Field(description="a bot seat's bot name")
    name: str | None = Field(description="the display name of a person's seat")


class TableResultOut(Out):
    """How a game ended (the engine's result)."""

    winners: list[int]
    placings: list[int]
    scores: list[Number]
    reason: str = Field(description="a catalogue code, e.g. ``fist.end.points_reached``")
    reason_params: dict[str, Any]


class TableClockOut(Out):
    """A table's clock settings: ``realtime`` (``initial`` seconds, ``increment`` per move,
    at most ``maximum``) or ``turn`` (``hours`` per move)."""

    kind: Literal["realtime", "turn"]
    initial: Number | None = None
    increment: Number | None = None
    maximum: Number | None = None
    hours: Number | None = None


class TableAwayOut(Out):
    """What happens when a person is away: a ``bot`` takes the seat after ``seconds``, or
    the table ``wait``s."""

    kind: Literal["bot", "wait"]
    seconds: Number | None = None


class TableWorkshopOut(Out):
    """The workshop entry a table was made from (dragonlair/server/workshop): its content is
    in the table's options."""

    entry: int
    version: int
    title: str
    kind: str


class TableTournamentOut(Out):
    """The tournament a table was made by (dragonlair/server/tournaments)."""

    id: str
    name: str
    kind: Literal["arena", "swiss"]


class TableInfoOut(Out):
    """A table of the lobby: its game, settings, seats and (once finished) result."""

    id: str
    game: str
    game_version: int
    status: Literal["open", "running", "finished", "expired"]
    rated: bool
    options: dict[str, Any] = Field(description="the game's options, as the record stores them")
    created_by: int | None
    created_at: Number
    started_at: Number | None
    finished_at: Number | None
    seats: list[TableSeatOut]
    result: TableResultOut | None
    clock: TableClockOut | None
    takeover_bot: str | None
    away: TableAwayOut | None
    expires_at: Number | None = Field(
        description="when an open table nobody started expires (server time)")
    seq: int | None = Field(
        default=None,
        description="the number of actions logged (one table's answers, not a list's)")
    spectators: int | None = Field(
        default=None, description="viewers without a seat, counted in the answering process "
                                  "(``GET /api/tables/{id}``)")
    workshop: TableWorkshopOut | None = Field(
        default=None, description="the workshop entry and version the table was made from")
    tournament: TableTournamentOut | None = Field(
        default=None, description="the tournament that created the table (one table's "
                                  "answers, not a list's)")


class InviteOut(Out):
    """An invite link to one seat: shown once, in the answer that issues it."""

    seat: int
    token: str
    url: str = Field(description="the link to hand out (the token rides in its fragment)")


class NewTableOut(TableInfoOut):
    """A new table, with the invite links of its ``invite`` seats."""

    invites: list[InviteOut]


class SetSeatOut(TableInfoOut):
    """The table after a seat was set; ``invite``: the new link of an ``invite`` seat."""

    invite: InviteOut | None = None


# --------------------------------------------------------------- records, replays
class ViewOut(View):
    """The engine's view for one seat or a spectator (docs/views.md; the play protocol's
    ``View``), its result's scores written as they came."""

    result: TableResultOut | None  # type: ignore[assignment]


class RecordSeatOut(Out):
    name: str
    player: str = Field(description="``human`` or ``bot:<name>``")


class TakeoverOut(Out):
    """A bot took a person's seat: from action ``seq`` on, for ``reason``."""

    seat: int
    seq: int
    reason: str
    bot: str | None


class RecordMetaOut(Out):
    server_table: str
    started_at: Number | None
    finished_at: Number | None
    takeovers: list[TakeoverOut] | None = None
    workshop: TableWorkshopOut | None = None


class RecordOut(Out):
    """A finished table as a record ``dragonlair replay`` accepts (docs/records.md)."""

    format: str
    format_version: int
    game: str
    game_version: int
    options: dict[str, Any]
    seats: list[RecordSeatOut]
    actions: list[str] = Field(
        description="the record's entries: ``\"p2: bid f3 c1\"``, ``\"chance: card witch\"``")
    result: TableResultOut | None
    meta: RecordMetaOut | None = None


class ReplayStepOut(Out):
    """One logged action: its ``seq``, the acting ``seat`` (-1: chance), the events the
    viewer may see, and (one's own moves only) the ``action``."""

    seq: int
    seat: int
    events: list[EventModel]
    action: str | None = None


class ReplayOut(Out):
    """A finished table's replay from one perspective (dragonlair/server/history.py)."""

    table: TableInfoOut
    perspective: int | None = Field(description="the seat whose view this is (null: a spectator's)")
    seat: int | None = Field(description="the seat the caller held at the table, if any")
    steps: list[ReplayStepOut]
    at: int = Field(description="the point of ``view``: after this many actions")
    view: ViewOut
    record: RecordOut | None = Field(
        default=None, description="the whole record (left out with ``record=false``)")


# ----------------------------------------------------------- hints and analysis
class HintOptionOut(Out):
    action: str
    value: Number | None
    best: bool
    loss: Number | None = Field(
        description="what choosing this rather than the best costs, in the hint's ``unit``")
    visits: int | None = Field(
        default=None, description="the search's visits of the option (sampling analysers only)")


class HintOut(Out):
    """The options of one decision, best first, valued in ``unit`` (``soldiers``,
    ``win_chance``, ...); ``exact``: the values are the exact optimum."""

    unit: str
    exact: bool
    win_chance: Number | None
    options: list[HintOptionOut]


class TableHintOut(Out):
    table: str
    seat: int
    seq: int
    hint: HintOut


class AnalysedDecisionOut(HintOut):
    """One decision of the analysed seat: its hint, what was ``played`` and what it lost."""

    index: int
    turn: int
    played: str
    best: str
    loss: Number | None


class WinChanceOut(Out):
    index: int
    value: Number


class AnalysisOut(Out):
    """The analysis of one seat's decisions in a finished game (docs/analysis.md)."""

    table: str
    format: str
    format_version: int
    game: str
    seat: int
    complete: bool
    decisions_total: int
    seconds: Number
    loss_totals: dict[str, Number]
    mistakes: list[int]
    win_chance: list[WinChanceOut]
    decisions: list[AnalysedDecisionOut]


# ------------------------------------------------------------------------ tutorials
class TutorialOut(Out):
    """A game with a tutorial: its ``title`` (a catalogue code) and how many questions it
    asks."""

    game: str
    title: str
    asks: int


class TutorialTextOut(Out):
    code: str
    params: dict[str, Any]


class TutorialVerdictOut(Out):
    """What became of the move tried: ``ok``, ``wrong`` (``code``: why) or ``illegal``
    (``error``: the engine's refusal; ``code``: the step's hint)."""

    kind: Literal["ok", "wrong", "illegal"]
    code: str | None
    params: dict[str, Any]
    error: ErrorOut | None


class TutorialShownOut(Out):
    """The step to show: a text to read (``say``) or a question (``ask``: the learner's
    ``view``, its ``legal`` moves and the ``expected`` ones)."""

    kind: Literal["say", "ask"]
    step: int = Field(description="its index in the tutorial's file")
    number: int = Field(description="where it stands among the texts and questions a learner sees")
    count: int
    text: TutorialTextOut
    view: ViewOut | None = None
    legal: list[str] | None = None
    expected: list[str] | None = None


class TutorialStepOut(Out):
    """One answer of a tutorial (dragonlair/server/learn.py)."""

    game: str
    title: str
    seat: int
    names: list[str]
    intro: TutorialTextOut = Field(description="the tutorial's introduction (its browser wording)")
    progress: list[str | None]
    verdict: TutorialVerdictOut | None
    step: TutorialShownOut | None = Field(description="null once the tutorial is over")
    done: bool


class TutorialHintOut(Out):
    game: str
    seat: int
    seq: int
    step: int = Field(description="the question's index in the tutorial's file")
    hint: HintOut
