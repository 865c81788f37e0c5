"""Load on the game server: 1,000 WebSocket connections on loopback (250 Dragon Master tables,
two players and two spectators each), played at a fixed aggregate rate, then a ramp to
saturation. Reports action -> last-seat delivery p50/p99, ack latency, actions/s, errors,
server CPU and server memory per connection. Same as ``dragonlair bench --server``.

    python bench/server_load.py                      # 200 actions/s, then the ramp
    python bench/server_load.py --rate 200 --no-ramp --seconds 30
    python bench/server_load.py --json
    python bench/server_load.py --processes 2 --db postgresql://... --redis redis://... \
        --watch PID_OF_POSTMASTER --watch PID_OF_REDIS   # their CPU per action too

The generator is :mod:`dragonlair.server.loadgen` (docs/server.md, "Performance").
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dragonlair.server.loadgen import main

if __name__ == "__main__":
    main()
