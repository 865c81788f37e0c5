"""The workshop (issue 26): published Fist characters, Farkle decks and scoring tables, and rule
variants, in versions; browse, search, votes, balance reports, play with this."""
