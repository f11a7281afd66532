"""Content checksums of a ``.battle`` file, kept in its ``meta`` table (row ``checksums``).

Every table has one SHA-256 over its rows in stored order (``SELECT *``, values JSON-encoded
with their types: ``1``, ``1.0`` and ``"1"`` differ, blobs as hex); ``meta`` is hashed without
the ``checksums`` row itself. The ``event`` table is hashed in blocks of ``EVENT_BLOCK`` rows
(the size is stored with them),
so appending events rehashes only the last block and the new rows, never the whole log.

``store.save`` writes the row; ``append_events`` keeps it current; opening a file checks every
table before its rows are used, and a table that does not match is named in a
``BattleFileError`` (the file is not loaded). A file without the row (written before checksums)
opens as before. The row's value is JSON::

    {"version": 1, "tables": {"unit": "<hex>", ...}, "event": {"rows": N, "block": 1000, "blocks": ["<hex>", ...]}}

This finds damage and edits made outside BattleStudio; it does not stop someone who rewrites
the checksums too.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any
from collections.abc import Iterable, Sequence

from battlestudio.store.errors import BattleFileError

CHECKSUM_KEY = "checksums"
"""The ``meta`` key holding the checksums."""
CHECKSUM_VERSION = 1
EVENT_BLOCK = 1000
"""Event rows per hashed block."""
EVENT_COLUMNS = "seq, kind, turn, side, phase, payload"
"""The event columns hashed, in this order (``read_events`` selects the same)."""
_CHUNK = 1000


def _blob(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"blob": bytes(value).hex()}
    raise TypeError(f"an SQLite value cannot be a {type(value).__name__}")


_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), default=_blob)


def _encode(rows: Sequence[Sequence[Any]]) -> bytes:
    # tuples encode as arrays, as lists do: no copy of each row (30 % of verifying the events)
    return _ENCODER.encode(rows if isinstance(rows, list) else list(rows)).encode("ascii")


def rows_digest(rows: Iterable[Sequence[Any]]) -> str:
    """Hex SHA-256 of ``rows`` (tuples of SQLite values), hashed ``_CHUNK`` rows at a time."""
    h = hashlib.sha256()
    chunk: list[Sequence[Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == _CHUNK:
            h.update(_encode(chunk))
            chunk = []
    h.update(_encode(chunk))
    return h.hexdigest()


def event_blocks(rows: Sequence[Sequence[Any]], block: int) -> list[str]:
    """Hex SHA-256 of each ``block``-row slice of the event rows (``EVENT_COLUMNS``, by seq)."""
    return [hashlib.sha256(_encode(rows[i : i + block])).hexdigest() for i in range(0, len(rows), block)]


def _cursor(conn: Any) -> Any:
    proxied = getattr(conn, "connection", None)
    raw = getattr(proxied, "driver_connection", None) or conn
    cur = raw.cursor()
    cur.row_factory = None  # plain tuples
    return cur


def table_digest(conn: Any, table: str) -> str:
    """Checksum of one table (not ``event``) of an open file (``sqlite3`` or SQLAlchemy)."""
    cur = _cursor(conn)
    if table == "meta":
        cur.execute("SELECT key, value FROM meta WHERE key != ? ORDER BY key", (CHECKSUM_KEY,))
    else:
        cur.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
    return rows_digest(iter(cur.fetchone, None))


def compute(conn: Any, tables: Iterable[str]) -> dict[str, Any]:
    """The whole checksum record of an open file whose tables are ``tables`` (``event`` among them)."""
    digests = {t: table_digest(conn, t) for t in sorted(tables) if t != "event"}
    events = _cursor(conn).execute(f"SELECT {EVENT_COLUMNS} FROM event ORDER BY seq").fetchall()
    return {
        "version": CHECKSUM_VERSION,
        "tables": digests,
        "event": {"rows": len(events), "block": EVENT_BLOCK, "blocks": event_blocks(events, EVENT_BLOCK)},
    }


def store(conn: Any, record: dict[str, Any]) -> None:
    """Write ``record`` as the ``checksums`` meta row (replacing an older one)."""
    _cursor(conn).execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (CHECKSUM_KEY, json.dumps(record, separators=(",", ":"), sort_keys=True)),
    )


def read(path: str | os.PathLike[str], meta: dict[str, Any]) -> dict[str, Any] | None:
    """The checksum record from the ``meta`` key/value pairs, or None for a file without one.

    Raises
    ------
    BattleFileError
        when the row is there but is not a checksum record this version reads.
    """
    text = meta.get(CHECKSUM_KEY)
    if text is None:
        return None
    try:
        rec = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        rec = None
    ok = (
        isinstance(rec, dict)
        and rec.get("version") == CHECKSUM_VERSION
        and isinstance(rec.get("tables"), dict)
        and isinstance(rec.get("event"), dict)
        and isinstance(rec["event"].get("rows"), int)
        and isinstance(rec["event"].get("block"), int)
        and rec["event"]["block"] > 0
        and isinstance(rec["event"].get("blocks"), list)
    )
    if not ok:
        raise BattleFileError(
            path,
            "damaged: the checksums are not readable (expected a JSON record of version "
            f"{CHECKSUM_VERSION}); not opened",
            "meta key='checksums'",
        )
    return rec


def _damaged(path: str | os.PathLike[str], where: str) -> BattleFileError:
    return BattleFileError(
        path,
        "damaged or changed outside BattleStudio: its rows do not match the checksum stored "
        "when the file was saved; not opened (open a backup, or the .battle.json it came from)",
        where,
    )


def verify_tables(path: str | os.PathLike[str], conn: Any, rec: dict[str, Any], tables: Iterable[str]) -> None:
    """Check every table but ``event`` of an open file against ``rec``.

    Raises
    ------
    BattleFileError
        naming the first table whose rows differ, or a table the record lacks.
    """
    stored = rec["tables"]
    for t in sorted(tables):
        if t == "event":
            continue
        if stored.get(t) != table_digest(conn, t):
            raise _damaged(path, f"table {t}")


def verify_events(path: str | os.PathLike[str], rec: dict[str, Any], rows: Sequence[Sequence[Any]]) -> None:
    """Check the event rows (``EVENT_COLUMNS``, by seq) against ``rec``.

    Raises
    ------
    BattleFileError
        naming the event rows (``table event, seq A to B``) of the first block that differs,
        or saying how many rows were added or removed.
    """
    want = rec["event"]
    if want["rows"] != len(rows):
        raise _damaged(path, f"table event ({len(rows)} rows, the checksum counts {want['rows']})")
    size = want["block"]
    blocks = event_blocks(rows, size)
    for i, (got, stored) in enumerate(zip(blocks, want["blocks"], strict=False)):
        if got != stored:
            lo = i * size
            hi = min(len(rows), lo + size) - 1
            raise _damaged(path, f"table event, seq {lo} to {hi}")
    if len(blocks) != len(want["blocks"]):
        raise _damaged(path, "table event (block count)")


def after_append(path: str | os.PathLike[str], conn: Any, rec: dict[str, Any], old_rows: int) -> dict[str, Any]:
    """``rec`` updated for events appended after ``old_rows`` rows: the last block of the old
    rows and the new rows are read back and hashed; the earlier blocks are kept.

    Raises
    ------
    BattleFileError
        when the old rows of that last block no longer match their checksum (nothing is
        blessed that was damaged before the append).
    """
    size = rec["event"]["block"]  # the file's own block size
    start = (old_rows // size) * size
    tail = _cursor(conn).execute(f"SELECT {EVENT_COLUMNS} FROM event WHERE seq >= ? ORDER BY seq", (start,)).fetchall()
    kept = list(rec["event"]["blocks"])[: start // size]
    if old_rows > start and event_blocks(tail[: old_rows - start], size) != rec["event"]["blocks"][len(kept) :]:
        raise _damaged(path, f"table event, seq {start} to {old_rows - 1}")
    blocks = kept + event_blocks(tail, size)
    return {**rec, "event": {"rows": start + len(tail), "block": size, "blocks": blocks}}
