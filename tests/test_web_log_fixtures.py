"""The game log's unit tests (web/src/lib/logmap.test.ts, events.test.ts) read real event
sequences (web/src/lib/fixtures/log-<game>.json, written by web/scripts/log_fixtures.py): they
must be what the engines send now, so that a renamed event or a secret paired differently
shows up in the client's tests."""

from __future__ import annotations

from tests.scripts import load_script


def test_the_log_fixtures_are_what_the_engines_send_now() -> None:
    module = load_script("web/scripts/log_fixtures.py", "log_fixtures")
    assert module.stale() == []
    texts = module.fixtures()
    assert set(texts) == {"log-fist.json", "log-farkle.json", "log-master.json"}
    # each holds a secret of seat 0 beside the public events
    for text in texts.values():
        assert '"to": 0' in text
