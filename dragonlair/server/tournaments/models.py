"""The tournaments's tables (issue 26); its migration is in dragonlair/server/migrations/versions."""

from __future__ import annotations

from dragonlair.server.db import Base

__all__ = ["Base"]
