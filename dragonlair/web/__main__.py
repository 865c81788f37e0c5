"""``python -m dragonlair.web``: see :func:`dragonlair.web.main`."""

from dragonlair.web import main

raise SystemExit(main())
