"""The tournaments' tables (issue 26); their migration: dragonlair/server/migrations/versions."""

from __future__ import annotations

from dragonlair.server.db import Base

__all__ = ["Base"]
