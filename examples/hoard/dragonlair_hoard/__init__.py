"""Dragon's Hoard: a push-your-luck dice game for Dragonlair, shipped as its own package
(the example of docs/new-game.md)."""
