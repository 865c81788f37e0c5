"""How many puzzles simulated games yield (issue 27; docs/puzzles.md, "Yield").

    python bench/puzzles.py [GAME ...] [--games N] [--seed S] [--first I] [--save DIR]
                            [--limit K] [--json]

Plays ``--games`` seeded games per game with the strong bots (Master: ``expert`` against
``expert``; Farkle: ``optimal`` at 2 seats; Fist: ``heuristic``), mines each record
(:func:`dragonlair.puzzles.mine.mine_record`, default settings) and reports per game: games,
decisions seen (every seat's, two or more legal actions), candidates analysed, puzzles kept,
the share kept (kept / decisions), unique puzzles after de-duplication and CPU seconds for
playing and for mining. ``--save DIR`` writes the unique puzzles to ``DIR/<game>/<id>.json``
(how the shipped set in dragonlair/puzzles/data is made, with ``--limit``). ``--first``:
the index of the first game, to split a long run into parts (games ``first`` to
``first + games - 1``; the same seed gives the same games in any split).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from dragonlair.core.driver import play_out, seed_for
from dragonlair.core.records import Record, finish_record, new_record
from dragonlair.games import make_game, plugin
from dragonlair.puzzles.mine import MineSettings, Tally, mine_record

#: the table and bots per game: realistic positions from strong but quick bots
TABLES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "master": ({}, ["expert", "expert"]),
    "farkle": ({"players": 2}, ["optimal", "optimal"]),
    "fist": ({"players": 4}, ["heuristic"] * 4),
}


def simulate(game_id: str, index: int, seed: int) -> Record:
    """One seeded game's record."""
    options, names = TABLES[game_id]
    game = make_game(game_id, options)
    factories = plugin(game_id).bots()
    bots = [factories[name](random.Random(seed_for(seed, index, s + 1)))
            for s, name in enumerate(names)]
    state = play_out(game.new_initial_state(), bots, random.Random(seed_for(seed, index)))
    record = new_record(game, [{"name": n} for n in names], {"seed": seed, "game": index})
    return finish_record(record, state)


def run(game_id: str, games: int, seed: int, save: Path | None = None,
        limit: int | None = None, first: int = 0) -> dict[str, Any]:
    tally = Tally()
    play_cpu = mine_cpu = 0.0
    seen: dict[str, Any] = {}
    kept = 0
    for i in range(first, first + games):
        t0 = time.process_time()
        record = simulate(game_id, i, seed)
        t1 = time.process_time()
        found = mine_record(record, settings=MineSettings(seed=seed), tally=tally,
                            source=f"bench-{game_id}-{seed}-{i}")
        mine_cpu += time.process_time() - t1
        play_cpu += t1 - t0
        kept += len(found)
        for p in found:
            seen.setdefault(p.id, p)
    if save is not None:
        folder = save / game_id
        folder.mkdir(parents=True, exist_ok=True)
        chosen = list(seen.values())
        if limit is not None:
            chosen = chosen[:limit]
        for p in chosen:
            (folder / f"{p.id}.json").write_text(
                json.dumps(p.to_json(), sort_keys=True, indent=1, ensure_ascii=False) + "\n",
                encoding="utf-8")
    return {"game": game_id, "games": games, "decisions": tally.decisions,
            "analysed": tally.analysed, "kept": kept,
            "share": kept / tally.decisions if tally.decisions else 0.0,
            "unique": len(seen), "play_cpu_s": round(play_cpu, 1),
            "mine_cpu_s": round(mine_cpu, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", default=["master", "farkle", "fist"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="the first game's index (to split a run)")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [run(g, args.games, args.seed, args.save, args.limit, args.first)
            for g in args.games_]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':8} {'games':>6} {'decisions':>9} {'analysed':>8} {'kept':>6} "
          f"{'share':>7} {'unique':>6} {'play CPU s':>10} {'mine CPU s':>10}")
    for r in rows:
        print(f"{r['game']:8} {r['games']:>6} {r['decisions']:>9} {r['analysed']:>8} "
              f"{r['kept']:>6} {100 * r['share']:>6.2f}% {r['unique']:>6} "
              f"{r['play_cpu_s']:>10} {r['mine_cpu_s']:>10}")


if __name__ == "__main__":
    main()
