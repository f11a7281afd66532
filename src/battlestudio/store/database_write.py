"""Writing ``.battle`` files: a whole Battle atomically, or new events appended in place.

A save builds a complete new SQLite file beside the old one and swaps it in (``atomic``), so a
crash or a full disk leaves the previous file intact; a recorded event read from a file that
cannot be read is written as the row it was read from, unchanged (``_row_of``).
``append_events`` adds only the new events, in one SQLite transaction, so a crash loses at most
the events being appended.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from typing import Any
from collections.abc import Iterable, Sequence

import sqlalchemy.exc

from battlestudio import __version__
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.store import checksum
from battlestudio.store.atomic import atomic_write
from battlestudio.store.codec import (
    COLLECTIONS,
    FORMAT,
    INFO,
    SOURCE,
    battle_to_doc,
    event_payload_json,
    event_to_doc,
)
from battlestudio.store.database import (
    check_header,
    chunks,
    engine_for,
    row_from_record,
    sql_errors,
)
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.game_doc import GAME_SINCE, game_to_doc
from battlestudio.store.rows import REQUIRED_TABLE_NAMES
from battlestudio.store.tables import (
    APPLICATION_ID,
    COLLECTION_TABLES,
    METADATA,
    EventRow,
    InfoRow,
    MetaRow,
    OobEdgeRow,
    OobNodeRow,
    SourceRow,
)


def save_database(battle: Battle, path: str | os.PathLike[str]) -> None:
    """Write ``battle`` to the ``.battle`` file ``path``, replacing it atomically.

    Raises
    ------
    BattleFileError
        when a value cannot be stored (naming its path in the document) or SQLite fails;
        the previous file at ``path`` is left intact.
    OSError
        when the directory cannot be written (e.g. disk full); the previous file is intact.
    """
    try:
        doc = battle_to_doc(Battle(battle.scenario, []))
        game = game_to_doc(battle)
        if game is not None:  # the meta row ``game`` (store.game_doc)
            doc["game"] = game
            doc["schema_version"] = max(int(doc["schema_version"]), GAME_SINCE)
        events = [_row_of(battle.events, i) for i in range(len(battle.events))]
    except DocumentError as err:
        raise BattleFileError(path, f"{err.what} (not saved)", err.where) from None
    with sql_errors(path, "cannot save"):
        atomic_write(path, lambda tmp: write_document(tmp, doc, events))


def _row_of(events: Sequence[BattleEvent], i: int) -> dict[str, Any]:
    """The ``event`` row of ``events[i]``; for a recorded event that cannot be read, the row it
    was read from, copied as it is (its kind, turn, side, phase and payload text) at seq ``i``.

    Raises
    ------
    DocumentError
        if the event cannot be stored.
    """
    try:
        event = events[i]
    except ValueError:
        raw = events.raw_row(i) if isinstance(events, RecordedEvents) else None
        if not (isinstance(raw, tuple) and len(raw) == 6):
            raise
        _seq, kind, turn, side, phase, payload = raw
        return {"seq": i, "kind": kind, "turn": turn, "side": side, "phase": phase, "payload": payload}
    return event_row(i, event_to_doc(event, f"events[{i}]"), f"events[{i}]")


def write_document(tmp: str, doc: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Fill the empty SQLite file ``tmp`` with ``doc`` and the ``event`` rows, in one transaction."""
    engine = engine_for(tmp, "rw")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
            version = int(doc["schema_version"])  # the oldest that holds it (codec.SCHEMA_VERSION)
            conn.exec_driver_sql(f"PRAGMA user_version = {version}")
            conn.exec_driver_sql("BEGIN")
            METADATA.create_all(conn)
            meta = {"format": FORMAT, "schema_version": str(version), "app_version": __version__}
            if doc.get("game") is not None:
                meta["game"] = json.dumps(doc["game"], ensure_ascii=False, allow_nan=False, sort_keys=True)
            insert_rows(conn, MetaRow, [{"key": k, "value": v} for k, v in meta.items()])
            insert_rows(conn, InfoRow, [{"id": 1, **row_from_record(INFO, doc["info"])}])
            for key, spec in COLLECTIONS.items():
                insert_rows(conn, COLLECTION_TABLES[key], [row_from_record(spec, r) for r in doc[key]])
            insert_rows(
                conn, SourceRow, [{"seq": i, **row_from_record(SOURCE, s)} for i, s in enumerate(doc["sources"])]
            )
            nodes, edges = _oob_rows(doc["oob"])
            insert_rows(conn, OobNodeRow, nodes)
            insert_rows(conn, OobEdgeRow, edges)
            insert_rows(conn, EventRow, events)
            checksum.store(conn, checksum.compute(conn, REQUIRED_TABLE_NAMES))  # read back: exactly what is stored
            conn.exec_driver_sql("COMMIT")
    finally:
        engine.dispose()


def insert_rows(conn: Any, table: type, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` into ``table`` with executemany, in slices."""
    statement = table.__table__.insert()  # type: ignore[attr-defined]
    for part in chunks(rows):
        conn.execute(statement, part)


def _oob_rows(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    # superiors first, in document order, so reading the rows back lists them in that order
    nodes: dict[str, None] = dict.fromkeys(entry["id"] for entry in entries)
    edges: list[dict[str, Any]] = []
    for entry in entries:
        for sub in entry["subordinates"]:
            nodes.setdefault(sub)
            edges.append({"seq": len(edges), "superior": entry["id"], "subordinate": sub})
    return [{"seq": i, "id": n} for i, n in enumerate(nodes)], edges


def event_row(seq: int, event: dict[str, Any], where: str) -> dict[str, Any]:
    """The ``event`` table row for a document event (``event_to_doc`` output).

    Raises
    ------
    DocumentError
        if the payload is not JSON data (see ``event_payload_json``).
    """
    return {
        "seq": seq,
        "turn": event["turn"],
        "side": event["side"],
        "phase": event["phase"],
        "kind": event["kind"],
        "payload": event_payload_json(event, where),
    }


def append_events(path: str | os.PathLike[str], events: Iterable[BattleEvent], *, after: int | None = None) -> int:
    """Append ``events`` to the game log of the ``.battle`` file ``path`` (Issue 7, storage).

    Only the new events are written, in one SQLite transaction: if anything fails or the
    process dies midway, the file keeps exactly the events it had before.

    Parameters
    ----------
    path : path-like
        an existing ``.battle`` file.
    events : iterable of BattleEvent
        the events to add after those already stored, oldest first.
    after : int, optional
        the number of events the caller believes the file holds; if given and the file holds
        a different number, nothing is written (guards against appending to a stale copy).

    Returns
    -------
    int
        the number of events in the file afterwards.

    Raises
    ------
    BattleFileError
        if the file is missing, not a readable .battle file, holds a different number of
        events than ``after``, an event cannot be stored, or SQLite fails.
    """
    try:
        rows = [event_to_doc(e, f"events[+{i}]") for i, e in enumerate(events)]
        for i, row in enumerate(rows):
            event_payload_json(row, f"events[+{i}]")  # check now, before the file is touched
    except DocumentError as err:
        raise BattleFileError(path, f"{err.what} (nothing appended)", err.where) from None
    if not os.path.isfile(path):
        raise BattleFileError(path, "cannot append events: no such file")
    engine = engine_for(os.fspath(path), "rw")
    try:
        with sql_errors(path, "cannot append events"), engine.connect() as conn:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                check_header(os.fspath(path), conn)
                meta: dict[str, Any] = dict(conn.exec_driver_sql("SELECT key, value FROM meta").all())
                sums = checksum.read(path, meta)
                count = conn.exec_driver_sql("SELECT count(*) FROM event").scalar_one()
                start = conn.exec_driver_sql("SELECT coalesce(max(seq) + 1, 0) FROM event").scalar_one()
                if after is not None and count != after:
                    raise BattleFileError(
                        path, f"cannot append events: the file holds {count} events, expected {after}"
                    )
                if sums is not None and sums["event"]["rows"] != count:
                    raise BattleFileError(
                        path,
                        f"cannot append events: the file holds {count} events, its checksum counts "
                        f"{sums['event']['rows']} (changed outside BattleStudio or damaged)",
                    )
                insert_rows(conn, EventRow, [event_row(start + i, e, f"events[+{i}]") for i, e in enumerate(rows)])
                if sums is not None:  # a file saved before checksums stays without them
                    checksum.store(conn, checksum.after_append(path, conn, sums, int(count)))
                conn.exec_driver_sql("COMMIT")
            except BaseException:
                with suppress(sqlalchemy.exc.DBAPIError):  # SQLite may have rolled back already
                    conn.exec_driver_sql("ROLLBACK")
                raise
        return int(count) + len(rows)
    finally:
        engine.dispose()
