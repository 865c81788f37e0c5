"""Full-text search of the workshop: the title, description and tags of each entry's newest
version.

- SQLite (the embedded default): an FTS5 table :data:`FTS` (``rowid`` = the entry's id),
  made by migration 0009 and written here whenever an entry gets a version
  (:func:`index_entry`). The words of a query are each quoted (no FTS5 syntax gets through)
  and matched as prefixes, all of them.
- PostgreSQL: ``to_tsvector('simple', ...)`` of the newest version's row against
  ``plainto_tsquery('simple', q)``, with a GIN expression index of migration 0009
  (:data:`PG_DOCUMENT`). The ``simple`` configuration: entries are English, German or both,
  and a stemmer for one language would mangle the other.

Neither index is a model: :func:`include_name` keeps them out of Alembic's comparison of the
models with the database.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import ColumnElement, func, literal_column, select, text
from sqlalchemy.orm import Session as OrmSession

from dragonlair.server.workshop.models import WorkshopEntry

#: the SQLite FTS5 table (and the prefix of its shadow tables)
FTS = "workshop_fts"
#: the PostgreSQL GIN expression index
PG_INDEX = "ix_workshop_versions_fts"
#: the document PostgreSQL indexes (the index's expression and the query's must be equal)
PG_DOCUMENT = "to_tsvector('simple', title || ' ' || description || ' ' || tags_text)"
#: the most words of a query that are searched for
MAX_WORDS = 12
WORD = re.compile(r"\w+", re.UNICODE)


def include_name(name: str | None, type_: str, _parents: Any) -> bool:
    """Alembic's ``include_name``: the search indexes are the migration's, not models."""
    return not (name and (name.startswith(FTS) or name == PG_INDEX))


def is_sqlite(s: OrmSession) -> bool:
    return s.get_bind().dialect.name == "sqlite"


def words(q: str) -> list[str]:
    return WORD.findall(q)[:MAX_WORDS]


def index_entry(s: OrmSession, entry_id: int, title: str, description: str,
                tags_text: str) -> None:
    """(SQLite) The entry's row of the FTS table replaced by its newest version's text (in
    the caller's transaction); PostgreSQL indexes the rows themselves."""
    if not is_sqlite(s):
        return
    s.execute(text(f"DELETE FROM {FTS} WHERE rowid = :id"), {"id": entry_id})
    s.execute(text(f"INSERT INTO {FTS} (rowid, title, description, tags) "
                   "VALUES (:id, :title, :description, :tags)"),
              {"id": entry_id, "title": title, "description": description, "tags": tags_text})


def matches(s: OrmSession, q: str) -> ColumnElement[bool] | None:
    """A condition on the joined entry and newest version: they match the words of ``q``
    (``None``: ``q`` has no word, everything matches)."""
    found = words(q)
    if not found:
        return None
    if is_sqlite(s):
        query = " ".join('"' + w.replace('"', "") + '"*' for w in found)
        ids: Any = select(literal_column("rowid")).select_from(text(FTS)).where(
            text(f"{FTS} MATCH :fts_q").bindparams(fts_q=query))
        return WorkshopEntry.id.in_(ids)
    # the index's own expression (PG_DOCUMENT), so that the planner uses it
    document: Any = literal_column(PG_DOCUMENT.replace("title", "workshop_versions.title")
                              .replace("description", "workshop_versions.description")
                              .replace("tags_text", "workshop_versions.tags_text"))
    found_q: ColumnElement[bool] = document.bool_op("@@")(
        func.plainto_tsquery(literal_column("'simple'"), " ".join(found)))
    return found_q
