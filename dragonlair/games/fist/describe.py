"""A character's power in words (F9): the card text of a custom character, in any language.

:func:`describe` turns a power as written in a character file (``[{"gain": {"common": 2}},
...]``, docs/custom-characters.md) into full sentences, one per step, the later ones
starting "Then": ``Take 2 Common Gold and 1 Silver. Then pay 2 stones of any colours for 1
point, if you can.`` Every word comes from the catalogues (``fist.describe.*``), counts
through their plural forms, so a language is added by translating, not here. The data is
checked first, with the same ``fist.custom.*`` codes as a character file
(:func:`dragonlair.games.fist.custom.check_power`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dragonlair.core.i18n import render
from dragonlair.games.fist import powers as pw

#: the stone colours in the order of :attr:`powers.Gain.stones`
_COLOURS = ("red", "blue", "yellow")


def describe(power: Any, lang: str = "en", cid: str = "power") -> str:
    """The text of a power given as data, in ``lang``; :class:`OptionError` with a
    ``fist.custom.*`` code (naming ``cid`` and the step) if the data is no valid power."""
    from dragonlair.games.fist.custom import check_power

    return describe_steps(check_power(power, cid), lang)


def describe_steps(steps: Sequence[pw.Step], lang: str = "en") -> str:
    """The text of a power's steps (already checked), in ``lang``."""
    out: list[str] = []
    for i, step in enumerate(steps):
        sentence = _step(step, lang)
        if i:
            sentence = render("fist.describe.then", {"step": sentence[:1].lower() + sentence[1:]},
                              lang)
        out.append(sentence)
    return " ".join(out)


def _r(code: str, lang: str, **params: Any) -> str:
    return render(f"fist.describe.{code}", params, lang)


def _join(parts: Sequence[str], lang: str, word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``word``: ``and`` or ``or``, from the catalogue)."""
    if len(parts) <= 1:
        return "".join(parts)
    return _r(word, lang, first=_r("comma", lang).join(parts[:-1]), last=parts[-1])


def _things(gain: pw.Gain, lang: str) -> str:
    """What a gain gives, as a list: ``2 Common Gold and 1 Silver``."""
    amounts = [("fairy", gain.fairy), ("common", gain.common), ("silver", gain.silver),
               ("amulet", gain.amulet), ("black", gain.black),
               *zip(_COLOURS, gain.stones, strict=True)]
    return _join([_r(f"item.{kind}", lang, n=n) for kind, n in amounts if n], lang)


def _stones(pay: pw.PayStones, lang: str) -> str:
    n = pay.count // 3 if pay.pattern == "each" else pay.count
    return _r(f"stones_{pay.pattern}", lang, n=n)


def _points(points: int, lang: str) -> str:
    return _r("points", lang, n=points)


def _step(step: pw.Step, lang: str) -> str:
    return TEXT.of(step)(step, lang)


#: each primitive's sentence: ``(step, lang) -> text``
TEXT: pw.Table[Callable[[Any, str], str]] = pw.Table("describe.TEXT")


@TEXT.on(pw.Gain)
def _gain(step: pw.Gain, lang: str) -> str:
    return _r("gain", lang, things=_things(step, lang))


@TEXT.on(pw.GainStoneChoice)
def _gain_stone_choice(step: pw.GainStoneChoice, lang: str) -> str:
    return _r("gain_stone_choice", lang, n=step.count)


@TEXT.on(pw.PayStones)
def _pay_stones(step: pw.PayStones, lang: str) -> str:
    return _r("pay_stones", lang, stones=_stones(step, lang), points=_points(step.points, lang))


@TEXT.on(pw.Choice)
def _either(step: pw.Choice, lang: str) -> str:
    return _r("either", lang, stones=_stones(step.pay, lang),
              points=_points(step.pay.points, lang), things=_things(step.alternative, lang))


@TEXT.on(pw.StealSecond)
def _steal_from_second(step: pw.StealSecond, lang: str) -> str:
    return _r("steal_from_second", lang)


@TEXT.on(pw.TakeAllFrom)
def _take_all_from(step: pw.TakeAllFrom, lang: str) -> str:
    kinds = [_r(f"kind.{k}", lang) for k, on in (("common", step.common),
                                                 ("silver", step.silver)) if on]
    return _r("take_all_from", lang, kinds=_join(kinds, lang))


@TEXT.on(pw.CopyAuctioned)
def _copy_auctioned(step: pw.CopyAuctioned, lang: str) -> str:
    return _r("copy_auctioned", lang)


@TEXT.on(pw.PlayUnauctioned)
def _play_unauctioned(step: pw.PlayUnauctioned, lang: str) -> str:
    return _r("play_unauctioned_choose" if step.choose else "play_unauctioned_random", lang)


@TEXT.on(pw.BuyStones)
def _buy_stones(step: pw.BuyStones, lang: str) -> str:
    prices = [_r(f"price.{coin}", lang, n=n) for coin, n in (
        ("common", step.common), ("fairy", step.fairy), ("silver", step.silver)) if n]
    if not prices:
        return _r("buy_stones_none", lang)
    return _r("buy_stones", lang, prices=_join(prices, lang, "or"))


@TEXT.on(pw.Necromancer)
def _necromancer(step: pw.Necromancer, lang: str) -> str:
    return _r("necromancer", lang, points=_points(step.points, lang))


@TEXT.on(pw.PayAllStones)
def _pay_all_stones(step: pw.PayAllStones, lang: str) -> str:
    return _r("pay_all_stones", lang, points=_points(step.points, lang))


@TEXT.on(pw.PushYourLuck)
def _push_your_luck(step: pw.PushYourLuck, lang: str) -> str:
    return _r("push_your_luck", lang)


@TEXT.on(pw.LoseColour)
def _lose_colour(step: pw.LoseColour, lang: str) -> str:
    return _r("lose_colour", lang)


@TEXT.on(pw.BagDraw)
def _bag_draw(step: pw.BagDraw, lang: str) -> str:
    return _r("bag_draw", lang, stones=_r("stones", lang, n=step.per_colour),
              drawn=_r("stones", lang, n=step.draws))


@TEXT.on(pw.KeepDoppelganger)
def _keep_doppelganger(step: pw.KeepDoppelganger, lang: str) -> str:
    return _r("keep_doppelganger", lang)


@TEXT.on(pw.DiscardDoppelganger)
def _discard_doppelganger(step: pw.DiscardDoppelganger, lang: str) -> str:
    return _r("discard_doppelganger", lang)


TEXT.check()
