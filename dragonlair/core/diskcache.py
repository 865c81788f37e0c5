"""Tables computed once per machine: the results of slow, pure functions kept on disk.

The Farkle policy's dynamic programmes take seconds each and depend only on their arguments
(the scoring table and a few numbers), so each is computed once and kept in a file named by
a hash of the function, its arguments and the version of the code that computes it: a change
of that code makes new files, and a process that finds a file reads it in a millisecond.

Where: ``$DRAGONLAIR_CACHE_DIR``, else ``$XDG_CACHE_HOME/dragonlair``, else
``~/.cache/dragonlair``; ``DRAGONLAIR_CACHE_DIR=off`` turns the disk off (every process then
computes its own tables, as before). A file that cannot be read (cut short, another version
of Python) is computed again and replaced; a directory that cannot be written is no error.
The files are pickles written by this package for this user: only this package reads them,
from the user's own cache directory.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger("dragonlair.cache")

F = TypeVar("F", bound=Callable[..., Any])

#: the value of ``DRAGONLAIR_CACHE_DIR`` that keeps nothing on disk
OFF = "off"


def cache_dir() -> Path | None:
    """Where the tables are kept, or ``None`` when the disk cache is off."""
    env = os.environ.get("DRAGONLAIR_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", OFF) else Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "dragonlair"


def code_version(files: Iterable[str | Path]) -> str:
    """A short hash of the source files whose code computes the tables."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:16]


def disk_cached(name: str, version: str) -> Callable[[F], F]:
    """Keep ``fn(*args)`` on disk under ``name`` (see the module docs); ``args`` must have a
    stable ``repr`` (numbers, strings, frozen dataclasses of them)."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def cached(*args: Any) -> Any:
            where = cache_dir()
            if where is None:
                return fn(*args)
            key = hashlib.sha256(repr((name, version, args)).encode()).hexdigest()[:32]
            path = where / name / f"{key}.pickle"
            try:
                with path.open("rb") as f:
                    return pickle.load(f)
            except FileNotFoundError:
                pass
            except Exception as exc:  # cut short, or written by another Python: compute again
                log.warning("computing %s again: %s could not be read (%s)", name, path, exc)
            value = fn(*args)
            _write(path, value)
            return value

        return cached  # type: ignore[return-value]

    return decorate


def _write(path: Path, value: Any) -> None:
    """Write ``value`` to ``path`` whole or not at all (a reader never sees half a file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:  # a read-only home, a full disk: the table still serves this process
        log.info("not keeping %s: %s", path, exc)
