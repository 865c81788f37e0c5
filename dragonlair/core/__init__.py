"""The game contract shared by all games: states, actions, chance, views, records, errors."""
