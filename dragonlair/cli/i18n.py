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
    "err_game": ("{game!r} cannot be played in the terminal yet (playable: fist, master, "
                 "farkle)",
                 "{game!r} ist im Terminal noch nicht spielbar (spielbar: fist, master, farkle)"),
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
    "col_status": ("Status", "Status"),
    "col_character": ("Character", "Figur"),
    "col_copies": ("Copies", "Anzahl"),
    "col_power": ("Power", "Fähigkeit"),
    "since_title": ("Auctions since your last screen", "Versteigerungen seit deiner letzten "
                    "Ansicht"),
    "since_more": ("(type log for the whole game log)", "(log zeigt den ganzen Spielverlauf)"),
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
    "err_save_path": ("--save {path}: cannot save the game record there: {why}",
                      "--save {path}: dort kann das Spielprotokoll nicht gespeichert werden: "
                      "{why}"),
    "end_prompt": ("Game over. Type log to read the whole game log, or press Enter to leave> ",
                   "Partie vorbei. Tippe log für den ganzen Spielverlauf, oder Enter zum "
                   "Beenden> "),
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
    "m_deciding": ("Decided by the {which} lines: p0 {name0} {a} against p1 {name1} {b}",
                   "Entschieden durch die {which} Reihen: p0 {name0} {a} gegen p1 {name1} {b}"),
    "m_deciding_ties": ("(the lower lines are equal: {ties})",
                        "(die niedrigeren Reihen sind gleich: {ties})"),
    "m_which_lowest": ("lowest", "niedrigsten"),
    "m_which_second": ("second-lowest", "zweitniedrigsten"),
    "m_which_third": ("third-lowest", "drittniedrigsten"),
    "m_which_highest": ("highest", "höchsten"),
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
    "m_col_type": ("Type it as", "Eingabe"),
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
    # ================================================================ Dragon Farkle
    # ---------------------------------------------------------------- table setup
    "err_f_players": ("Dragon Farkle is for 2 to 5 players, not {n}",
                      "Dragon Farkle ist für 2 bis 5 Personen, nicht für {n}"),
    "err_dragon": ("--dragon must be 3, 4 or 5 (the dragon's strength, D6.4), not {n}",
                   "--dragon muss 3, 4 oder 5 sein (die Stärke des Drachen, D6.4), nicht {n}"),
    # ---------------------------------------------------------------- the screen
    "f_title": ("Dragon Farkle", "Dragon Farkle"),
    "f_turn": ("turn {n}", "Zug {n}"),
    "f_setup": ("setup", "Aufbau"),
    "f_col_seat": ("Seat", "Platz"),
    "f_col_player": ("Player", "Spieler"),
    "f_col_army": ("Army", "Armee"),
    "f_col_companion": ("Companion", "Gefährte"),
    "f_col_items": ("Items", "Gegenst."),
    "f_col_status": ("Status", "Status"),
    "f_in_lair": ("in the Dragon's Lair", "in der Drachenhöhle"),
    "f_on_turn": ("on turn", "am Zug"),
    "f_gained_n": ("+{n} this turn", "+{n} in diesem Zug"),
    "f_no_companion": ("(draws a new one)", "(zieht einen neuen)"),
    "f_house": ("house card", "Hauskarte"),
    "f_companions": ("Companions (public)", "Gefährten (offen)"),
    "f_dragon_line": ("The dragon: strength {strength}, healed. Final Battle: from {army} "
                      "soldiers at the start of your turn, or from the Lair.",
                      "Der Drache: Stärke {strength}, unverletzt. Endkampf: ab {army} "
                      "Soldaten zu Beginn deines Zuges oder aus der Drachenhöhle."),
    "f_dragon_battle": ("The dragon (strength {strength}): {damage} damage in this Final Battle",
                        "Der Drache (Stärke {strength}): {damage} Schaden in diesem Endkampf"),
    "f_events": ("Recent events", "Letzte Ereignisse"),
    "f_no_events": ("Nothing has happened yet.", "Noch ist nichts passiert."),
    "f_more_events": ("… {n} earlier lines (type log to see everything)",
                      "… {n} frühere Zeilen (log zeigt alles)"),
    "f_mode_recruit": ("Recruit", "Rekrutierung"),
    "f_mode_skirmish": ("Skirmish", "Scharmützel"),
    "f_mode_battle": ("Final Battle", "Endkampf"),
    "f_turn_panel": ("{who} — {mode}", "{who} — {mode}"),
    "f_rolling": ("{who} is rolling", "{who} würfelt"),
    "f_roll": ("Roll:", "Wurf:"),
    "f_last_roll": ("Last roll:", "Letzter Wurf:"),
    "f_event_die": ("event die:", "Ereigniswürfel:"),
    "f_scoring_hint": ("(green dice can score)", "(grüne Würfel punkten)"),
    "f_pending_recruit": ("Pending soldiers: {n}", "Gesammelte Soldaten: {n}"),
    "f_pending_attack": ("Attack value so far: {n}", "Angriffswert bisher: {n}"),
    "f_pending_defence": ("Defence value so far: {n}", "Verteidigungswert bisher: {n}"),
    "f_in_hand": ("dice in hand: {n} of {full}", "Würfel in der Hand: {n} von {full}"),
    "f_rolled": ("dice rolled: {n} of {full}", "geworfene Würfel: {n} von {full}"),
    "f_keep_left": ("→ {k} left to roll (farkle risk {risk})",
                    "→ {k} bleiben zum Würfeln (Farkle-Risiko {risk})"),
    "f_keep_hot": ("→ hot dice: all {k} again (farkle risk {risk})",
                   "→ heiße Würfel: alle {k} erneut (Farkle-Risiko {risk})"),
    "f_hot_dice": ("hot dice: all {full} come back", "heiße Würfel: alle {full} kommen zurück"),
    "f_risk": ("farkle risk of the next roll ({k} dice): {risk}",
               "Farkle-Risiko des nächsten Wurfs ({k} Würfel): {risk}"),
    "f_skirmish_line": ("Skirmish: {attacker} attacks {defender}",
                        "Scharmützel: {attacker} greift {defender} an"),
    "f_to_beat": ("Attack value to beat: {n}", "Zu schlagender Angriffswert: {n}"),
    "f_your_items": ("Your magic items — {who} (you may keep {limit} at the end of a turn)",
                     "Deine magischen Gegenstände — {who} (am Zugende darfst du {limit} "
                     "behalten)"),
    "f_no_items": ("no magic item", "kein magischer Gegenstand"),
    "f_gained_items": ("Gained this turn (yours if the turn ends well):",
                       "In diesem Zug gewonnen (deins, wenn der Zug gut endet):"),
    "f_final_table": ("Final table", "Endstand"),
    "f_log_title": ("Game log", "Spielverlauf"),
    # ---------------------------------------------------------------- dice and events
    "f_ev_dragon": ("dragon", "Drache"),
    "f_ev_alliance": ("alliance", "Bündnis"),
    "f_ev_blank": ("blank", "leer"),
    # ---------------------------------------------------------------- decisions
    "f_head_action": ("{who}: your turn — choose an action", "{who}: du bist am Zug — wähle"),
    "f_head_keep": ("{who}: set aside scoring dice (every die set aside must score)",
                    "{who}: lege punktende Würfel beiseite (jeder muss punkten)"),
    "f_head_alliance": ("{who}: alliance! Double this roll or draw a magic item",
                        "{who}: Bündnis! Verdopple diesen Wurf oder ziehe einen Gegenstand"),
    "f_head_continue_recruit": ("{who}: roll again or bank", "{who}: weiterwürfeln oder sichern"),
    "f_head_continue_skirmish": ("{who}: roll again or stop", "{who}: weiterwürfeln oder aufhören"),
    "f_head_farkle": ("{who}: farkle — nothing in this roll scores",
                      "{who}: Farkle — in diesem Wurf punktet nichts"),
    "f_head_tabby": ("{who}: a dragon on the event die — your companion may ignore it",
                     "{who}: ein Drache auf dem Ereigniswürfel — dein Gefährte kann ihn "
                     "ignorieren"),
    "f_head_hiccup": ("{who}: your companion may reroll one die of this roll",
                      "{who}: dein Gefährte darf einen Würfel dieses Wurfs neu würfeln"),
    "f_head_keep_item": ("{who}: you won the skirmish — keep one magic item gained in it",
                         "{who}: du hast das Scharmützel gewonnen — behalte einen dabei "
                         "gewonnenen Gegenstand"),
    "f_head_discard": ("{who}: too many magic items (you may keep {limit}) — discard one",
                       "{who}: zu viele Gegenstände (du darfst {limit} behalten) — lege einen ab"),
    "f_menu_hint": ("Type a number or the action. ? help · log · quit",
                    "Nummer oder Aktion eingeben. ? Hilfe · log · quit"),
    "f_prompt": ("Your choice> ", "Deine Wahl> "),
    "f_thinking": ("{who} is thinking…", "{who} überlegt…"),
    "f_defend_note": ("{who} is attacked by {attacker} (attack value {n}) and rolls the "
                      "defence now.",
                      "{who} wird von {attacker} angegriffen (Angriffswert {n}) und würfelt "
                      "jetzt die Verteidigung."),
    "f_keep_no_score": ("You cannot set aside {dice}: {what} {verb} (rule D2: every die set "
                        "aside must score). Keep one of the menu's choices, e.g. {example}.",
                        "Du kannst {dice} nicht beiseitelegen: {what} {verb} (Regel D2: jeder "
                        "beiseitegelegte Würfel muss zählen). Behalte eine der Möglichkeiten im "
                        "Menü, z. B. {example}."),
    "f_keep_not_rolled": ("You cannot set aside {dice}: the roll is {roll}.",
                          "Du kannst {dice} nicht beiseitelegen: der Wurf ist {roll}."),
    "f_no_score_1": ("does not score", "zählt nicht"),
    "f_no_score_n": ("do not score", "zählen nicht"),
    "f_and": (" and ", " und "),
    "f_die_1": ("a one", "eine Eins"), "f_dice_1": ("{n} ones", "{n} Einsen"),
    "f_die_2": ("a two", "eine Zwei"), "f_dice_2": ("{n} twos", "{n} Zweien"),
    "f_die_3": ("a three", "eine Drei"), "f_dice_3": ("{n} threes", "{n} Dreien"),
    "f_die_4": ("a four", "eine Vier"), "f_dice_4": ("{n} fours", "{n} Vieren"),
    "f_die_5": ("a five", "eine Fünf"), "f_dice_5": ("{n} fives", "{n} Fünfen"),
    "f_die_6": ("a six", "eine Sechs"), "f_dice_6": ("{n} sixes", "{n} Sechsen"),
    "f_bad_choice": ("{text!r} is not one of the choices; type its number (1 to {max}) or its "
                     "action, e.g. {example}.",
                     "{text!r} ist keine der Möglichkeiten; gib ihre Nummer (1 bis {max}) oder "
                     "ihre Aktion ein, z. B. {example}."),
    "f_ambiguous_item": ("{text!r} could be {cards}; type more of the name.",
                         "{text!r} kann {cards} sein; tippe mehr vom Namen."),
    "f_soldiers": ("{n} soldiers", "{n} Soldaten"),
    "f_attack": ("{n} attack", "{n} Angriff"),
    "f_defence": ("{n} defence", "{n} Verteidigung"),
    "f_d_recruit": ("roll for soldiers for your army", "würfle um Soldaten für deine Armee"),
    "f_d_skirmish": ("attack {who} (army {army})", "greife {who} an (Armee {army})"),
    "f_d_battle": ("fight the dragon (strength {strength}); you lose the soldiers you roll",
                   "kämpfe gegen den Drachen (Stärke {strength}); die erwürfelten Soldaten "
                   "verlierst du"),
    "f_d_scare": ("{card}: {who} loses {n} soldiers", "{card}: {who} verliert {n} Soldaten"),
    "f_d_use": ("{card}: {text}", "{card}: {text}"),
    "f_d_double": ("this roll counts twice: +{n} instead of +{half}",
                   "dieser Wurf zählt doppelt: +{n} statt +{half}"),
    "f_d_item": ("draw a magic item (this roll counts once: +{n})",
                 "ziehe einen magischen Gegenstand (der Wurf zählt einfach: +{n})"),
    "f_d_roll": ("roll {k} dice (farkle risk {risk})", "würfle {k} Würfel (Farkle-Risiko {risk})"),
    "f_d_roll_hot": ("hot dice: roll all {k} again (farkle risk {risk})",
                     "heiße Würfel: würfle alle {k} erneut (Farkle-Risiko {risk})"),
    "f_d_bank": ("{n} soldiers join your army", "{n} Soldaten verstärken deine Armee"),
    "f_d_stop_attack": ("end your attack with the value {n}",
                        "beende deinen Angriff mit dem Wert {n}"),
    "f_d_stop_defence": ("end your defence at {n} against the attack of {attack}",
                         "beende deine Verteidigung mit {n} gegen den Angriff von {attack}"),
    "f_d_farkle_recruit": ("accept it: the turn ends, {n} pending soldiers are lost",
                           "hinnehmen: der Zug endet, {n} gesammelte Soldaten sind verloren"),
    "f_d_farkle_skirmish": ("accept it: your value is 0", "hinnehmen: dein Wert ist 0"),
    "f_d_farkle_battle": ("accept it: the Final Battle ends, the dragon heals",
                          "hinnehmen: der Endkampf endet, der Drache heilt"),
    "f_d_tabby": ("{card} ignores the dragon (the event die counts as blank)",
                  "{card} ignoriert den Drachen (der Ereigniswürfel zählt als leer)"),
    "f_d_pass": ("do not use it now", "jetzt nicht nutzen"),
    "f_d_reroll": ("reroll one {face}", "würfle eine {face} neu"),
    "f_d_discard": ("discard {card}", "lege {card} ab"),
    "f_d_keep_item": ("keep {card}; the others are discarded",
                      "behalte {card}; die anderen werden abgelegt"),
    "f_forced_hint": ("The only choice: Enter takes it.",
                      "Die einzige Möglichkeit: Enter wählt sie."),
    # ---------------------------------------------------------------- narration
    "f_n_companion": ("{who}'s companion: {card}", "Gefährte von {who}: {card}"),
    "f_n_new_companion": ("{who} draws a new companion: {card}",
                          "{who} zieht einen neuen Gefährten: {card}"),
    "f_n_start_item": ("{who} gets a magic item (hidden)",
                       "{who} bekommt einen magischen Gegenstand (verdeckt)"),
    "f_n_start_item_own": ("{who} gets a magic item: {card}",
                           "{who} bekommt einen magischen Gegenstand: {card}"),
    "f_n_starts": ("{who} starts (drawn by lot).", "{who} beginnt (ausgelost)."),
    "f_n_turn": ("— Turn {n}: {who} (army {army}) —", "— Zug {n}: {who} (Armee {army}) —"),
    "f_n_roll": ("{who} rolls {dice} · {event}", "{who} würfelt {dice} · {event}"),
    "f_n_die": ("the rerolled die shows {die}", "der neu geworfene Würfel zeigt {die}"),
    "f_n_draw": ("{who} draws a magic item (hidden)",
                 "{who} zieht einen magischen Gegenstand (verdeckt)"),
    "f_n_draw_own": ("{who} draws a magic item: {card}",
                     "{who} zieht einen magischen Gegenstand: {card}"),
    "f_n_recruit": ("{who} recruits.", "{who} rekrutiert."),
    "f_n_skirmish": ("{who} attacks {target} in a skirmish.",
                     "{who} greift {target} in einem Scharmützel an."),
    "f_n_defends": ("{who} defends with 5 dice against {n}.",
                    "{who} verteidigt sich mit 5 Würfeln gegen {n}."),
    "f_n_battle": ("{who} fights the Final Battle against the dragon (strength {strength})!",
                   "{who} zieht in den Endkampf gegen den Drachen (Stärke {strength})!"),
    "f_n_use": ("{who} uses {card}.", "{who} setzt {card} ein."),
    "f_n_gain": ("{who}'s army grows by {n} to {army}.",
                 "Die Armee von {who} wächst um {n} auf {army}."),
    "f_n_keep": ("{who} sets aside {dice} = {n}", "{who} legt {dice} beiseite = {n}"),
    "f_n_double": ("{who} doubles: +{n} (pending {pending})",
                   "{who} verdoppelt: +{n} (gesammelt {pending})"),
    "f_n_item": ("{who} takes a magic item instead of doubling.",
                 "{who} nimmt einen Gegenstand statt zu verdoppeln."),
    "f_n_hot": ("{who} has hot dice: all {k} are rolled again.",
                "{who} hat heiße Würfel: alle {k} werden erneut geworfen."),
    "f_n_bank": ("{who} banks {n} soldiers: army {army}.",
                 "{who} sichert {n} Soldaten: Armee {army}."),
    "f_n_stop": ("{who} stops at {n}.", "{who} hört bei {n} auf."),
    "f_n_bank_bonus": ("  ({n} of them thanks to {card})", "  (davon {n} dank {card})"),
    "f_n_farkle_skirmish": ("{who} farkles: the value is 0.", "{who} farkelt: der Wert ist 0."),
    "f_n_pass": ("{who} passes.", "{who} verzichtet."),
    "f_n_reroll": ("{who}'s companion rerolls a {face}.",
                   "Der Gefährte von {who} würfelt eine {face} neu."),
    "f_n_discard": ("{who} discards a magic item.", "{who} legt einen Gegenstand ab."),
    "f_n_discard_own": ("{who} discards {card}.", "{who} legt {card} ab."),
    "f_n_keep_item": ("{who} keeps one of the items gained.",
                      "{who} behält einen der gewonnenen Gegenstände."),
    "f_n_keep_item_own": ("{who} keeps {card}.", "{who} behält {card}."),
    "f_n_skirmish_won": ("{who} wins the skirmish: takes {n} from {loser} and 500 from the "
                         "supply.",
                         "{who} gewinnt das Scharmützel: nimmt {loser} {n} ab und 500 aus dem "
                         "Vorrat."),
    "f_n_skirmish_tie": ("The skirmish is a tie: nothing moves.",
                         "Das Scharmützel endet unentschieden: nichts ändert sich."),
    "f_n_slain": ("{who} slays the dragon!", "{who} erlegt den Drachen!"),
    # engine events (D4-D7), in the UI language
    "f_e_scare": ("{who}'s {card} scares off {n} of {target}'s soldiers.",
                  "{card} von {who} verscheucht {n} Soldaten von {target}."),
    "f_e_tabby": ("{who}'s companion ignores the dragon.",
                  "Der Gefährte von {who} ignoriert den Drachen."),
    "f_e_ignore_farkle": ("{who} ignores the farkle and rolls those dice again.",
                          "{who} ignoriert den Farkle und würfelt diese Würfel erneut."),
    "f_e_no_item": ("No magic item is left to draw.", "Es ist kein Gegenstand mehr zu ziehen."),
    "f_e_escape": ("{who} escapes the dragon: nothing scored, so no farkle.",
                   "{who} entkommt dem Drachen: nichts punktet, also kein Farkle."),
    "f_e_eats": ("The dragon eats {dice} ({n} soldiers) from {who}'s roll.",
                 "Der Drache frisst {dice} ({n} Soldaten) aus dem Wurf von {who}."),
    "f_e_farkle": ("{who} farkles and loses {n} pending soldiers.",
                   "{who} farkelt und verliert {n} gesammelte Soldaten."),
    "f_e_farkle_battle": ("{who} farkles in the Final Battle; the dragon heals.",
                          "{who} farkelt im Endkampf; der Drache heilt."),
    "f_e_skirmish": ("Skirmish: {a} {attack} against {d} {defence}.",
                     "Scharmützel: {a} {attack} gegen {d} {defence}."),
    "f_e_arrow": ("{who} shoots a {card}.", "{who} schießt einen {card}."),
    "f_e_damage": ("{who} deals {n} damage ({total} in all).",
                   "{who} macht {n} Schaden ({total} insgesamt)."),
    "f_e_shield": ("{who}'s {card} saves {n} soldiers.", "{card} von {who} rettet {n} Soldaten."),
    "f_e_loses": ("{who} loses {n} soldiers to the dragon.",
                  "{who} verliert {n} Soldaten an den Drachen."),
    "f_e_heals": ("The dragon heals.", "Der Drache heilt."),
    "f_e_army_gone": ("{who}'s army is gone: out of the Lair, and a new companion next turn.",
                      "Die Armee von {who} ist vernichtet: raus aus der Höhle, nächsten Zug ein "
                      "neuer Gefährte."),
    # ---------------------------------------------------------------- result
    "f_armies": ("Armies: {armies}", "Armeen: {armies}"),
    "f_turns_played": ("Turns played: {n}", "Gespielte Züge: {n}"),
    # ---------------------------------------------------------------- help and rules
    "f_scoring_title": ("Scoring table (soldiers, D2)", "Wertungstabelle (Soldaten, D2)"),
    "f_col_combination": ("Combination", "Kombination"),
    "f_col_soldiers": ("Soldiers", "Soldaten"),
    "f_single_1": ("a single 1", "eine einzelne 1"),
    "f_single_5": ("a single 5", "eine einzelne 5"),
    "f_three_n": ("three {n}s", "drei {n}er"),
    "f_four": ("four of a kind", "vier gleiche"),
    "f_five": ("five of a kind", "fünf gleiche"),
    "f_six": ("six of a kind", "sechs gleiche"),
    "f_three_pairs": ("three pairs (four of a kind + a pair counts)",
                      "drei Paare (vier gleiche + ein Paar zählt)"),
    "f_straight": ("straight 1-2-3-4-5-6", "Straße 1-2-3-4-5-6"),
    "f_scoring_notes": ("Every die set aside must belong to a combination; two triplets score "
                        "as two three-of-a-kinds.",
                        "Jeder beiseitegelegte Würfel muss zu einer Kombination gehören; zwei "
                        "Drillinge zählen als zwei Drillinge."),
    "f_risk_title": ("Chance that a roll scores nothing (a farkle)",
                     "Wahrscheinlichkeit, dass ein Wurf nichts punktet (Farkle)"),
    "f_col_dice": ("Dice rolled", "Geworfene Würfel"),
    "f_col_example": ("Example", "Beispiel"),
    "f_col_risk": ("Farkle risk", "Farkle-Risiko"),
    "f_risk_note": ("In a Recruit or Skirmish a dragon on the event die (1 in 6) saves you from "
                    "a farkle; in the Final Battle so does an alliance.",
                    "Bei Rekrutierung und Scharmützel rettet dich ein Drache auf dem "
                    "Ereigniswürfel (1 zu 6) vor dem Farkle; im Endkampf auch ein Bündnis."),
    "f_companions_title": ("Companions ({n} cards, D8)", "Gefährten ({n} Karten, D8)"),
    "f_items_title": ("Magic items ({n} cards, D8)", "Magische Gegenstände ({n} Karten, D8)"),
    "f_col_card": ("Card", "Karte"),
    "f_col_copies": ("Copies", "Anzahl"),
    "f_col_text": ("Power", "Fähigkeit"),
    "f_house_note": ("* house card: the official text is not known to the project; this card "
                     "completes the deck (D8.5)",
                     "* Hauskarte: der offizielle Text ist dem Projekt nicht bekannt; diese "
                     "Karte ergänzt das Deck (D8.5)"),
    "f_help_typing": (
        "Choosing: type the number of a choice, or its action: recruit, skirmish p1, battle, "
        "scare p1, use lucky-clover (or the item's name), keep 155, double, item, roll, bank, "
        "stop, farkle, ignore dragon, pass, reroll 3, discard gold-purse, keep-item gold-purse. "
        "Dice to keep may be typed in any order (keep 515). With one choice, Enter takes it. "
        "Also: log (everything so far), quit (leave the game), ? or help (this text).",
        "Wählen: gib die Nummer einer Möglichkeit ein oder ihre Aktion: recruit, skirmish p1, "
        "battle, scare p1, use lucky-clover (oder der Name des Gegenstands), keep 155, double, "
        "item, roll, bank, stop, farkle, ignore dragon, pass, reroll 3, discard gold-purse, "
        "keep-item gold-purse. Deutsche Wörter gehen auch: rekrutieren, angreifen p1, "
        "endkampf, behalte 155, verdoppeln, gegenstand, würfeln, sichern, aufhören, passen, "
        "ablegen. Würfel in beliebiger Reihenfolge (keep 515). Bei nur einer Möglichkeit "
        "genügt Enter. Außerdem: log (alles bisher), quit (Partie verlassen), ? oder hilfe "
        "(dieser Text)."),
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
    # Dragon Farkle (D6.4)
    (re.compile(r"^(p\d+) slew the dragon$"), "{0} hat den Drachen erlegt"),
    (re.compile(r"^turn limit of (\d+) reached; the largest army wins$"),
     "Zuglimit von {0} erreicht; die größte Armee gewinnt"),
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


def printable(text: object) -> str:
    """``text`` safe to print as plain text: an unpaired surrogate (``"\\ud800"`` from a
    JSON file), a control character or another unprintable character is written as its
    escape (``\\ud800``, ``\\x1b``), so printing never fails and never sends terminal
    codes. Escape the result with :func:`rich.markup.escape` before using it in markup."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)
