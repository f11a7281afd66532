"""The ``.battle`` format: connections to the SQLite file and rows ↔ document records.

``database_write`` saves a whole Battle (atomically) and appends events; ``database_read``
loads one. Both go through the document codec (``codec``), so a .battle file is checked value
by value exactly like a .battle.json file.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import shapely
import sqlalchemy.exc
from shapely.errors import ShapelyError
from sqlalchemy import Engine, text
from sqlalchemy.pool import NullPool
from sqlmodel import create_engine

from battlestudio.store.codec import SCHEMA_VERSION, RecordSpec
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.fields import JSON, OPT_POINT, POINT, STRS, GeometryOf
from battlestudio.store.tables import APPLICATION_ID, REQUIRED_TABLES


def engine_for(path: str, mode: str) -> Engine:
    """An engine on ``path`` opened with SQLite URI ``mode`` (``ro``, ``rw`` or ``rwc``).

    The connection runs in autocommit mode: callers issue ``BEGIN``/``COMMIT`` themselves, so
    a write is exactly one SQLite transaction.
    """
    uri = Path(os.path.abspath(path)).as_uri() + f"?mode={mode}"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    return create_engine("sqlite://", creator=connect, poolclass=NullPool)


@contextmanager
def sql_errors(path: str | os.PathLike[str], doing: str) -> Iterator[None]:
    """Turn SQLite driver errors into ``BattleFileError(path, "<doing>: <reason>")``."""
    try:
        yield
    except sqlalchemy.exc.DBAPIError as exc:
        raise BattleFileError(path, f"{doing}: {exc.orig}") from None
    except sqlite3.Error as exc:
        raise BattleFileError(path, f"{doing}: {exc}") from None
    except UnicodeDecodeError as exc:  # a damaged TEXT value
        raise BattleFileError(path, f"{doing}: text that is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def json_text(value: Any) -> str:
    """Compact, key-sorted JSON text for a JSON column (floats exact)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def row_from_record(spec: RecordSpec, rec: dict[str, Any]) -> dict[str, Any]:
    """A table row for one document record: points split, JSON as text, geometry as WKB."""
    row: dict[str, Any] = {}
    for name, codec in spec.fields:
        value = rec[name]
        if codec is POINT or codec is OPT_POINT:
            row[f"{name}_x"], row[f"{name}_y"] = value if value is not None else (None, None)
        elif codec is JSON or codec is STRS:
            row[name] = json_text(value)
        elif isinstance(codec, GeometryOf):
            row[name] = shapely.to_wkb(value)
        else:
            row[name] = value
    return row


def record_from_row(spec: RecordSpec, row: Any, where: str) -> dict[str, Any]:
    """The document record for a table row (values still unchecked; ``spec.load`` checks)."""
    rec: dict[str, Any] = {}
    for name, codec in spec.fields:
        if codec is POINT or codec is OPT_POINT:
            x, y = row[f"{name}_x"], row[f"{name}_y"]
            rec[name] = None if x is None and y is None else [x, y]
        elif codec is JSON or codec is STRS:
            rec[name] = parse_json(row[name], f"{where}.{name}")
        elif isinstance(codec, GeometryOf):
            rec[name] = parse_wkb(row[name], f"{where}.{name}")
        else:
            rec[name] = row[name]
    return rec


def parse_json(raw: Any, where: str) -> Any:
    """JSON column text → value, or DocumentError naming ``where``."""
    if not isinstance(raw, str):
        raise DocumentError(where, f"expected JSON text, got {type(raw).__name__}")
    try:
        return _DECODER.decode(raw)
    except ValueError as exc:
        raise DocumentError(where, f"not valid JSON: {exc}") from None
    except RecursionError:
        raise DocumentError(where, "JSON nested too deeply") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
"""One decoder for every JSON column (building one per call costs more than decoding)."""


def parse_wkb(raw: Any, where: str) -> Any:
    """WKB blob → shapely geometry, or DocumentError naming ``where``."""
    if not isinstance(raw, bytes):
        raise DocumentError(where, f"expected a WKB geometry blob, got {type(raw).__name__}")
    try:
        return shapely.from_wkb(raw)
    except (ShapelyError, ValueError, TypeError) as exc:
        raise DocumentError(where, f"not a valid WKB geometry: {exc}") from None


def check_header(path: str, conn: Any) -> int:
    """Check that ``conn`` is a BattleStudio file this version can read; return its version.

    Raises
    ------
    BattleFileError
        for a foreign SQLite database (no ``meta`` table or wrong ``format``), a missing table,
        or a schema version newer than this code reads.
    """
    tables = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables:
        app_id = conn.exec_driver_sql("PRAGMA application_id").scalar()
        found = ", ".join(sorted(tables)[:8]) or "none"
        what = "a BattleStudio file without its meta table" if app_id == APPLICATION_ID else (
            "not a BattleStudio file: an SQLite database without BattleStudio tables"
        )
        raise BattleFileError(path, f"{what} (tables found: {found})")
    meta = dict(conn.execute(text("SELECT key, value FROM meta")).all())
    if meta.get("format") != "battlestudio":
        raise BattleFileError(path, f"not a BattleStudio file: meta table has format {meta.get('format')!r}")
    raw = meta.get("schema_version")
    try:
        version = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BattleFileError(path, f"bad schema version {raw!r} in the meta table") from None
    if version > SCHEMA_VERSION:
        raise BattleFileError(
            path,
            f"written by a newer BattleStudio (schema version {version}; this version reads up to "
            f"{SCHEMA_VERSION}); update BattleStudio to open it",
        )
    if version < 1:
        raise BattleFileError(path, f"bad schema version {version} in the meta table")
    missing = sorted(REQUIRED_TABLES - tables)
    if missing:
        raise BattleFileError(path, f"damaged BattleStudio file: table(s) {', '.join(missing)} missing")
    return version


def chunks(rows: list[dict[str, Any]], size: int = 5000) -> Iterator[list[dict[str, Any]]]:
    """``rows`` in slices of ``size`` for executemany."""
    for i in range(0, len(rows), size):
        yield rows[i : i + size]
