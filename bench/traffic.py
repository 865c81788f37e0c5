"""WebSocket traffic of one player: a 4-player Fist of Dragonstones game over a real server,
whole views against deltas on the same game (bench/README.md, "Traffic"). Same as
``dragonlair bench --traffic``; the generator is :mod:`dragonlair.server.traffic`.

    python bench/traffic.py                         # 3 games, heuristic bots
    python bench/traffic.py --games 8 --bot random --json
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dragonlair.server.traffic import main

if __name__ == "__main__":
    raise SystemExit(main())
