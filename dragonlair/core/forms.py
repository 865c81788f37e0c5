"""Reading a view's action form (``legal.form``, :class:`dragonlair.core.views.ActionForm`,
docs/views.md): the legal actions of a seat written in parts by the engine. Every choice of
one option per part is a legal action, and its text is the chosen options' texts joined in
the parts' order. A client (the terminal, the Python client, a load generator) picks
options by their slots and joins the engine's texts, or finds the options a text is made
of: it never writes a word of an action itself (the grammar of actions is the engine's).

Plain functions on plain data, shared by every interface: the Python client re-exports them
(:mod:`dragonlair.client`).
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def form_texts(form: JSON) -> list[str]:
    """Every action of a view's action form (``legal.form``, docs/views.md): each choice of
    one option per part, the options' texts joined in the parts' order; the last part
    varies fastest."""
    out = [""]
    for part in form["parts"]:
        out = [head + str(text) for head in out for text in part["texts"]]
    return out


def form_text(form: JSON, choice: dict[str, int | bool]) -> str | None:
    """The text of one action of a form: ``choice`` gives each slot's option (a count as
    itself, a flag as ``False`` / ``True``, a list's entry by its index; a slot not named:
    its first option). ``None`` when an option is not there (not legal)."""
    text = []
    for part in form["parts"]:
        slot = part.get("slot")
        i = int(choice.get(slot, 0)) if slot is not None else 0
        texts = part["texts"]
        if not 0 <= i < len(texts):
            return None
        text.append(str(texts[i]))
    return "".join(text)


def form_choice(form: JSON, text: str) -> dict[str, int] | None:
    """The options ``text`` is made of, by slot (the inverse of :func:`form_text`), or
    ``None`` when the form names no such action."""
    parts = form["parts"]

    def match(k: int, at: int) -> dict[str, int] | None:
        if k == len(parts):
            return {} if at == len(text) else None
        for i, option in enumerate(parts[k]["texts"]):
            if text.startswith(option, at):
                rest = match(k + 1, at + len(option))
                if rest is not None:
                    slot = parts[k].get("slot")
                    return rest if slot is None else {slot: i, **rest}
        return None

    return match(0, 0)


def form_slots(form: JSON) -> dict[str, int]:
    """How many options each slot of a form has, by slot (a count's highest value is one
    less; a flag has 2 when the seat may set it, else 1): the form's fixed parts left out."""
    return {str(part["slot"]): len(part["texts"]) for part in form["parts"]
            if part.get("slot") is not None}


def written(form: JSON | None, choice: dict[str, int | bool]) -> str | None:
    """The text of ``choice`` in ``form`` if ``form`` is one of that shape (its slots are
    exactly ``choice``'s) and holds it; else ``None``. A client that holds several forms
    (the view's, of the legal actions; an engine's of every action of a kind) writes a
    choice in the first that has it."""
    if form is None or set(form_slots(form)) != set(choice):
        return None
    return form_text(form, choice)
