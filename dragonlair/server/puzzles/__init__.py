"""Puzzles on the server (issue 27; docs/puzzles.md, "On the server")."""
