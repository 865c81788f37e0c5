"""Dragon Farkle's puzzle rules (issue 27; docs/puzzles.md): which choices make puzzles.

Only the exact values of the optimal policy count (docs/analysis.md): a Recruit decision in
expected soldiers banked this turn (``RecruitDP``), the attacker's in expected soldiers swung
(``AttackDP``), the defender's in the chance to beat the attack (``DefenceDP``). The action
of the turn (the race model's estimate) never makes a puzzle, nor a decision with an option
the policy does not value (item uses, discards). A decision is kept where the policy's
choice is the unique best and beats every other option by at least ``farkle_soldiers``
expected soldiers, or ``farkle_chance`` of win chance for the defender. Bank or roll with
less than that margin to bank is no question (rolling on is plain) and is left out.

Themes: ``recruit`` (a Recruit decision), ``bank_threshold`` (bank or roll on),
``hot_dice`` (the answer keeps every die: six fresh dice), ``skirmish`` (a Skirmish decision),
``attack`` / ``defence`` (whose side of it), ``alliance`` (double or an item).

The stored view is the bot's (no event log) without the game's history lines (the terminal
and the policy read neither); its identity (the puzzle's id) also drops the turn count.
"""

from __future__ import annotations

from collections.abc import Sequence

from dragonlair.analysis.hints import Hint
from dragonlair.core.game import JSON
from dragonlair.puzzles.mine import Judged, MineSettings

_DROP_PUBLIC = ("history",)
_DROP_TOP = ("turn", "events", "events_since", "events_total")
_QUESTIONS = {"keep": "puzzle.question.keep", "alliance": "puzzle.question.alliance",
              "tabby": "puzzle.question.tabby"}


class FarklePuzzles:
    def position(self, view: JSON) -> JSON:
        out = {k: v for k, v in view.items() if k not in _DROP_TOP[1:]}
        out["public"] = {k: v for k, v in view["public"].items() if k not in _DROP_PUBLIC}
        return out

    def identity(self, view: JSON) -> JSON:
        return {k: v for k, v in view.items() if k != "turn"}

    def candidate(self, view: JSON, legal: Sequence[str], settings: MineSettings) -> bool:
        public = view["public"]
        return public["decision"] not in (None, "action") and public["mode"] in (
            "recruit", "skirmish")

    def judge(self, view: JSON, hint: Hint, settings: MineSettings) -> Judged | None:
        if not hint.exact or len(hint.options) < 2:
            return None
        if any(o.value is None for o in hint.options):
            return None
        ranked = sorted(hint.options, key=lambda o: -(o.value or 0.0))
        best, second = ranked[0], ranked[1]
        assert best.value is not None and second.value is not None
        margin = best.value - second.value
        need = settings.farkle_soldiers if hint.unit == "soldiers" else settings.farkle_chance
        if margin < need or not best.best:
            return None
        public = view["public"]
        decision, mode = public["decision"], public["mode"]
        if decision == "continue" and mode == "recruit" and any(
                o.action == "bank" and (o.value or 0.0) < need for o in hint.options):
            return None  # banking (next to) nothing is no real option: not a puzzle
        if decision == "continue":
            question = ("puzzle.question.bank_or_roll" if mode == "recruit"
                        else "puzzle.question.roll_or_stop")
        else:
            question = _QUESTIONS.get(decision, "puzzle.question.move")
        if hint.unit == "soldiers":
            why = {"key": "puzzle.why.farkle.soldiers",
                   "params": {"best": best.action, "value": round(best.value),
                              "second": second.action, "next": round(second.value)}}
        else:
            why = {"key": "puzzle.why.farkle.chance",
                   "params": {"best": best.action, "value": round(100 * best.value),
                              "second": second.action, "next": round(100 * second.value)}}
        return Judged(question, (best.action,), margin, self.themes(view, best.action), why)

    def themes(self, view: JSON, action: str) -> tuple[str, ...]:
        public = view["public"]
        out: list[str] = []
        if public["mode"] == "recruit":
            out.append("puzzle.theme.farkle.recruit")
            if public["decision"] == "continue":
                out.append("puzzle.theme.farkle.bank_threshold")
        else:
            out.append("puzzle.theme.farkle.skirmish")
            sk = public["skirmish"] or {}
            out.append("puzzle.theme.farkle.attack" if sk.get("attacker") == view["seat"]
                       else "puzzle.theme.farkle.defence")
        if public["decision"] == "alliance":
            out.append("puzzle.theme.farkle.alliance")
        keep = next((k for k in (view.get("legal") or {}).get("keeps", [])
                     if k.get("action") == action), None)
        if keep is not None and keep.get("dice_left") == 0:
            out.append("puzzle.theme.farkle.hot_dice")
        return tuple(out)


RULES = FarklePuzzles()

