"""Custom characters (F9): a power described in words in every language, a character without
texts, the ``specials`` option (the special deck of custom characters only), and reading a
character file's text (``load_text``)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from dragonlair.bots import make_bot
from dragonlair.core.driver import play_out
from dragonlair.core.errors import OptionError
from dragonlair.core.i18n import catalogue
from dragonlair.core.records import Record, finish_record, new_record, replay
from dragonlair.games.fist import powers as pw
from dragonlair.games.fist.cards import BUILTIN
from dragonlair.games.fist.custom import (
    MAX_STEPS,
    card_from_data,
    load_file,
    load_text,
    normalize,
    primitives,
)
from dragonlair.games.fist.describe import describe, describe_steps
from dragonlair.games.fist.game import FistGame
from dragonlair.games.fist.snapshot import step_data

#: one step of every primitive, with numbers that need a plural and ones that do not
EVERY_PRIMITIVE: list[dict[str, Any]] = [
    {"gain": {"fairy": 1, "common": 2, "silver": 3, "amulet": 2, "black": 1, "red": 1,
              "blue": 2, "yellow": 3}},
    {"gain_stone_choice": 1}, {"gain_stone_choice": 3},
    {"pay_stones": {"count": 2, "pattern": "any", "points": 1}},
    {"pay_stones": {"count": 1, "pattern": "same", "points": 2}},
    {"pay_stones": {"count": 6, "pattern": "each", "points": 3}},
    {"either": {"pay_stones": {"count": 3, "pattern": "each", "points": 1}},
     "or": {"gain": {"silver": 3}}},
    {"steal_from_second": True},
    {"take_all_from": ["common"]}, {"take_all_from": ["silver", "common"]},
    {"copy_auctioned": True},
    {"play_unauctioned": "random"}, {"play_unauctioned": "choose"},
    {"buy_stones": {"common": 2, "fairy": 0, "silver": 3}},
    {"buy_stones": {"common": 0}},
    {"necromancer": 2}, {"pay_all_stones": 1}, {"push_your_luck": True},
    {"lose_colour": True}, {"bag_draw": {"per_colour": 1, "draws": 3}},
]


def _power_data(card: Any) -> list[dict[str, Any]]:
    return [step_data(s) for s in card.power]


@pytest.mark.parametrize("card", BUILTIN, ids=lambda c: c.id)
def test_f9_every_builtin_power_describes_in_english_and_german(card: Any) -> None:
    """F6/F7/F9: each built-in card's power, written as character data, describes in both
    languages; the Doppelganger's engine-only step is no custom primitive, so its steps are
    described directly."""
    data = _power_data(card)
    for lang in ("en", "de"):
        if card.id == "doppelganger":
            with pytest.raises(OptionError) as err:
                describe(data, lang)
            assert err.value.code == "fist.custom.unknown_primitive"
            text = describe_steps(card.power, lang)
        else:
            text = describe(data, lang)
            assert text == describe_steps(card.power, lang)
        assert text.endswith(".") and text[0].isupper()
        assert "{" not in text and "fist.describe" not in text


def test_f9_described_sentences() -> None:
    """F9: the exact sentences of a few powers, with plurals chosen by the catalogue."""
    moneylender = load_file("moneylender")[0]["power"]  # either/or
    assert describe(moneylender, "en") == (
        "Either pay 2 stones of any colours for 1 point, or take 2 Common Gold and 1 Silver.")
    assert describe(moneylender, "de") == (
        "Zahle entweder 2 beliebige Steine für 1 Punkt, oder nimm 2 Gemeingold und 1 Silber.")
    two = [{"gain": {"common": 2, "silver": 1}},
           {"pay_stones": {"count": 2, "pattern": "any", "points": 1}}]
    assert describe(two, "en") == ("Take 2 Common Gold and 1 Silver. Then pay 2 stones of "
                                   "any colours for 1 point, if you can.")
    assert describe(two, "de") == ("Nimm 2 Gemeingold und 1 Silber. Dann zahle 2 beliebige "
                                   "Steine für 1 Punkt, wenn du kannst.")
    wizard = _power_data(next(c for c in BUILTIN if c.id == "wizard"))  # pay each
    assert describe(wizard, "en") == (
        "Either pay 1 stone of each colour for 1 point, or take 3 Silver.")
    pay_each = [{"pay_stones": {"count": 6, "pattern": "each", "points": 2}}]
    assert describe(pay_each, "en") == "Pay 2 stones of each colour for 2 points, if you can."
    assert describe(pay_each, "de") == "Zahle 2 Steine jeder Farbe für 2 Punkte, wenn du kannst."
    gains = [{"gain": {"amulet": 1, "red": 1}}, {"gain": {"amulet": 2, "red": 3, "black": 2}}]
    assert describe(gains, "en") == ("Take 1 Red Amulet and 1 red stone. Then take 2 Red "
                                     "Amulets, 2 Black Magic coins and 3 red stones.")
    assert describe(gains, "de") == ("Nimm 1 rotes Amulett und 1 roten Stein. Dann nimm 2 rote "
                                     "Amulette, 2 schwarze Zaubermünzen und 3 rote Steine.")


def _english_words() -> set[str]:
    """The words of the English templates that no German template uses."""
    def words(lang: str) -> set[str]:
        out: set[str] = set()
        for code, text in catalogue(lang).messages.items():
            if code.startswith("fist.describe."):
                for t in (text,) if isinstance(text, str) else text:
                    out |= set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", t)))
        return out

    return words("en") - words("de")


def test_f9_german_descriptions_hold_no_english() -> None:
    """F9: German texts come from the German catalogue only: no word of an English template
    is left in them, for every primitive and every built-in card."""
    english = _english_words()
    assert {"Take", "Then", "stones", "Pay", "either"} & english
    texts = [describe([step], "de") for step in EVERY_PRIMITIVE]
    texts += [describe_steps(c.power, "de") for c in BUILTIN]
    texts.append(describe(EVERY_PRIMITIVE[:MAX_STEPS], "de"))
    for text in texts:
        left = set(re.findall(r"[A-Za-z]{3,}", text)) & english
        assert not left, (text, left)


@pytest.mark.parametrize("step", EVERY_PRIMITIVE, ids=lambda s: next(iter(s)))
def test_f9_every_primitive_describes(step: dict[str, Any]) -> None:
    en, de = describe([step], "en"), describe([step], "de")
    assert en and de and en != de
    assert "{" not in en + de


@pytest.mark.parametrize(("power", "code", "params"), [
    ([{"teleport": True}], "fist.custom.unknown_primitive", {"step": 1}),
    ([], "fist.custom.no_power", {}),
    ("gain", "fist.custom.no_power", {}),
    ([{"gain": {"silver": 1}}] * (MAX_STEPS + 1), "fist.custom.too_many_steps",
     {"max": MAX_STEPS}),
    ([{"gain": {"silver": 0}}], "fist.custom.gain_nothing", {"step": 1}),
    ([{"gain": {"silver": 1}}, {"pay_stones": {"count": 4, "pattern": "each"}}],
     "fist.custom.pattern_each", {"step": 2}),
])
def test_f9_describe_refuses_what_a_character_file_refuses(power: Any, code: str,
                                                            params: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as err:
        describe(power, "en", cid="scribe")
    assert err.value.code == code and err.value.rule == "F9"
    assert {"id": "scribe", **params}.items() <= err.value.params.items()
    with pytest.raises(OptionError) as again:  # the same code as in a character
        card_from_data({"id": "scribe", "name": {"en": "Scribe"}, "power": power})
    assert again.value.code == code


def test_f9_texts_may_be_left_out() -> None:
    """F9: a character without text gets the described text in every language; a missing
    German text is described too, a missing German name is the English name; an empty text
    counts as missing."""
    power = [{"gain": {"common": 2}}]
    card = card_from_data({"id": "scribe", "name": {"en": "Scribe"}, "power": power})
    assert card.text("en") == "Take 2 Common Gold." and card.text("de") == "Nimm 2 Gemeingold."
    assert card.name("de") == "Scribe"
    card = card_from_data({"id": "scribe", "name": {"en": "Scribe", "de": ""},
                           "text": {"en": "Two coins.", "de": ""}, "power": power})
    assert card.text("en") == "Two coins." and card.text("de") == "Nimm 2 Gemeingold."
    assert card.name("de") == "Scribe"
    card = card_from_data({"id": "scribe", "name": {"en": "Scribe"}, "text": {"en": ""},
                           "power": power})
    assert card.text("en") == "Take 2 Common Gold."
    for bad in ({"en": 3}, "text", {"en": "x" * 1001}):
        with pytest.raises(OptionError) as err:
            card_from_data({"id": "scribe", "name": {"en": "Scribe"}, "text": bad,
                            "power": power})
        assert err.value.code in ("fist.custom.no_text", "fist.custom.too_long")
    with pytest.raises(OptionError) as err:
        card_from_data({"id": "scribe", "name": {"en": "S" * 201}, "power": power})
    assert err.value.code == "fist.custom.too_long" and err.value.params["key"] == "name.en"
    assert "200" in err.value.message("de")
    with pytest.raises(OptionError) as err:
        card_from_data({"id": "scribe", "name": {"en": " "}, "power": power})
    assert err.value.code == "fist.custom.no_name"


def test_f9_shipped_examples_stay_valid_and_normalize_idempotently() -> None:
    for name in ("moneylender", "stormcaller"):
        for raw in load_file(name):
            norm = normalize(raw)
            assert norm["name"] == raw["name"] and norm["text"] == raw["text"]
            assert normalize(norm) == norm
            assert card_from_data(norm) == card_from_data(raw)


def test_f9_load_text_reads_json_and_toml_as_load_file(tmp_path: Any) -> None:
    chars = [normalize(c) for c in load_file("stormcaller")]
    assert load_text(json.dumps({"character": chars}), ".json", "x.json") == chars
    assert load_text(json.dumps(chars), ".json", "x.json") == chars
    path = tmp_path / "c.json"
    path.write_text(json.dumps(chars), encoding="utf-8")
    assert load_file(str(path)) == chars
    with pytest.raises(OptionError) as err:
        load_text("[[character]\n", ".toml", "broken.toml")
    assert err.value.code == "fist.custom.does_not_parse"
    assert err.value.params["file"] == "broken.toml"


def test_f9_primitives_cover_every_custom_primitive_within_the_checked_bounds() -> None:
    """The editor's list of primitives names every primitive a file may hold, and each
    field's default makes a valid step."""
    listed = {p["name"] for p in primitives()}
    assert listed == {next(iter(s)) for s in EVERY_PRIMITIVE}
    for prim in primitives():
        name = prim["name"]
        if name == "either":
            groups = prim["groups"]
            step: Any = {"either": {"pay_stones": {f["name"]: f["default"]
                                                    for f in groups["pay_stones"]}},
                         "or": {"gain": {"silver": 1}}}
        elif not prim["fields"]:
            step = {name: True}
        elif [f["name"] for f in prim["fields"]] in (["value"], ["kinds"], ["how"]):
            step = {name: prim["fields"][0]["default"]}
        elif name == "gain":
            step = {"gain": {"common": 1}}
        else:
            step = {name: {f["name"]: f["default"] for f in prim["fields"]}}
        assert describe([step], "en")
        for f in prim.get("fields") or []:
            if f["kind"] == "int":  # one past each bound is refused
                for bad in (f["min"] - 1, f["max"] + 1):
                    with pytest.raises(OptionError):
                        describe([_with(step, name, f["name"], bad)], "en")


def _with(step: dict[str, Any], name: str, field: str, value: int) -> dict[str, Any]:
    if field == "value":
        return {name: value}
    if name == "gain":
        return {"gain": {"common": 1, field: value}}
    return {name: {**step[name], field: value}}


# ---------------------------------------------------------------------------- specials
def _scribe(count: int = 1) -> dict[str, Any]:
    return {"id": "scribe", "count": count, "name": {"en": "Scribe"},
            "power": [{"gain": {"common": 1}},
                      {"pay_stones": {"count": 2, "pattern": "any", "points": 1}}]}


def test_f9_specials_custom_needs_a_custom_character() -> None:
    with pytest.raises(OptionError) as err:
        FistGame({"specials": "custom"})
    assert err.value.code == "fist.option.specials_without_custom" and err.value.rule == "F9"
    assert "custom" in err.value.message("en") and "Figur" in err.value.message("de")
    with pytest.raises(OptionError) as err:
        FistGame({"specials": "some", "custom": [_scribe()]})
    assert err.value.code == "fist.option.specials"
    assert err.value.message("de") != err.value.message("en")


def test_f9_default_records_do_not_name_the_specials_option() -> None:
    """Records of games without the option stay as they were: ``specials`` is written only
    when it is not ``all``."""
    assert "specials" not in FistGame({}).record_options()
    assert "specials" not in FistGame({"specials": "all"}).record_options()
    opts = FistGame({"custom": [_scribe()], "specials": "custom"}).record_options()
    assert opts["specials"] == "custom"


def test_f4_1_f9_one_custom_character_alone_is_drawn_every_turn() -> None:
    """F9 with ``specials: custom``: the special deck holds only the custom characters. With
    a single card the turn uses what there is (F4.1): the card is drawn every turn (the
    discard pile reshuffled), and the game plays to its end; its record replays and a
    snapshot mid-game restores (the F1 totals count the smaller deck)."""
    game = FistGame({"players": 3, "custom": [_scribe()], "specials": "custom",
                     "max_turns": 6})
    assert sum(game.special_counts) == 1
    seats = [make_bot("fist", "greedy", random.Random(s)) for s in range(3)]
    state = play_out(game.new_initial_state(), seats, random.Random(4))
    assert state.is_terminal()
    events = state.all_events()
    turns = sum(e.code == "fist.turn.start" for e in events)
    specials = [e.params["card"] for e in events if e.code == "fist.turn.special"]
    assert turns >= 2 and specials == ["scribe"] * turns
    revealed = {e.params.get("card") for e in events if e.code == "fist.auction.card"}
    assert "scribe" in revealed
    assert not revealed & {c.id for c in BUILTIN if not c.standard}
    record = finish_record(new_record(game, [{"bot": "greedy"}] * 3), state)
    record = Record.from_json(json.loads(json.dumps(record.to_json())))
    assert record.options["specials"] == "custom"
    _, again = replay(record)
    assert again.outcome() == state.outcome()
    mid = game.new_initial_state()
    for seat, action in state.history[: len(state.history) // 2]:
        mid.apply(seat, action)
    assert game.restore(mid.snapshot()).snapshot() == mid.snapshot()


def test_f9_specials_custom_keeps_the_builtin_specials_out_of_the_deck() -> None:
    game = FistGame({"custom": [_scribe(2)], "specials": "custom"})
    deck = dict(zip(game.card_ids, game.special_counts, strict=True))
    assert deck["scribe"] == 2 and sum(deck.values()) == 2
    full = FistGame({"custom": [_scribe(2)]})
    assert sum(full.special_counts) == sum(c.count for c in BUILTIN if not c.standard) + 2
    assert isinstance(game.card("scribe").power[1], pw.PayStones)
