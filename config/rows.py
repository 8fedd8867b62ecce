"""Model instances from SQL written once, shared by the hot reads of ``games``
(games.selectors.hot) and the signed-in user's read (accounts.models.UserManager).

Through the ORM, a read by key costs more CPU building the query (a fresh queryset, its
compiler, every column quoted) than the database spends answering it. The callers here build
their SQL once per process from the models' own metadata and turn each row into an instance
with ``Model.from_db``, as the ORM does, after the backend's conversions of the columns that
need one (none on PostgreSQL; SQLite's datetimes and booleans do).
"""

from __future__ import annotations

from django.db import connection


def converters(fields) -> list[tuple[int, list, object]]:
    """For each of ``fields`` (in the order of the SELECT) whose column the backend converts:
    (its position, the converters, the column)."""
    out = []
    for i, field in enumerate(fields):
        col = field.get_col(field.model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if found:
            out.append((i, found, col))
    return out


def convert(row: list, found: list[tuple[int, list, object]]) -> list:
    """``row`` (a list, changed in place) with ``found``'s conversions applied, as the ORM
    applies them."""
    for i, funcs, col in found:
        if row[i] is not None:
            for func in funcs:
                row[i] = func(row[i], col, connection)
    return row
