"""The ``dragonlair`` command."""
