"""The game log's unit tests (web/src/lib/logmap.test.ts, events.test.ts) read real event
sequences (web/src/lib/fixtures/log-<game>.json, written by web/scripts/log_fixtures.py): they
must be what the engines send now, so that a renamed event or a secret paired differently
shows up in the client's tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "web" / "scripts" / "log_fixtures.py"


def test_the_log_fixtures_are_what_the_engines_send_now() -> None:
    spec = importlib.util.spec_from_file_location("log_fixtures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["log_fixtures"] = module
    spec.loader.exec_module(module)
    assert module.stale() == []
    texts = module.fixtures()
    assert set(texts) == {"log-fist.json", "log-farkle.json", "log-master.json"}
    # each holds a secret of seat 0 beside the public events
    for text in texts.values():
        assert '"to": 0' in text
