"""The Dragonlair game server: accounts, a lobby (REST) and play (one WebSocket per table).

``dragonlair serve`` runs :func:`create_app` under uvicorn. The engine is the only judge: the
server loads a table's state from its action log, asks the engine about each action, commits
what the engine accepted, acknowledges, and forwards to each viewer only that viewer's view
(docs/server.md, docs/protocol.md). Nothing here assumes one process: the order of a table's
actions comes from the database (``UNIQUE(table_id, seq)``), never from memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dragonlair.server.settings import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["Settings", "create_app", "serve"]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI application (see :func:`dragonlair.server.app.create_app`)."""
    from dragonlair.server.app import create_app as create

    return create(settings)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, **kwargs: Any) -> None:
    """Run the server under uvicorn until interrupted."""
    from dragonlair.server.app import serve as run

    run(settings, host, port, **kwargs)
