"""Puzzles (issue 27): positions from real games, seen from one seat, whose answer is
certain and matters, with the value of every option as proof (docs/puzzles.md)."""
