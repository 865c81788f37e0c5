"""Tournaments for people (issue 26): arenas and Swiss tournaments, across restarts and server
processes."""
