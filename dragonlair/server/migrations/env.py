"""Alembic's environment: runs on the connection :mod:`dragonlair.server.migrate` hands over
(or on ``sqlalchemy.url`` of the config when run by the ``alembic`` command)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from dragonlair.server.db import Base
from dragonlair.server.workshop.search import include_name

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True, include_name=include_name)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=True, include_name=include_name)
        with context.begin_transaction():
            context.run_migrations()


run()
