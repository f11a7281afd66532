"""Reading a ``.battle`` file's rows with Python's own ``sqlite3``: no SQLAlchemy on the way in.

Opening a file is the first thing a user does; importing sqlmodel, SQLAlchemy and pydantic
costs about half a second on a 2-core machine, more than reading a Leipzig-sized file. So
reading connects with ``sqlite3`` directly (``connect``) and this module holds what reading
needs and writing shares: the table names (kept equal to ``tables`` by a test), the header
check, row → record conversion and the value parsers. ``database`` re-exports them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import shapely
from shapely.errors import ShapelyError

from battlestudio.store.codec import SCHEMA_VERSION, RecordSpec
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.fields import JSON, OPT_POINT, POINT, STRS, GeometryOf, GeorefOf

APPLICATION_ID = 0x42415453
"""``PRAGMA application_id`` of a .battle file ("BATS"); ``tables.APPLICATION_ID``."""

COLLECTION_TABLE_NAMES = {
    "sides": "side",
    "commanders": "commander",
    "units": "unit",
    "terrain": "terrain",
    "towns": "town_zone",
    "objectives": "objective",
    "deployment_zones": "deployment_zone",
    "reinforcements": "reinforcement",
    "orders": "standing_order",
}
"""Document collection key → table name (``tables.COLLECTION_TABLES``' ``__tablename__``)."""

INFO_TABLE, SOURCE_TABLE, OOB_NODE_TABLE, OOB_EDGE_TABLE, EVENT_TABLE, META_TABLE, KEYFRAME_TABLE = (
    "scenario_info",
    "source",
    "oob_node",
    "oob_edge",
    "event",
    "meta",
    "keyframe",
)
KEYFRAMES_SINCE = 4
"""Schema version that added the ``keyframe`` table (a file without keyframes is written older)."""

REQUIRED_TABLE_NAMES = frozenset(
    {
        *COLLECTION_TABLE_NAMES.values(),
        INFO_TABLE,
        SOURCE_TABLE,
        OOB_NODE_TABLE,
        OOB_EDGE_TABLE,
        EVENT_TABLE,
        META_TABLE,
        KEYFRAME_TABLE,
    }
)
"""Every table of this schema version (``tables.REQUIRED_TABLES``)."""


def tables_at(version: int) -> frozenset[str]:
    """The tables a file of schema ``version`` has (no ``keyframe`` table before version 4)."""
    return REQUIRED_TABLE_NAMES if version >= KEYFRAMES_SINCE else REQUIRED_TABLE_NAMES - {KEYFRAME_TABLE}


def _cols(spec: str) -> dict[str, str]:
    kinds = {"V": "VARCHAR", "F": "FLOAT", "I": "INTEGER", "B": "BLOB"}
    return {c: kinds[k] for c, k in (part.split(":") for part in spec.split())}


SCHEMA_COLUMNS: dict[str, dict[str, str]] = {
    "commander": _cols(
        "id:V name:V side:V nation:V echelon:V position_x:F position_y:F facing:F figures:I order_capacity:I "
        "command_ability:I command_distance:F attributes:V"
    ),
    "deployment_zone": _cols("id:V side:V name:V polygon:B formation:V"),
    "event": _cols("seq:I turn:I side:V phase:V kind:V payload:V"),
    "keyframe": _cols("seq:I position:I turn:I side:V phase:V state:V"),
    "meta": _cols("key:V value:V"),
    "objective": _cols("id:V name:V geometry:B side:V value:I"),
    "oob_edge": _cols("seq:I superior:V subordinate:V"),
    "oob_node": _cols("seq:I id:V"),
    "reinforcement": _cols(
        "id:V side:V formation:V earliest_turn:I latest_turn:I entry_point_x:F entry_point_y:F probability:F note:V"
    ),
    "scenario_info": _cols(
        "id:I title:V date:V place:V ruleset:V parameters:V table_width:F table_height:F ground_scale:F "
        "turn_minutes:I first_turn:V turns:I description:V georef_lon:F georef_lat:F georef_bearing:F"
    ),
    "side": _cols("id:V name:V nations:V colour:V"),
    "source": _cols("seq:I title:V url:V licence:V note:V"),
    "standing_order": _cols(
        "id:V issuer:V recipient:V order_type:V objective_x:F objective_y:F status:V turn_issued:I parameters:V"
    ),
    "terrain": _cols("id:V kind:V geometry:B name:V level:I width:F properties:V"),
    "town_zone": _cols("id:V name:V polygon:B capacity:I"),
    "unit": _cols(
        "id:V name:V side:V nation:V arm:V subtype:V quality:V figures:I bases:I men:I horses:I guns:I "
        "position_x:F position_y:F facing:F formation:V state:V ammunition:I figure_width:F figure_depth:F "
        "column_ranks:I attributes:V"
    ),
}
"""Every table of a ``.battle`` file, column → declared type, as ``store.save`` writes them
(a test compares it with ``tables``); a file of an older schema version may lack columns."""
SCHEMA_INDEXES = frozenset({"ix_event_turn_side_phase"})
"""The indexes ``store.save`` creates besides SQLite's own ``sqlite_autoindex_*``."""
_SQLITE_OWN_TABLES = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"})


def check_schema(path: str, conn: Any) -> None:
    """Refuse a ``.battle`` file whose schema is not BattleStudio's, read from ``sqlite_master``
    before any table is: a trigger, a view, a virtual table, an unknown table, index or column,
    a generated (computed) column, or a column of another type would run or compute what the
    file says instead of storing data (a trigger emptied the order of battle on an append; a
    generated column took 1 GB to open).

    Raises
    ------
    BattleFileError
        naming the file and the first schema object that is not BattleStudio's.
    """
    raw = _raw(conn)
    found: list[str] = []
    tables: list[str] = []
    for kind, name, tbl, sql in raw.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        sql_text = (sql or "").lstrip().upper()
        if kind == "table" and sql_text.startswith("CREATE VIRTUAL TABLE"):
            found.append(f"virtual table {name!r}")
        elif kind == "table" and name in SCHEMA_COLUMNS:
            tables.append(name)
        elif kind == "table" and name in _SQLITE_OWN_TABLES:
            continue
        elif kind == "index" and tbl in SCHEMA_COLUMNS and (name in SCHEMA_INDEXES or sql is None):
            continue
        else:
            found.append(f"{kind} {name!r}" + (f" on {tbl!r}" if tbl != name else ""))
    for name in tables:
        for _cid, col, ctype, _notnull, _default, _pk, hidden in raw.execute(f'PRAGMA table_xinfo("{name}")'):
            want = SCHEMA_COLUMNS[name].get(col)
            if hidden in (2, 3):
                found.append(f"generated column {name}.{col}")
            elif want is None:
                found.append(f"unknown column {name}.{col}")
            elif str(ctype).upper() != want:
                found.append(f"column {name}.{col} of type {ctype or 'none'} (expected {want})")
    if found:
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        raise BattleFileError(
            path,
            f"not opened: the file's schema is not BattleStudio's ({', '.join(found[:3])}{more}); "
            "a .battle file holds only BattleStudio's tables",
        )


def secure(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with SQLite's defences on: defensive mode where the driver allows it (Python
    3.12+), ``trusted_schema`` off (no SQL function from the schema runs), cell-size checks."""
    setconfig = getattr(conn, "setconfig", None)
    defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if setconfig is not None and defensive is not None:
        setconfig(defensive, True)
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    return conn


def connect(path: str, mode: str) -> sqlite3.Connection:
    """A ``sqlite3`` connection to ``path`` opened with SQLite URI ``mode`` (``ro``, ``rw`` or
    ``rwc``), in autocommit mode (callers issue ``BEGIN``/``COMMIT``), rows as ``sqlite3.Row``."""
    uri = Path(os.path.abspath(path)).as_uri() + f"?mode={mode}"
    conn = secure(sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False))
    conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def sql_errors(path: str | os.PathLike[str], doing: str) -> Iterator[None]:
    """Turn SQLite driver errors (raw or wrapped by SQLAlchemy) into
    ``BattleFileError(path, "<doing>: <reason>")``."""
    try:
        yield
    except sqlite3.Error as exc:
        said = str(exc)
        if "malformed" in said or "not a database" in said:
            said = f"the file is cut short or overwritten, so SQLite cannot read it ({said}); open a backup copy"
        raise BattleFileError(path, f"{doing}: {said}") from None
    except UnicodeDecodeError as exc:  # a damaged TEXT value
        raise BattleFileError(path, f"{doing}: text that is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except Exception as exc:
        sa = sys.modules.get("sqlalchemy.exc")  # only loaded when something wrote with it
        if sa is not None and isinstance(exc, sa.DBAPIError):
            raise BattleFileError(path, f"{doing}: {exc.orig}") from None
        raise


def _raw(conn: Any) -> Any:
    """The ``sqlite3`` connection under a SQLAlchemy connection (or ``conn`` itself)."""
    proxied = getattr(conn, "connection", None)
    return getattr(proxied, "driver_connection", None) or conn


def check_header(path: str, conn: Any) -> int:
    """Check that ``conn`` (``sqlite3`` or SQLAlchemy) is a BattleStudio file this version can
    read; return its version.

    Raises
    ------
    BattleFileError
        for a foreign SQLite database (no ``meta`` table or wrong ``format``), a missing table,
        or a schema version newer than this code reads.
    """
    raw = _raw(conn)
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    refused: BattleFileError | None = None
    if META_TABLE in tables:  # a BattleStudio file: its schema must be exactly ours
        try:
            check_schema(path, conn)
        except BattleFileError as exc:
            if "meta." in exc.what:  # the meta table itself is not ours: read nothing
                raise
            refused = exc  # unless a newer version wrote it (said below, from the clean meta table)
    if META_TABLE not in tables:
        app_id = raw.execute("PRAGMA application_id").fetchone()[0]
        found = ", ".join(sorted(tables)[:8]) or "none"
        what = (
            "a BattleStudio file without its meta table"
            if app_id == APPLICATION_ID
            else ("not a BattleStudio file: an SQLite database without BattleStudio tables")
        )
        raise BattleFileError(path, f"{what} (tables found: {found})")
    meta = {r[0]: r[1] for r in raw.execute("SELECT key, value FROM meta")}
    if meta.get("format") != "battlestudio":
        raise BattleFileError(path, f"not a BattleStudio file: meta table has format {meta.get('format')!r}")
    text = meta.get("schema_version")
    try:
        version = int(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BattleFileError(path, f"bad schema version {text!r} in the meta table") from None
    if refused is not None and version <= SCHEMA_VERSION:
        raise refused
    if version > SCHEMA_VERSION:
        raise BattleFileError(
            path,
            f"written by a newer BattleStudio (schema version {version}; this version reads up to "
            f"{SCHEMA_VERSION}); update BattleStudio to open it",
        )
    if version < 1:
        raise BattleFileError(path, f"bad schema version {version} in the meta table")
    missing = sorted(tables_at(version) - tables)
    if missing:
        raise BattleFileError(path, f"damaged BattleStudio file: table(s) {', '.join(missing)} missing")
    return version


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
        elif isinstance(codec, GeorefOf):
            parts = [row[c] for c in codec.columns(name)]
            rec[name] = None if all(v is None for v in parts) else dict(zip(codec.PARTS, parts, strict=True))
        else:
            rec[name] = row[name]
    return rec


def cell_words(raw: Any) -> str:
    """What an SQLite cell holds, in a user's words: "NULL", "the number 3", "a blob of 12 bytes"."""
    if raw is None:
        return "NULL (nothing)"
    if isinstance(raw, bytes):
        return f"a blob of {len(raw):,} bytes"
    if isinstance(raw, int | float):
        return f"the number {raw!r}"[:60]
    if isinstance(raw, str):
        return f"the text {raw[:40]!r}"
    return "a value of another kind"


def parse_json(raw: Any, where: str) -> Any:
    """JSON column text → value, or DocumentError naming ``where``."""
    if not isinstance(raw, str):
        raise DocumentError(where, f"expected JSON text, got {cell_words(raw)}")
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
        raise DocumentError(where, f"expected a WKB geometry blob, got {cell_words(raw)}")
    try:
        return shapely.from_wkb(raw)
    except (ShapelyError, ValueError, TypeError) as exc:
        raise DocumentError(where, f"not a valid WKB geometry: {exc}") from None
