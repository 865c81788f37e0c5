"""A running table, in layers (docs/architecture.md, "The server").

:mod:`~dragonlair.server.table.runtime` holds :class:`TableRuntime`: one table's state in this
process (the engine's state rebuilt from the action log, the seats, the clocks, the viewers)
and the parts that act on it, each a module of its own:

- :mod:`~dragonlair.server.table.storage`: the table's database reads and writes;
- :mod:`~dragonlair.server.table.pipeline`: a person's move, judged and committed;
- :mod:`~dragonlair.server.table.timekeeper`: the clocks, their wake-ups and the flag;
- :mod:`~dragonlair.server.table.takeover`: a bot takes the seat of a person who timed out,
  left, resigned or is away;
- :mod:`~dragonlair.server.table.botdriver`: chance outcomes and the bots' moves;
- :mod:`~dragonlair.server.table.viewers`: the WebSockets and what each is sent;
- :mod:`~dragonlair.server.table.news`: catching up with the changes of other processes.

The process's loaded tables, its database access and the bots' threads are its
:class:`~dragonlair.server.hub.Hub`'s.
"""
