"""Alembic migrations of the server's database (run by :mod:`dragonlair.server.migrate`)."""
