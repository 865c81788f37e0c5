"""Fist of Dragonstones (Faidutti & Schacht), rules in ../shared/rules/fist.md."""
