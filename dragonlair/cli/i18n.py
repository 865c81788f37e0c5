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
    "err_game": ("{game!r} cannot be played in the terminal yet (playable: fist, master)",
                 "{game!r} ist im Terminal noch nicht spielbar (spielbar: fist, master)"),
    "err_not_for": ("{option} is an option of {owner} only, not of {game}",
                    "{option} gibt es nur bei {owner}, nicht bei {game}"),
    "err_four": ("--four-of-a-kind must be 100 or 100+face, not {value!r}",
                 "--four-of-a-kind muss 100 oder 100+face sein, nicht {value!r}"),
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
    # ================================================================ Dragon Master
    "m_title": ("Dragon Master", "Dragon Master"),
    "m_round": ("Round {n}", "Runde {n}"),
    "err_m_players": ("Dragon Master is for 2 players, not {n}",
                      "Dragon Master ist für 2 Personen, nicht für {n}"),
    "err_m_seats": ("Dragon Master needs exactly 2 --seat options (p0 then p1), not {n}; or "
                    "give none for you against the {bot} bot",
                    "Dragon Master braucht genau 2 --seat-Optionen (p0, dann p1), nicht {n}; "
                    "oder keine für dich gegen den Bot {bot}"),
    "m_lines_cols": ("columns", "Spalten"),
    "m_lines_rows": ("rows", "Zeilen"),
    "m_seat_lines": ("p{seat} {name} ({lines})", "p{seat} {name} ({lines})"),
    "m_started": ("p{seat} began this round", "p{seat} hat diese Runde begonnen"),
    "m_dragons": ("Dragons (first to 2 wins the match): {dragons}",
                  "Drachen (wer zuerst 2 hat, gewinnt das Match): {dragons}"),
    "m_last": ("Last card: p{seat} {name} put {card} on {cell}",
               "Zuletzt: p{seat} {name} legte {card} auf {cell}"),
    "m_first": ("No card on the table yet: the first card goes on d4.",
                "Noch liegt keine Karte: die erste kommt auf d4."),
    "m_view_0": ("Seen from p0's side: columns a–g run away from p0, row 1 is nearest. "
                 "p0 owns the columns, p1 the rows.",
                 "Von p0 aus gesehen: die Spalten a–g laufen von p0 weg, Zeile 1 ist am "
                 "nächsten. p0 gehören die Spalten, p1 die Zeilen."),
    "m_view_1": ("Seen from p1's side (turned a quarter turn): p1's lines, the rows 1–7, run "
                 "away from p1 as columns; p0's lines, the columns a–g, run across. Cell names "
                 "stay the same.",
                 "Von p1 aus gesehen (um eine Vierteldrehung gedreht): die Reihen von p1, die "
                 "Zeilen 1–7, laufen als Spalten von p1 weg; die Reihen von p0, die Spalten "
                 "a–g, laufen quer. Die Feldnamen bleiben gleich."),
    "m_view_public": ("p0 owns the columns (a–g), p1 the rows (1–7).",
                      "p0 gehören die Spalten (a–g), p1 die Zeilen (1–7)."),
    "m_legend": ("[0] Egg · [1] Emerald · [2] Sapphire · [3] Ruby · a name like {cell} marks "
                 "a cell you may use · the numbers beside and below are what each line scores "
                 "now",
                 "[0] Ei · [1] Smaragd · [2] Saphir · [3] Rubin · ein Name wie {cell} markiert "
                 "ein Feld, auf das du legen darfst · die Zahlen daneben und darunter sind der "
                 "jetzige Wert jeder Reihe"),
    "m_lines_now": ("Lines now, lowest first — p{seat} {name} ({lines}): {scores}",
                    "Reihen jetzt, niedrigste zuerst — p{seat} {name} ({lines}): {scores}"),
    "m_hand_title": ("Your hand — p{seat} {name}", "Deine Hand — p{seat} {name}"),
    "m_hand_empty": ("no cards", "keine Karten"),
    "m_other_hand": ("p{seat} {name} holds {n} cards.", "p{seat} {name} hält {n} Karten."),
    "m_other_hand_1": ("p{seat} {name} holds 1 card.", "p{seat} {name} hält 1 Karte."),
    "m_unseen": ("Cards you have not seen: {n} ({cards}) — the other hand and the 4 set aside.",
                 "Karten, die du nicht gesehen hast: {n} ({cards}) — die andere Hand und die 4 "
                 "beiseitegelegten."),
    "m_hands_public": ("Cards in hand: {hands}.", "Karten auf der Hand: {hands}."),
    "m_place_head": ("p{seat} {name}: place a card — a card and a cell, e.g. {example} "
                     "(? help, log, quit)",
                     "p{seat} {name}: lege eine Karte — Karte und Feld, z. B. {example} "
                     "(? Hilfe, log, quit)"),
    "m_prompt": ("Your move> ", "Dein Zug> "),
    # ---------------------------------------------------------------- input problems
    "m_bad_cell": ("{cell} is not on the board; cells are a1 to g7 (columns a–g, rows 1–7).",
                   "{cell} liegt nicht auf dem Brett; Felder sind a1 bis g7 (Spalten a–g, "
                   "Zeilen 1–7)."),
    "m_taken": ("{cell} is not a legal cell: the {card} is already there. Legal now: {legal}.",
                "{cell} ist kein erlaubtes Feld: dort liegt schon {card}. Erlaubt: {legal}."),
    "m_origin": ("{cell} is not a legal cell: the first card goes on d4 (the grid is named "
                 "around it).",
                 "{cell} ist kein erlaubtes Feld: die erste Karte kommt auf d4 (das Raster ist "
                 "darum herum benannt)."),
    "m_not_adjacent": ("{cell} is not a legal cell: it does not share a side with a placed "
                       "card (corners are not enough, M3). Legal now: {legal}.",
                       "{cell} ist kein erlaubtes Feld: es grenzt mit keiner Seite an eine "
                       "liegende Karte (über Eck reicht nicht, M3). Erlaubt: {legal}."),
    "m_outside_box": ("{cell} is not a legal cell: the cards would no longer fit in a 4 × 4 "
                      "box (M3). Legal now: {legal}.",
                      "{cell} ist kein erlaubtes Feld: die Karten passten nicht mehr in ein "
                      "4 × 4-Raster (M3). Erlaubt: {legal}."),
    "m_no_card": ("You have no {card}; your hand: {hand}.",
                  "{card} hast du nicht auf der Hand; deine Hand: {hand}."),
    "m_bad_value": ("No card has the value {n}; the values are 0 (Egg) to 3 (Ruby).",
                    "Keine Karte hat den Wert {n}; die Werte sind 0 (Ei) bis 3 (Rubin)."),
    "m_ambiguous": ("{word!r} could be {cards}; type more letters or the value.",
                    "{word!r} kann {cards} sein; tippe mehr Buchstaben oder den Wert."),
    "m_unknown_word": ("I do not understand {word!r}; type a card and a cell, e.g. {example}.",
                       "{word!r} verstehe ich nicht; gib Karte und Feld ein, z. B. {example}."),
    "m_two_cards": ("Name one card, not two.", "Nenne eine Karte, nicht zwei."),
    "m_two_cells": ("Name one cell, not two.", "Nenne ein Feld, nicht zwei."),
    "m_which_card": ("Which card? Your hand: {hand}.", "Welche Karte? Deine Hand: {hand}."),
    "m_which_cell": ("Which cell? Legal now: {legal}.", "Welches Feld? Erlaubt: {legal}."),
    "m_log_title": ("Cards placed this round", "In dieser Runde gelegt"),
    "m_log_empty": ("No card placed yet this round.", "In dieser Runde liegt noch keine Karte."),
    # ---------------------------------------------------------------- events
    "m_ev_round": ("— Round {n} —", "— Runde {n} —"),
    "m_ev_start_lot": ("p{seat} {name} starts (drawn by lot).",
                       "p{seat} {name} beginnt (ausgelost)."),
    "m_ev_start": ("p{seat} {name} starts.", "p{seat} {name} beginnt."),
    "m_ev_place": ("p{seat} {name}: {card} on {cell}", "p{seat} {name}: {card} auf {cell}"),
    # ---------------------------------------------------------------- round end (M4, M5)
    "m_round_over": ("Round {n} is over", "Runde {n} ist vorbei"),
    "m_final_lines": ("p{seat} {name} ({lines}), lowest first: {scores}",
                      "p{seat} {name} ({lines}), niedrigste zuerst: {scores}"),
    "m_decided": ("Compared from the lowest (p0 : p1): {steps} — p{seat} {name} wins the "
                  "round.",
                  "Von der niedrigsten an verglichen (p0 : p1): {steps} — p{seat} {name} "
                  "gewinnt die Runde."),
    "m_drawn": ("Both lists are equal: a drawn round.",
                "Beide Listen sind gleich: die Runde ist unentschieden."),
    "m_set_aside": ("Set aside this round: {cards}", "In dieser Runde beiseitegelegt: {cards}"),
    "m_dragon_won": ("p{seat} {name} takes a dragon.", "p{seat} {name} bekommt einen Drachen."),
    "m_no_dragon": ("Nobody takes a dragon.", "Niemand bekommt einen Drachen."),
    "m_next_loser": ("p{seat} {name} starts the next round (lost this one).",
                     "p{seat} {name} beginnt die nächste Runde (hat diese verloren)."),
    "m_next_drawn": ("p{seat} {name} starts the next round (did not start the drawn one).",
                     "p{seat} {name} beginnt die nächste Runde (hat die unentschiedene nicht "
                     "begonnen)."),
    "m_next_round": ("Press Enter for the next round", "Drücke Enter für die nächste Runde"),
    "m_drawn_game": ("Drawn round: nobody wins.", "Unentschieden: niemand gewinnt."),
    "m_lowest": ("Lowest lines: {scores}", "Niedrigste Reihen: {scores}"),
    "m_dragons_end": ("Dragons: {dragons}", "Drachen: {dragons}"),
    "m_rounds_played": ("Rounds played: {n}", "Gespielte Runden: {n}"),
    # ---------------------------------------------------------------- help
    "m_help_typing": (
        "Typing a move: a card and a cell in any order — ruby d4, 3 d4, r d4, d4 ruby, or the "
        "record form place ruby d4. A card is its value (0 Egg, 1 Emerald, 2 Sapphire, 3 Ruby) "
        "or its name, or the start of it (r, s, em, eg). With one legal cell the card alone is "
        "enough; with one kind of card in hand, the cell alone. Also: log (the cards placed "
        "this round), quit (leave the game), ? or help (this text).",
        "Einen Zug eingeben: Karte und Feld in beliebiger Reihenfolge — rubin d4, 3 d4, r d4, "
        "d4 rubin, oder die Protokollform place ruby d4. Eine Karte ist ihr Wert (0 Ei, "
        "1 Smaragd, 2 Saphir, 3 Rubin) oder ihr Name oder dessen Anfang (r, sa, sm, ei). Gibt "
        "es nur ein erlaubtes Feld, genügt die Karte; hast du nur eine Kartenart, genügt das "
        "Feld. Außerdem: log (die in dieser Runde gelegten Karten), quit (Partie verlassen), "
        "? oder hilfe (dieser Text)."),
    "m_cards_title": ("The cards", "Die Karten"),
    "m_col_card": ("Card", "Karte"),
    "m_col_value": ("Value", "Wert"),
    "m_col_copies": ("Copies", "Anzahl"),
    "m_col_type": ("Type", "Eingabe"),
    "m_scoring_title": ("What a line of 4 scores (M4)", "Was eine Reihe aus 4 Karten zählt (M4)"),
    "m_col_group": ("Of one value in the line", "Gleiche Werte in der Reihe"),
    "m_one": ("one card", "eine Karte"),
    "m_pair": ("a pair", "ein Paar"),
    "m_three": ("three", "drei"),
    "m_four": ("four", "vier"),
    "m_scoring_notes": (
        "Each value group in a line counts on its own and the groups add up: two pairs both "
        "count (1 1 3 3 = 10 + 30 = 40), and 3 2 1 0 = 6. Eggs score only as three or four of a "
        "kind.",
        "Jede Wertgruppe einer Reihe zählt für sich, die Gruppen werden addiert: zwei Paare "
        "zählen beide (1 1 3 3 = 10 + 30 = 40), und 3 2 1 0 = 6. Eier zählen nur als Drilling "
        "oder Vierling."),
    "m_four_option": ("(this table: four of a value score {rule})",
                      "(an diesem Tisch: vier gleiche zählen {rule})"),
    "m_four_both": ("Four of a value: 100, or 100 plus the face value with --four-of-a-kind "
                    "100+face.",
                    "Vier gleiche: 100, oder mit --four-of-a-kind 100+face 100 plus den "
                    "Kartenwert."),
    "m_rule_100": ("100", "100"),
    "or_join": (" or ", " oder "),
    "m_rule_face": ("100 plus the face value", "100 plus den Kartenwert"),
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
    # Dragon Master (M4, M5)
    (re.compile(r"^lowest lines compared$"), "die niedrigsten Reihen wurden verglichen"),
    (re.compile(r"^drawn round$"), "unentschiedene Runde"),
    (re.compile(r"^(p\d+) took a second dragon$"), "{0} hat den zweiten Drachen bekommen"),
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
