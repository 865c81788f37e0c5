"""Dragon Farkle (Robert J. Hudecek), rules in ../shared/rules/farkle.md."""
