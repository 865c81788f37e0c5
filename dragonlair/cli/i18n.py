"""User-interface strings of terminal play, in English and German.

Card names and card texts are not here: they come from the card table
(:meth:`dragonlair.games.fist.cards.Card.name` / ``text``). Everything else the
player reads goes through :func:`tr`.
"""

from __future__ import annotations

import re

LANGS = ("en", "de")

#: key -> (English, German). ``{name}`` fields are filled by :func:`tr`.
STRINGS: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- table setup
    "seed": ("Seed {seed} (play this table again with --seed {seed})",
             "Startwert {seed} (dieselbe Partie nochmal mit --seed {seed})"),
    "seats_line": ("Players: {seats}", "Am Tisch: {seats}"),
    "you": ("You", "Du"),
    "player_n": ("Player {n}", "Spieler {n}"),
    "err_mismatch": ("--players {players} does not match the {seats} --seat option(s) given; "
                     "give one --seat per player, or leave out --players",
                     "--players {players} passt nicht zu den {seats} angegebenen --seat-Optionen; "
                     "gib je Spieler ein --seat an oder lass --players weg"),
    "err_players": ("Fist of Dragonstones is for 3 to 6 players, not {n}",
                    "Faust der Drachensteine ist für 3 bis 6 Personen, nicht für {n}"),
    "err_game": ("interactive play supports only Fist of Dragonstones ('fist'), not {game!r}",
                 "Interaktiv spielbar ist nur Faust der Drachensteine ('fist'), nicht {game!r}"),
    # ---------------------------------------------------------------- the screen
    "title": ("Fist of Dragonstones", "Faust der Drachensteine"),
    "turn": ("Turn {n}", "Runde {n}"),
    "setup_title": ("Setup", "Aufbau"),
    "col_seat": ("Seat", "Platz"),
    "col_name": ("Player", "Spieler"),
    "col_stones": ("Stones", "Steine"),
    "col_score": ("Points", "Punkte"),
    "col_status": ("", ""),
    "doppel_mark": ("holds the Doppelganger", "hat den Doppelgänger"),
    "has_bid": ("has bid", "hat geboten"),
    "in_tie": ("in the tie-break", "im Stechen"),
    "bank": ("Bank", "Bank"),
    "bank_line": ("Fairy Gold {fairy} · Common Gold {common} · Silver {silver} · "
                  "Amulets {amulet} · Black coins {black}",
                  "Feengold {fairy} · Gemeingold {common} · Silber {silver} · "
                  "Amulette {amulet} · schwarze Münzen {black}"),
    "auction": ("Auction", "Versteigerung"),
    "up_for_auction": ("Up for auction: {card}", "Wird versteigert: {card}"),
    "no_card": ("No card is up for auction right now.", "Gerade wird keine Karte versteigert."),
    "tie_break_now": ("Tie-break with Silver between {seats}.",
                      "Stechen mit Silber zwischen {seats}."),
    "to_come": ("Still to come ({n}, order hidden): {cards}",
                "Noch zu versteigern ({n}, Reihenfolge verdeckt): {cards}"),
    "auctioned": ("Revealed this turn: {cards}", "Diese Runde aufgedeckt: {cards}"),
    "specials": ("This turn's special cards: {cards}", "Sonderkarten dieser Runde: {cards}"),
    "deck_left": ("Special deck: {n} cards left", "Sonderstapel: noch {n} Karten"),
    "rainbow_state": ("Rainbow Dragon: named colour {colour}; drawn so far: {drawn}",
                      "Regenbogen-Drache: genannte Farbe {colour}; bisher gezogen: {drawn}"),
    "nothing": ("nothing", "nichts"),
    "none": ("none", "keine"),
    "behind_screen": ("Behind your screen — p{seat} {name}",
                      "Hinter deinem Sichtschirm — p{seat} {name}"),
    "coins_fairy": ("Fairy Gold: {fairy} unspent, {spent} spent this turn",
                    "Feengold: {fairy} frei, {spent} diese Runde ausgegeben"),
    "coins_rest": ("Common Gold: {common} · Silver: {silver} · Black Magic coins: {black} · "
                   "Red Amulets: {amulet}",
                   "Gemeingold: {common} · Silber: {silver} · schwarze Zaubermünzen: {black} · "
                   "rote Amulette: {amulet}"),
    "your_bid": ("Your sealed bid: {bid}", "Dein verdecktes Gebot: {bid}"),
    "events": ("Recent events", "Letzte Ereignisse"),
    "no_events": ("Nothing has happened yet.", "Noch ist nichts passiert."),
    "notes": ("Private notes", "Private Notizen"),
    "final_table": ("Final table", "Endstand"),
    "log_title": ("Game log", "Spielverlauf"),
    # ---------------------------------------------------------------- prompts
    "pause": ("Press Enter when only p{seat} ({name}) is looking",
              "Drücke Enter, wenn nur noch p{seat} ({name}) auf den Bildschirm schaut"),
    "bid_head": ("p{seat} {name}: your sealed bid for the {card}.",
                 "p{seat} {name}: dein verdecktes Gebot für: {card}."),
    "bid_can": ("You may bid up to {fairy} Fairy Gold and {common} Common Gold{extra}.",
                "Du kannst bis zu {fairy} Feengold und {common} Gemeingold bieten{extra}."),
    "bid_can_black": (", plus your Black Magic coin (curse)",
                      ", dazu deine schwarze Zaubermünze (Fluch)"),
    "bid_can_amulet": (", plus a Red Amulet (doubles the bid)",
                       ", dazu ein rotes Amulett (verdoppelt das Gebot)"),
    "bid_examples": ("Type e.g. 3 (3 Fairy), 3 1 (3 Fairy + 1 Common), f3 c1 black amulet, "
                     "0 or pass (empty fist); ? for help.",
                     "Zum Beispiel 3 (3 Feengold), 3 1 (3 Feen- + 1 Gemeingold), "
                     "f3 c1 schwarz amulett, 0 oder passe (leere Faust); ? für Hilfe."),
    "bid_prompt": ("Your bid> ", "Dein Gebot> "),
    "silver_head": ("p{seat} {name}: tie-break for the {card} between {seats}. "
                    "Bid Silver, sealed.",
                    "p{seat} {name}: Stechen um {card} zwischen {seats}. "
                    "Biete verdeckt Silber."),
    "silver_can": ("You may bid up to {silver} Silver{extra}. All Silver bid goes to the bank.",
                   "Du kannst bis zu {silver} Silber bieten{extra}. Alles gebotene Silber geht "
                   "an die Bank."),
    "silver_can_amulet": (", plus a Red Amulet (doubles the Silver)",
                          ", dazu ein rotes Amulett (verdoppelt das Silber)"),
    "silver_examples": ("Type e.g. 2 (2 Silver), 2 amulet, 0 or pass; ? for help.",
                        "Zum Beispiel 2 (2 Silber), 2 amulett, 0 oder passe; ? für Hilfe."),
    "silver_prompt": ("Silver> ", "Silber> "),
    "decide_head": ("p{seat} {name}: {card} — choose:", "p{seat} {name}: {card} — wähle:"),
    "decide_prompt": ("Choice (number or action)> ", "Wahl (Nummer oder Aktion)> "),
    "forced": ("Only one thing was possible, so it was done for you: {what}",
               "Es gab nur eine Möglichkeit, sie wurde für dich gewählt: {what}"),
    "empty_input": ("Please type something (? for help).", "Bitte gib etwas ein (? für Hilfe)."),
    "bad_number": ("There is no option {n}; choose 1 to {max}.",
                   "Es gibt keine Option {n}; wähle 1 bis {max}."),
    "bad_choice": ("{text!r} is not one of the choices; type its number (1 to {max}) or its "
                   "action text.",
                   "{text!r} ist keine der Möglichkeiten; gib ihre Nummer (1 bis {max}) oder "
                   "ihren Aktionstext ein."),
    "bad_word": ("I do not understand {word!r} in a bid.",
                 "{word!r} verstehe ich in einem Gebot nicht."),
    "too_many_numbers": ("Too many numbers: a bid is at most Fairy Gold then Common Gold.",
                         "Zu viele Zahlen: ein Gebot ist höchstens Feengold, dann Gemeingold."),
    "too_many_silver": ("Too many numbers: a tie-break bid is one amount of Silver.",
                        "Zu viele Zahlen: im Stechen bietest du nur eine Menge Silber."),
    "no_fairy": ("You have only {n} unspent Fairy Gold (rule F5.1).",
                 "Du hast nur {n} freies Feengold (Regel F5.1)."),
    "no_common": ("You have only {n} Common Gold (rule F5.1).",
                  "Du hast nur {n} Gemeingold (Regel F5.1)."),
    "no_silver": ("You have only {n} Silver (rule F5.7).", "Du hast nur {n} Silber (Regel F5.7)."),
    "no_black": ("You have no Black Magic coin to bid (rule F6, Witch).",
                 "Du hast keine schwarze Zaubermünze zum Bieten (Regel F6, Hexe)."),
    "no_amulet": ("You have no Red Amulet to bid (rule F7, Goldsmith).",
                  "Du hast kein rotes Amulett zum Bieten (Regel F7, Goldschmied)."),
    "only_gold": ("In an auction you bid Fairy and Common Gold; Silver is only for tie-breaks.",
                  "In einer Versteigerung bietest du Feen- und Gemeingold; Silber nur im Stechen."),
    "only_silver": ("This is a tie-break: bid Silver only (and maybe an Amulet).",
                    "Das ist ein Stechen: biete nur Silber (und eventuell ein Amulett)."),
    "stopped": ("Stopped after {n} actions without a result.",
                "Nach {n} Aktionen ohne Ergebnis abgebrochen."),
    "not_legal": ("Not allowed now: {reason}", "Jetzt nicht erlaubt: {reason}"),
    "try_again": ("Try again.", "Versuch es nochmal."),
    "abandoned": ("Game abandoned; no result.", "Partie abgebrochen; kein Ergebnis."),
    "saved": ("Game record saved to {path}", "Spielprotokoll gespeichert in {path}"),
    "save_failed": ("Could not save the record to {path}: {why}",
                    "Konnte das Protokoll nicht in {path} speichern: {why}"),
    # ---------------------------------------------------------------- result
    "result_head": ("Game over", "Spielende"),
    "winner": ("Winner: {who}", "Gewinner: {who}"),
    "winners": ("Shared win: {who}", "Geteilter Sieg: {who}"),
    "reason": ("Why: {reason}", "Grund: {reason}"),
    "scores": ("Points: {scores}", "Punkte: {scores}"),
    "turns_played": ("Turns played: {n}", "Gespielte Runden: {n}"),
    # ---------------------------------------------------------------- help
    "help_title": ("How to play", "So wird gespielt"),
    "help_rules": (
        "Each auction, every player secretly bids any of their unspent Fairy Gold and Common "
        "Gold, and may add one Black Magic coin and one Red Amulet. A bid is worth Fairy + "
        "Common, twice that with the Amulet. Bid Fairy Gold stays spent until the end of the "
        "turn, then comes back; bid Common Gold, Black coins and Amulets go to the bank, win or "
        "lose. A Black coin curses the card: nobody gets its power. If nobody bids anything, "
        "the card passes. The highest bid wins and must use the card's power. Equal highest "
        "bids go to a sealed Silver tie-break (an Amulet doubles it; all Silver bid is lost); a "
        "new tie means nobody wins. The Witch is always auctioned first. Whoever first reaches "
        "3 points wins the game.",
        "In jeder Versteigerung bieten alle verdeckt beliebig viel freies Feengold und "
        "Gemeingold, dazu wahlweise eine schwarze Zaubermünze und ein rotes Amulett. Ein "
        "Gebot zählt Feen- plus Gemeingold, mit Amulett doppelt. Gebotenes Feengold bleibt bis "
        "zum Rundenende ausgegeben und kommt dann zurück; gebotenes Gemeingold, schwarze "
        "Münzen und Amulette gehen an die Bank, ob man gewinnt oder nicht. Eine schwarze Münze "
        "verflucht die Karte: niemand erhält ihre Fähigkeit. Bietet niemand etwas, verfällt die "
        "Karte. Das höchste Gebot gewinnt und muss die Fähigkeit nutzen. Bei Gleichstand "
        "entscheidet ein verdecktes Stechen mit Silber (ein Amulett verdoppelt es; alles "
        "gebotene Silber ist weg); steht es wieder gleich, gewinnt niemand. Die Hexe wird immer "
        "zuerst versteigert. Wer zuerst 3 Punkte hat, gewinnt."),
    "help_typing": (
        "Bids: 3 = 3 Fairy Gold · 3 1 = 3 Fairy + 1 Common · f3 c1 black amulet · 0 or pass = "
        "the empty fist · the record form works too: bid f3 c1. Tie-break: 2 = 2 Silver · 2 "
        "amulet · silver 2. Choices: type the number or the action text. Also: log (all "
        "events so far), quit (leave the game), ? or help (this text).",
        "Gebote: 3 = 3 Feengold · 3 1 = 3 Feen- + 1 Gemeingold · f3 c1 schwarz amulett · 0 "
        "oder passe = die leere Faust · auch die Protokollform geht: bid f3 c1. Stechen: 2 = "
        "2 Silber · 2 amulett · silver 2. Entscheidungen: Nummer oder Aktionstext eingeben. "
        "Außerdem: log (alle bisherigen Ereignisse), quit (Partie verlassen), ? oder hilfe "
        "(dieser Text)."),
    "help_cards": ("The characters", "Die Figuren"),
    "standard": ("standard", "Standard"),
    "special": ("special", "Sonderkarte"),
    "copies": ("×{n}", "×{n}"),
    # ---------------------------------------------------------------- events
    "ev_setup": ("Starting stones: {stones}", "Startsteine: {stones}"),
    "ev_turn": ("— Turn {n} begins —", "— Runde {n} beginnt —"),
    "ev_turn_end": ("End of turn {n}: spent Fairy Gold goes back behind the screens.",
                    "Ende von Runde {n}: ausgegebenes Feengold kehrt hinter die Schirme zurück."),
    "ev_special": ("Special card for this turn: {card}", "Sonderkarte dieser Runde: {card}"),
    "ev_up": ("Up for auction: {card}", "Versteigert wird: {card}"),
    "ev_last_unauctioned": ("{card} is the last card: it is not auctioned.",
                            "{card} ist die letzte Karte: sie wird nicht versteigert."),
    "ev_bid": ("{who} bid {bid}", "{who} bietet {bid}"),
    "ev_silver": ("{who} bid {silver} in the tie-break", "{who} bietet im Stechen {silver}"),
    "ev_cursed": ("The {card} is cursed by {who}: nobody uses its power.",
                  "{card} ist von {who} verflucht: niemand nutzt die Fähigkeit."),
    "ev_passed": ("Nobody bid: the {card} passes.", "Niemand bietet: {card} verfällt."),
    "ev_tie": ("{who} tie at {value}: Silver tie-break.",
               "{who} bieten gleich viel ({value}): Stechen mit Silber."),
    "ev_tie_again": ("Tie again: nobody wins the {card}.",
                     "Wieder Gleichstand: niemand gewinnt {card}."),
    "ev_won": ("{who} won the {card}", "{who} gewinnt: {card}"),
    "ev_goblin": ("{who} draws {card} from the pile and uses it.",
                  "{who} zieht {card} aus dem Stapel und nutzt die Karte."),
    "ev_draw_stone": ("{who} draws a {colour} stone.", "{who} zieht einen Stein: {colour}."),
    "ev_rainbow_bust": ("That is the named colour: all drawn stones go back.",
                        "Das ist die genannte Farbe: alle gezogenen Steine gehen zurück."),
    "ev_chose": ("{who} chose: {what}", "{who} wählt: {what}"),
    "ev_stones": ("{who} stones: {change}", "{who} Steine: {change}"),
    "ev_score": ("{who} now has {points}", "{who} hat jetzt {points}"),
    "ev_took": ("{who} took {what} from the bank", "{who} nimmt {what} von der Bank"),
    "ev_paid": ("{who} paid {what} to the bank", "{who} zahlt {what} an die Bank"),
    "ev_doppel_keep": ("{who} keeps the Doppelganger face up.",
                       "{who} behält den Doppelgänger offen."),
    "ev_doppel_gone": ("The Doppelganger goes to the discard pile.",
                       "Der Doppelgänger kommt auf den Ablagestapel."),
    "ev_over": ("Game over: {reason}", "Spielende: {reason}"),
    # ---------------------------------------------------------------- bids in words
    "bid_empty": ("nothing (the empty fist)", "nichts (die leere Faust)"),
    "bid_fairy": ("{n} Fairy", "{n} Feengold"),
    "bid_common": ("{n} Common", "{n} Gemeingold"),
    "bid_black": ("a Black Magic coin", "eine schwarze Zaubermünze"),
    "bid_amulet": ("an Amulet (×2)", "ein Amulett (×2)"),
    "silver_n": ("{n} Silver", "{n} Silber"),
    "silver_zero": ("no Silver", "kein Silber"),
    # ---------------------------------------------------------------- coins and stones
    "c_fairy": ("{n} Fairy Gold", "{n} Feengold"),
    "c_common": ("{n} Common Gold", "{n} Gemeingold"),
    "c_silver": ("{n} Silver", "{n} Silber"),
    "c_amulet": ("{n} Red Amulet{s}", "{n} {rote} Amulett{e}"),
    "c_black": ("{n} Black Magic coin{s}", "{n} schwarze Zaubermünze{n_}"),
    "stone_n": ("{n} {colour}", "{n} {colour}"),
    # ---------------------------------------------------------------- decisions in words
    "d_pay": ("Pay {stones}", "Zahle Steine ({stones})"),
    "d_pay_points": ("Pay {stones} for {points}", "Zahle Steine ({stones}) für {points}"),
    "d_take": ("Take {what} instead", "Nimm stattdessen {what}"),
    "d_take_plain": ("Take the coins instead", "Nimm stattdessen die Münzen"),
    "d_colour_gain": ("Take a {colour} stone", "Nimm einen Stein: {colour}"),
    "d_colour_troll": ("Everyone returns all {colour} stones",
                       "Alle geben ihre Steine ab: {colour}"),
    "d_colour_rainbow": ("Name {colour}", "Nenne {colour}"),
    "d_colour": ("Colour {colour}", "Farbe {colour}"),
    "d_steal": ("Take a {colour} stone from {who}", "Nimm {who} einen Stein weg: {colour}"),
    "d_steal_coin": ("Take a coin from {who} (no one you may rob has a stone)",
                     "Nimm {who} eine Münze weg (keiner der Betroffenen hat einen Stein)"),
    "d_target": ("Rob {who}: all their unspent Common Gold and Silver",
                 "Beraube {who}: all sein freies Gemeingold und Silber"),
    "d_pick": ("Use the {card}: {text}", "Nutze {card}: {text}"),
    "d_buy": ("Buy a {colour} stone for {price}", "Kaufe einen Stein ({colour}) für {price}"),
    "d_done": ("Stop buying", "Nicht mehr kaufen"),
    "d_accept": ("Pay every coin you bid on this card for {points}",
                 "Gib alle für diese Karte gebotenen Münzen für {points} ab"),
    "d_decline": ("Decline (your Fairy Gold comes back at the end of the turn as usual)",
                  "Ablehnen (dein Feengold kommt wie üblich am Rundenende zurück)"),
    "d_draw": ("Draw another stone", "Noch einen Stein ziehen"),
    "d_stop": ("Stop and keep the stones drawn ({drawn})",
               "Aufhören und die gezogenen Steine behalten ({drawn})"),
    "d_double": ("Play the Doppelganger: use this power twice",
                 "Doppelgänger ausspielen: die Fähigkeit zweimal nutzen"),
    "d_single": ("Use the power once and keep the Doppelganger",
                 "Die Fähigkeit einmal nutzen und den Doppelgänger behalten"),
    "d_card": ("Card: {card}", "Karte: {card}"),
    "d_stone": ("Stone: {colour}", "Stein: {colour}"),
}

COLOUR_NAMES: dict[str, tuple[str, str]] = {
    "red": ("red", "rot"),
    "blue": ("blue", "blau"),
    "yellow": ("yellow", "gelb"),
}

#: rich styles of the stone colours
COLOUR_STYLES = {"red": "bold red", "blue": "bold bright_blue", "yellow": "bold yellow"}


def tr(lang: str, key: str, **fields: object) -> str:
    """The UI string ``key`` in ``lang`` (English for anything else), fields filled in."""
    en, de = STRINGS[key]
    text = de if lang == "de" else en
    return text.format(**fields) if fields else text


def points(lang: str, n: int) -> str:
    """``1 point`` / ``2 points`` (``1 Punkt`` / ``2 Punkte``)."""
    if lang == "de":
        return f"{n} Punkt" if n == 1 else f"{n} Punkte"
    return f"{n} point" if n == 1 else f"{n} points"


def coins(lang: str, key: str, n: int) -> str:
    """``3 Silver``, ``1 Red Amulet``, ``2 Black Magic coins``... in ``lang``."""
    one = n == 1
    return tr(lang, f"c_{key}", n=n, s="" if one else "s", e="" if one else "e",
              n_="" if one else "n", rote="rotes" if one else "rote")


def colour_name(lang: str, colour: str) -> str:
    en, de = COLOUR_NAMES[colour]
    return de if lang == "de" else en


# ---------------------------------------------------------------- engine texts in German
# The engine writes its private notes and end reasons in English; the German interface
# recognises the known forms and says them in German (anything else is shown as it is).

_WHAT_DE = {
    "1 Common Gold": "1 Gemeingold",
    "1 unspent Fairy Gold": "1 freies Feengold",
    "1 spent Fairy Gold (it returns to the thief at the end of the turn)":
        "1 ausgegebenes Feengold (es geht am Rundenende an den Dieb)",
    "nothing": "nichts",
}

_NOTE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^turn (\d+): Thief: you took (.+) from (p\d+)$"),
     "Runde {0}: Dieb: du hast {2} {1} weggenommen"),
    (re.compile(r"^turn (\d+): Thief: (p\d+) took (.+) from you$"),
     "Runde {0}: Dieb: {1} hat dir {2} weggenommen"),
    (re.compile(r"^turn (\d+): Brigand: (p\d+) gave you (\d+) Common Gold and (\d+) Silver$"),
     "Runde {0}: Wegelagerer: {1} hat dir {2} Gemeingold und {3} Silber gegeben"),
    (re.compile(r"^turn (\d+): Brigand: you gave (p\d+) (\d+) Common Gold and (\d+) Silver$"),
     "Runde {0}: Wegelagerer: du hast {1} {2} Gemeingold und {3} Silber gegeben"),
]

_REASON_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(p\d+) reached (\d+) points$"), "{0} hat {1} Punkte erreicht"),
    (re.compile(r"^turn limit of (\d+) reached; highest score wins$"),
     "Rundenlimit von {0} erreicht; die höchste Punktzahl gewinnt"),
]


def _translate(text: str, forms: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, german in forms:
        m = pattern.match(text)
        if m:
            return german.format(*(_WHAT_DE.get(g, g) for g in m.groups()))
    return text


def engine_note(lang: str, note: str) -> str:
    """A private note of the engine (Thief, Brigand) in ``lang``."""
    return _translate(note, _NOTE_FORMS) if lang == "de" else note


def engine_reason(lang: str, reason: str) -> str:
    """The engine's end-of-game reason in ``lang``."""
    return _translate(reason, _REASON_FORMS) if lang == "de" else reason
