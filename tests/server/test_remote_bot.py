"""Remote bots: a bot account with an API token (stored hashed) plays through the same
WebSocket protocol as people; examples/remote_bot.py joins a table and plays it to the end."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dragonlair.client import Client, Refused
from dragonlair.core.records import Record, replay
from tests.server.helpers import ServerThread
from tests.sizes import quick_first

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "remote_bot.py"


def bot_account(server: ServerThread, name: str) -> tuple[Client, str]:
    bot = Client(server.base)
    user = bot.register(name, "a long password", bot=True)
    assert user["bot"] is True and user["guest"] is False
    return bot, bot.create_token("example")


def test_tokens_are_bearer_credentials_stored_hashed_and_revocable(
        server: ServerThread) -> None:
    bot, token = bot_account(server, "tokenbot")
    assert token.startswith("dlb_")
    by_token = Client(server.base, token=token)
    assert by_token.me()["username"] == "tokenbot"  # no cookie: the bearer token signs in
    with sqlite3.connect(server.settings.data_dir / "dragonlair.db") as db:
        stored = [r[0] for r in db.execute("SELECT token_hash FROM api_tokens")]
    assert stored and token not in stored and all(len(h) == 64 for h in stored)
    listed = bot.http.get("/api/auth/tokens").json()
    assert [t["name"] for t in listed] == ["example"] and "token" not in listed[0]
    assert bot.http.delete(f"/api/auth/tokens/{listed[0]['id']}").status_code == 200
    with pytest.raises(Refused) as exc:
        by_token.me()
    assert exc.value.code == "server.auth.required" and exc.value.status == 401
    guest = Client(server.base)
    guest.guest("Gus")
    with pytest.raises(Refused) as exc:
        guest.create_token()
    assert exc.value.code == "server.auth.guest_no_token"


def test_upgrade_to_a_bot_account_only_before_any_game(server: ServerThread) -> None:
    person = Client(server.base)
    assert person.register("later_bot", "a long password")["bot"] is False
    assert person._call("POST", "/api/bot/account/upgrade")["bot"] is True
    player = Client(server.base)
    player.register("played_once", "a long password")
    player.create_table("master", seats=[{"kind": "me"}, {"kind": "bot"}])
    with pytest.raises(Refused) as exc:
        player._call("POST", "/api/bot/account/upgrade")
    assert exc.value.code == "server.auth.bot_has_games"


@pytest.mark.parametrize("game", quick_first(1, ["master", "farkle"]))
def test_the_example_bot_joins_a_table_and_plays_it_to_the_end(server: ServerThread,
                                                                game: str) -> None:
    _, token = bot_account(server, f"example_{game}")
    host = Client(server.base)
    host.guest("Host")
    # a Farkle game of random moves runs to hundreds of actions: ten turns tell as much
    options = {"max_turns": 10} if game == "farkle" else None
    table = host.create_table(game, options,
                              seats=[{"kind": "open"}, {"kind": "bot", "bot": "random"}])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", server.base, "--token", token,
         "--table", table["id"], "--seed", "1"],
        capture_output=True, text=True, timeout=240, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "game over" in done.stdout, done.stdout
    final = host.table(table["id"])
    assert final["status"] == "finished" and final["result"] is not None
    seat0 = final["seats"][0]
    assert seat0["kind"] == "human" and seat0["name"] == f"example_{game}"
    record = Record.from_json(host.record(table["id"]))
    _, state = replay(record)
    assert state.is_terminal()


def test_migration_0004_keeps_existing_accounts_and_sessions(tmp_path: Path) -> None:
    """A database made before bot accounts (revision 0003) gains ``users.is_bot`` (false for
    everyone) and ``api_tokens`` without losing a user or a session."""
    from alembic import command

    from dragonlair.server.db import make_engine
    from dragonlair.server.migrate import alembic_config, current, head, upgrade

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO users (id, username, display_name, password_hash, "
                             "is_guest, created_at) VALUES (1, 'old', 'Old', NULL, 1, 0)")
        conn.exec_driver_sql("INSERT INTO sessions (token_hash, user_id, created_at, "
                             "expires_at) VALUES ('h', 1, 0, 1e12)")
    upgrade(engine)
    assert current(engine) == head()
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT username, is_bot FROM users").all() == [("old", 0)]
        assert conn.exec_driver_sql("SELECT count(*) FROM sessions").scalar() == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM api_tokens").scalar() == 0
    engine.dispose()
