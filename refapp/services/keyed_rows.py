"""Rows a write locks by their key (a player's figures, a pair's head-to-head), adding the
missing ones first with an insert that leaves a row another write added meanwhile alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection, Insert, Select, Table, bindparam, select, tuple_
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..extensions import Base, db

ModelT = TypeVar("ModelT", bound=Base)
#: a row's key: the values of its key columns, in order
Key = tuple[object, ...]


def keyed_rows(
    model: type[ModelT], names: Sequence[str], keys: Sequence[Key], empty: Mapping[str, object]
) -> dict[Key, ModelT]:
    """Return the rows of these keys, locked in key order and read fresh, adding the missing
    ones (their key columns, then ``empty``'s values) first."""
    wanted = sorted(set(keys), key=repr)
    query = select(model).where(tuple_(*(getattr(model, name) for name in names)).in_(wanted))
    rows = locked(model, names, query)
    missing = [key for key in wanted if key not in rows]
    if missing:
        new = [{**dict(zip(names, key, strict=True)), **empty} for key in missing]
        db.session.execute(inserted_once(model, new, names))
        rows = locked(model, names, query)
    return rows


def locked(model: type[ModelT], names: Sequence[str], query: Select[ModelT]) -> dict[Key, ModelT]:
    """Run a query of rows, locked for this write in key order, read fresh; by key."""
    found = db.session.scalars(
        query.order_by(*(getattr(model, name) for name in names))
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {tuple(getattr(row, name) for name in names): row for row in found}


def keyed_values(
    table: Table,
    names: Sequence[str],
    keys: Sequence[Key],
    empty: Mapping[str, object],
    connection: Connection,
) -> dict[Key, dict[str, Any]]:
    """Return the rows of these keys as Core reads them on a hot write's connection (no ORM
    object), locked in key order, adding the missing ones first, as ``keyed_rows`` does."""
    wanted = sorted(set(keys), key=repr)
    query = keyed_query(table, tuple(names))
    at = [list(table.c.keys()).index(name) for name in names]

    def read() -> dict[Key, dict[str, Any]]:
        found = connection.execute(query, {"keys": wanted})
        fields = list(found.keys())
        return {tuple(row[i] for i in at): dict(zip(fields, row, strict=True)) for row in found}

    rows = read()
    missing = [key for key in wanted if key not in rows]
    if missing:
        new = [{**dict(zip(names, key, strict=True)), **empty} for key in missing]
        connection.execute(inserted_once(table, new, names))
        rows = read()
    return rows


#: the locked reads of rows by their keys made so far, by table and key columns (each made once)
KEYED: dict[tuple[str, tuple[str, ...]], Select[Any]] = {}


def keyed_query(table: Table, names: tuple[str, ...]) -> Select[Any]:
    """Return the read of a table's rows whose key columns are among ``keys`` (an expanding
    parameter), locked in key order, made once."""
    found = KEYED.get((table.name, names))
    if found is None:
        columns = [table.c[name] for name in names]
        found = (
            select(table)
            .where(tuple_(*columns).in_(bindparam("keys", expanding=True)))
            .order_by(*columns)
            .with_for_update()
        )
        KEYED[(table.name, names)] = found
    return found


def inserted_once(
    model: type[Base] | Table, rows: list[dict[str, object]], unique: Sequence[str]
) -> Insert:
    """Return the insert of rows that skips a row whose key another write stored first."""
    if db.engine.dialect.name == "postgresql":
        return postgresql_insert(model).values(rows).on_conflict_do_nothing(index_elements=unique)
    return sqlite_insert(model).values(rows).on_conflict_do_nothing(index_elements=unique)
