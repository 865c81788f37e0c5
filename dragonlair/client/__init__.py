"""A typed Python client of the Dragonlair game server (REST lobby + WebSocket play).

Used by the terminal (``dragonlair play GAME --server URL``) and by remote bots
(examples/remote_bot.py, docs/remote-bots.md)::

    from dragonlair.client import Client

    with Client("http://127.0.0.1:8000") as client:
        client.guest("Ann")
        table = client.create_table("master", seats=[{"kind": "me"}, {"kind": "bot"}])
        client.start(table["id"])
        conn = client.connect(table["id"])
        while not conn.finished:
            if conn.my_turn():
                conn.act(conn.view["legal"]...)   # canonical action text
            else:
                conn.recv(1.0)
"""

from __future__ import annotations

from dragonlair.client.client import (
    Client,
    ConnectionLost,
    Refused,
    TableConnection,
    form_choice,
    form_text,
    form_texts,
    legal_texts,
)

__all__ = ["Client", "ConnectionLost", "Refused", "TableConnection", "form_choice", "form_text",
           "form_texts", "legal_texts"]
