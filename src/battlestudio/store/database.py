"""The ``.battle`` format: connections to the SQLite file and rows ↔ document records.

``database_write`` saves a whole Battle (atomically) and appends events; ``database_read``
loads one (with ``sqlite3`` alone, see ``rows``, whose helpers are re-exported here). Both go
through the document codec (``codec``), so a .battle file is checked value by value exactly
like a .battle.json file.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import shapely
from sqlalchemy import Engine
from sqlalchemy.pool import NullPool
from sqlmodel import create_engine

from battlestudio.store.codec import RecordSpec
from battlestudio.store.fields import JSON, OPT_POINT, POINT, STRS, GeometryOf, GeorefOf
from battlestudio.store.rows import (  # noqa: F401 - re-exported for database_write and older callers
    check_header,
    parse_json,
    parse_wkb,
    record_from_row,
    secure,
    sql_errors,
)

__all__ = [
    "check_header",
    "chunks",
    "engine_for",
    "json_text",
    "parse_json",
    "parse_wkb",
    "record_from_row",
    "row_from_record",
    "sql_errors",
]


def engine_for(path: str, mode: str) -> Engine:
    """An engine on ``path`` opened with SQLite URI ``mode`` (``ro``, ``rw`` or ``rwc``).

    The connection runs in autocommit mode: callers issue ``BEGIN``/``COMMIT`` themselves, so
    a write is exactly one SQLite transaction.
    """
    uri = Path(os.path.abspath(path)).as_uri() + f"?mode={mode}"

    def connect() -> sqlite3.Connection:
        return secure(sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False))

    return create_engine("sqlite://", creator=connect, poolclass=NullPool)


def json_text(value: Any) -> str:
    """Compact, key-sorted JSON text for a JSON column (floats exact)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def row_from_record(spec: RecordSpec, rec: dict[str, Any]) -> dict[str, Any]:
    """A table row for one document record: points and georeferences split, JSON as text,
    geometry as WKB."""
    row: dict[str, Any] = {}
    for name, codec in spec.fields:
        value = rec.get(name) if name in spec.since else rec[name]  # a newer field left out: None
        if codec is POINT or codec is OPT_POINT:
            row[f"{name}_x"], row[f"{name}_y"] = value if value is not None else (None, None)
        elif codec is JSON or codec is STRS:
            row[name] = json_text(value)
        elif isinstance(codec, GeometryOf):
            row[name] = shapely.to_wkb(value)
        elif isinstance(codec, GeorefOf):
            row.update(zip(codec.columns(name), [value[p] for p in codec.PARTS] if value else [None] * 3, strict=True))
        else:
            row[name] = value
    return row


def chunks(rows: list[dict[str, Any]], size: int = 5000) -> Iterator[list[dict[str, Any]]]:
    """``rows`` in slices of ``size`` for executemany."""
    for i in range(0, len(rows), size):
        yield rows[i : i + size]
