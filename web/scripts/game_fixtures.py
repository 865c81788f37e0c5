"""Real engine views for the client's unit tests (web/src/games/{fist,farkle,master}/fixtures/).

Why: the screens turn a view's legal actions into labelled choices (decisions.ts,
choices.ts) and pick the texts of a bid or a placement from the view's action form (bid.ts,
place.ts). Testing that against views written by hand would test our guess of the engine;
these fixtures are what the engine really sends. Seeded random games are played until every
Fist decision kind (pending.Dec) is pending, sealed bids with a Black Magic coin and the Red
Amulet and a tie-break bid are asked (fist/fixtures/bids/), every Farkle Final Battle
decision, a wounded dragon (damage), a move from the Lair and a Skirmish's defender facing
hot dice (D5.2: 5 dice again), and a Master placement with a
choice of cards; the first view of each is written with the engine's legal action texts.

    .venv/bin/python web/scripts/game_fixtures.py          # (re)write the fixtures
    .venv/bin/python web/scripts/game_fixtures.py --check  # exit 1 when they are stale

tests/test_web_fixtures.py runs the check.

The gallery (web/gallery.html, e2e/visual.spec.ts) shows each game's key states from
web/src/gallery/fixtures/<game>/<state>.json, written here too: one seeded game of each played
to its end, and in it the start (the first decision), a decision (Fist: a power decision;
Master: a placement with a choice of cards; Farkle: roll on or stop), the reveal (Fist: the
fists just opened on a card won; Master: a card just placed, seen by its player; Farkle: a
roll to keep dice from) and the end (the result), each as the seat it names saw it: the
whole view and every event that seat was sent (what the browser's table state holds).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dragonlair.core.game import CHANCE, State
from dragonlair.games.farkle.game import FarkleGame
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.pending import Dec, Decision
from dragonlair.games.master.game import MasterGame

WEB = Path(__file__).resolve().parent.parent
FIST_DIR = WEB / "src" / "games" / "fist" / "fixtures"
FIST_BIDS_DIR = FIST_DIR / "bids"
FARKLE_DIR = WEB / "src" / "games" / "farkle" / "fixtures"
MASTER_DIR = WEB / "src" / "games" / "master" / "fixtures"
FARKLE_LOG_DIR = FARKLE_DIR / "log"
SEEDS = 400
NAMES = ["Ann", "Bob", "Cai", "Dee", "Eve"]

#: the labels of a state worth a fixture (none: not one), given the seat to move
Picker = Callable[[Any, int], list[str]]
#: the action to play, of the legal ones
Chooser = Callable[[list[Any], random.Random], Any]


def _any(actions: list[Any], rng: random.Random) -> Any:
    return rng.choice(actions)


def _farkle_bold(actions: list[Any], rng: random.Random) -> Any:
    """Random play rarely gathers the 5,000 soldiers of a Final Battle (D6): this one
    recruits, keeps the most dice, rolls on often and goes to battle when it may."""
    texts = [str(a) for a in actions]
    for verb in ("battle", "recruit"):
        if verb in texts:
            return actions[texts.index(verb)]
    keeps = [i for i, t in enumerate(texts) if t.startswith("keep ")]
    if keeps:
        return actions[max(keeps, key=lambda i: len(texts[i]))]
    if "roll" in texts and rng.random() < 0.55:
        return actions[texts.index("roll")]
    return rng.choice(actions)


def _farkle_skirmish(actions: list[Any], rng: random.Random) -> Any:
    """Attacks whenever it may, keeps the most dice and rolls on often: a defender's hot
    dice (D5.2: 5 dice again) come soon."""
    texts = [str(a) for a in actions]
    attacks = [i for i, t in enumerate(texts) if t.startswith("skirmish ")]
    if attacks:
        return actions[attacks[0]]
    keeps = [i for i, t in enumerate(texts) if t.startswith("keep ")]
    if keeps:
        return actions[max(keeps, key=lambda i: len(texts[i]))]
    if "roll" in texts and rng.random() < 0.7:
        return actions[texts.index("roll")]
    return rng.choice(actions)


def _fixture(st: State[Any], seat: int, game: str, stage: str, seed: int) -> dict[str, Any]:
    view = st.view(seat)
    # the log of events and the record are not what the mapping reads: left out (size)
    view["events"] = []
    view["public"]["history"] = []
    return {"game": game, "stage": stage, "seed": seed, "seat": seat,
            "names": NAMES[:st.num_players],
            "legal_actions": [str(a) for a in st.legal_actions(seat)], "view": view}


def _play(new: Callable[[int], State[Any]], pick: Picker, wanted: set[str],
          game: str, choose: Chooser = _any) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for seed in range(SEEDS):
        rng = random.Random(seed)
        st = new(seed)
        while not st.is_terminal() and len(found) < len(wanted):
            if st.is_chance():
                st.apply(CHANCE, st.sample_chance(rng))
                continue
            seat = st.current_seats()[0]
            for stage in pick(st, seat):
                if stage not in found:
                    found[stage] = _fixture(st, seat, game, stage, seed)
            st.apply(seat, choose(list(st.legal_actions(seat)), rng))
        if len(found) == len(wanted):
            return found
    missing = sorted(wanted - set(found))
    raise SystemExit(f"{game}: no view found for {missing} in {SEEDS} seeds")


def fist_fixtures() -> dict[str, dict[str, Any]]:
    """One view per decision kind of pending.Dec."""
    def pick(st: Any, seat: int) -> list[str]:
        p = st.pending
        return [p.kind.name.lower()] if isinstance(p, Decision) else []
    return _play(lambda seed: FistGame({"players": 3 + seed % 3}).new_initial_state(), pick,
                 {d.name.lower() for d in Dec}, "fist")


def fist_bid_fixtures() -> dict[str, dict[str, Any]]:
    """A sealed bid with Fairy and Common Gold and a Black Magic coin to bid, one with both
    a Black Magic coin and the Red Amulet (F5.1), and a tie-break bid (F5.7)."""
    def pick(st: Any, seat: int) -> list[str]:
        legal = st.view(seat)["legal"]
        if legal["kind"] == "bid":
            b = legal["bid"]
            stages = ["bid"] if b["fairy"] >= 2 and b["common"] >= 1 and b["black"] else []
            return stages + (["amulet"] if b["black"] and b["amulet"] else [])
        return ["silver"] if legal["kind"] == "silver" and legal["silver"]["silver"] else []
    return _play(lambda seed: FistGame({"players": 3 + seed % 3}).new_initial_state(), pick,
                 {"bid", "amulet", "silver"}, "fist")


def master_fixtures() -> dict[str, dict[str, Any]]:
    """A placement with a choice of three kinds of card and several cells (M3)."""
    def pick(st: Any, seat: int) -> list[str]:
        legal = st.view(seat)["legal"]
        return ["place"] if len(legal["cards"]) >= 3 and len(legal["cells"]) >= 4 else []
    return _play(lambda seed: MasterGame({}).new_initial_state(), pick, {"place"}, "master")


FARKLE_STAGES = {"battle", "damage", "lair"}
#: a Skirmish's defender with hot dice to roll on with, and one with a keep of all its dice
DEFENDER_STAGES = {"defender_hot", "defender_keep_all"}


def farkle_fixtures() -> dict[str, dict[str, Any]]:
    """A decision in the Final Battle (D6: the dice are set aside by the rules, the seat
    decides little), one with the dragon wounded (D6.2), and a turn begun in the Lair (D7)."""
    def pick(st: Any, seat: int) -> list[str]:
        pub = st.view(None)["public"]
        if pub["seats"][seat]["in_lair"] and pub["mode"] == "none":
            return ["lair"]
        if pub["mode"] != "battle":
            return []
        return ["battle", "damage"] if pub["dragon"]["damage"] > 0 else ["battle"]
    def defender(st: Any, seat: int) -> list[str]:
        pub = st.view(None)["public"]
        sk = pub["skirmish"]
        if sk is None or pub["roller"] != sk["defender"]:
            return []
        if pub["decision"] == "continue" and pub["dice_in_hand"] == 0:
            return ["defender_hot"]
        legal = st.view(seat)["legal"]
        if legal and any(k["dice_left"] == 0 for k in legal["keeps"]):
            return ["defender_keep_all"]
        return []
    new = lambda seed: FarkleGame({"players": 2 + seed % 3}).new_initial_state()  # noqa: E731
    return {**_play(new, pick, FARKLE_STAGES, "farkle", _farkle_bold),
            **_play(new, defender, DEFENDER_STAGES, "farkle", _farkle_skirmish)}


def farkle_log_fixtures() -> dict[str, dict[str, Any]]:
    """The events each viewer is sent (the log), by viewer (``"spectator"``, ``"0"``,
    ``"1"``), in a 2-player game that got as far as a magic item drawn on an alliance: each
    seat's own item events (``*_own``) beside the public twins (the browser shows the owner
    one line per secret, lib/events.ts)."""
    for seed in range(SEEDS):
        rng = random.Random(seed)
        st = FarkleGame({"players": 2}).new_initial_state()
        while not st.is_terminal():
            if any(e.code == "farkle.item.drawn_own" for e in st.all_events()):
                events = {("spectator" if v is None else str(v)): st.view(v)["events"]
                          for v in (None, 0, 1)}
                return {"items": {"game": "farkle", "stage": "items", "seed": seed,
                                  "names": NAMES[:2], "events": events}}
            if st.is_chance():
                st.apply(CHANCE, st.sample_chance(rng))
                continue
            seat = st.current_seats()[0]
            texts = [str(a) for a in st.legal_actions(seat)]
            pick = "item" if "item" in texts else None
            action = (st.legal_actions(seat)[texts.index(pick)] if pick else
                      _farkle_bold(list(st.legal_actions(seat)), rng))
            st.apply(seat, action)
    raise SystemExit("farkle: no item drawn on an alliance in any seed")


GALLERY_DIR = WEB / "src" / "gallery" / "fixtures"
GALLERY_STATES = ("start", "decision", "reveal", "end")
GALLERY_EVENTS = 100
#: the labels of a state worth a gallery picture (none: not one) for a viewer, given the seats
#: to move (its view, its seat)
Wanted = Callable[[Any, dict[str, Any], int], list[str]]


def _gallery_fixture(st: State[Any], seat: int, game: str, state: str, seed: int,
                     seq: int) -> dict[str, Any]:
    view = st.view(seat)
    # the table state's log holds the events (the last GALLERY_EVENTS: the log shows the last
    # 40 lines, the fists opened are among them; a whole Fist game's would be 200 KB); the
    # view's own batch is the last one (empty here: nothing is new)
    events = view["events"][-GALLERY_EVENTS:]
    view["events"] = []
    view["events_since"] = view["events_total"]
    return {"game": game, "state": state, "seed": seed, "seat": seat, "seq": seq,
            "status": "finished" if st.is_terminal() else "running",
            "names": NAMES[:st.num_players], "view": view, "events": events}


def _gallery_game(new: Callable[[int], State[Any]], wanted: Wanted, game: str,
                  choose: Chooser = _any) -> dict[str, dict[str, Any]]:
    """The first seed whose game shows every state of GALLERY_STATES: each the first time it
    comes (for the viewer its picker names), ``end`` at the end as seat 0 sees it."""
    for seed in range(SEEDS):
        rng = random.Random(seed)
        st = new(seed)
        found: dict[str, dict[str, Any]] = {}
        moves = 0
        while not st.is_terminal():
            if st.is_chance():
                st.apply(CHANCE, st.sample_chance(rng))
                continue
            for viewer in range(st.num_players):
                for state in wanted(st, st.view(viewer), viewer):
                    if state not in found:
                        found[state] = _gallery_fixture(st, viewer, game, state, seed, moves)
            seat = st.current_seats()[0]
            st.apply(seat, choose(list(st.legal_actions(seat)), rng))
            moves += 1
        found["end"] = _gallery_fixture(st, 0, game, "end", seed, moves)
        if set(found) == set(GALLERY_STATES):
            return found
    raise SystemExit(f"{game}: no seed shows every gallery state in {SEEDS} seeds")


def gallery_fixtures() -> dict[str, dict[str, dict[str, Any]]]:
    """The gallery's states of each game, by game and state."""
    def fist(st: Any, view: dict[str, Any], viewer: int) -> list[str]:
        legal = view["legal"]
        if legal is None:
            return []
        codes = [e["code"] for e in view["events"]]
        if legal["kind"] == "bid" and "fist.bid.revealed" not in codes:
            return ["start"]
        if isinstance(st.pending, Decision) and view["turn"] >= 2:
            return ["decision"]
        reveals = [i for i, c in enumerate(codes) if c == "fist.bid.revealed"]
        ends = [c for c in codes[reveals[-1]:] if c.startswith("fist.auction.")] if reveals else []
        if legal["kind"] == "bid" and view["turn"] >= 2 and ends[:1] == ["fist.auction.won"]:
            return ["reveal"]
        return []

    def master(st: Any, view: dict[str, Any], viewer: int) -> list[str]:
        placed = view["public"]["placements"]
        legal = view["legal"]
        if legal is not None and not placed:
            return ["start"]
        if legal is not None and len(placed) >= 6 and len(legal["cards"]) >= 3:
            return ["decision"]
        if legal is None and len(placed) >= 9 and placed[-1].get("seat") == viewer:
            return ["reveal"]
        return []

    def farkle(st: Any, view: dict[str, Any], viewer: int) -> list[str]:
        legal = view["legal"]
        if legal is None:
            return []
        codes = [e["code"] for e in view["events"]]
        if legal["decision"] == "action" and "farkle.roll.rolled" not in codes:
            return ["start"]
        if legal["decision"] == "continue" and view["public"]["pending"] > 0 and view["turn"] >= 2:
            return ["decision"]
        if legal["decision"] == "keep" and len(legal["keeps"]) >= 3 and view["turn"] >= 2:
            return ["reveal"]
        return []

    return {
        "fist": _gallery_game(lambda seed: FistGame({"players": 4}).new_initial_state(), fist,
                              "fist"),
        "master": _gallery_game(lambda seed: MasterGame({}).new_initial_state(), master,
                                "master"),
        "farkle": _gallery_game(lambda seed: FarkleGame({"players": 3}).new_initial_state(),
                                farkle, "farkle", _farkle_bold),
    }


def _texts() -> dict[Path, str]:
    out: dict[Path, str] = {}
    for folder, fixtures in ((FIST_DIR, fist_fixtures()), (FIST_BIDS_DIR, fist_bid_fixtures()),
                             (FARKLE_DIR, farkle_fixtures()),
                             (FARKLE_LOG_DIR, farkle_log_fixtures()),
                             (MASTER_DIR, master_fixtures())):
        for stage, fx in sorted(fixtures.items()):
            out[folder / f"{stage}.json"] = json.dumps(fx, indent=1, sort_keys=True) + "\n"
    for game, states in gallery_fixtures().items():
        for state, fx in states.items():
            out[GALLERY_DIR / game / f"{state}.json"] = json.dumps(fx, indent=1,
                                                                  sort_keys=True) + "\n"
    return out


def stale() -> list[str]:
    """The fixture files that differ from what the engine produces now (or are extra)."""
    texts = _texts()
    bad = [str(p) for p, text in texts.items()
           if not p.exists() or p.read_text(encoding="utf-8") != text]
    for folder in (FIST_DIR, FIST_BIDS_DIR, FARKLE_DIR, FARKLE_LOG_DIR, MASTER_DIR):
        bad += [str(p) for p in folder.glob("*.json") if p not in texts]
    bad += [str(p) for p in GALLERY_DIR.glob("*/*.json") if p not in texts]
    return sorted(bad)


def main(argv: list[str]) -> int:
    if "--check" in argv:
        bad = stale()
        for p in bad:
            print(f"stale: {p} (run .venv/bin/python web/scripts/game_fixtures.py)")
        return 1 if bad else 0
    for path, text in _texts().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
