"""Dragon Master (Reiner Knizia), rules in ../shared/rules/master.md."""
