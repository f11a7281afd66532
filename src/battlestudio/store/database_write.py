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
from collections.abc import Callable, Iterable, Sequence

import sqlalchemy.exc

from battlestudio import __version__
from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
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
from battlestudio.store.keyframes import keyframe_positions, keyframe_rows
from battlestudio.store.rows import KEYFRAMES_SINCE, tables_at
from battlestudio.store.tables import (
    APPLICATION_ID,
    COLLECTION_TABLES,
    METADATA,
    EventRow,
    InfoRow,
    KeyframeRow,
    MetaRow,
    OobEdgeRow,
    OobNodeRow,
    SourceRow,
)


def save_database(
    battle: Battle, path: str | os.PathLike[str], states: Callable[[int], GameState] | None = None
) -> None:
    """Write ``battle`` to the ``.battle`` file ``path``, replacing it atomically.

    Its game's keyframes (``store.keyframes``) are stored with it, the states taken from
    ``states(position)`` (the caller's game log, e.g. ``GameLog.state_at``) or, without it,
    from a replay of the game here; a game that cannot be replayed is saved without them.

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
        keyframes = game_keyframes(battle, states)
        if keyframes:
            doc["schema_version"] = max(int(doc["schema_version"]), KEYFRAMES_SINCE)
    except DocumentError as err:
        raise BattleFileError(path, f"{err.what} (not saved)", err.where) from None
    with sql_errors(path, "cannot save"):
        atomic_write(path, lambda tmp: write_document(tmp, doc, events, keyframes))


def phase_keys(events: Sequence[BattleEvent]) -> list[tuple[int, PhaseKey]]:
    """``(position, phase)`` of each phase's first event, in order (``RecordedEvents``: from
    the rows, without building the events)."""
    heads = events.heads() if isinstance(events, RecordedEvents) else [(e.turn, e.side, e.phase) for e in events]
    out: list[tuple[int, PhaseKey]] = []
    last = None
    for i, head in enumerate(heads):
        if head != last:
            out.append((i, PhaseKey(*head)))
            last = head
    return out


def game_keyframes(
    battle: Battle,
    states: Callable[[int], GameState] | None,
    first_seq: int = 0,
    after: int = 0,
) -> list[dict[str, Any]]:
    """The ``keyframe`` rows of ``battle``'s game (positions over ``after`` only); none when
    the game cannot be replayed to them (``states`` or the replay raises ``ValueError``).

    Raises
    ------
    DocumentError
        when a state cannot be stored.
    """
    keys = phase_keys(battle.events)
    wanted = [p for p in keyframe_positions([p for p, _ in keys]) if p > after]
    if not wanted:
        return []
    if states is None:
        try:
            states = GameLog.lazy(battle.scenario, battle.events, cache_size=0).state_at
        except ValueError:
            return []
    try:
        return keyframe_rows(battle.scenario, keys, states, first_seq, wanted)
    except (ValueError, IndexError) as exc:
        if isinstance(exc, DocumentError):
            raise
        return []


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


def write_document(
    tmp: str, doc: dict[str, Any], events: list[dict[str, Any]], keyframes: Sequence[dict[str, Any]] = ()
) -> None:
    """Fill the empty SQLite file ``tmp`` with ``doc``, the ``event`` rows and the ``keyframe``
    rows, in one transaction (no ``keyframe`` table without keyframes: an older schema)."""
    engine = engine_for(tmp, "rw")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
            version = int(doc["schema_version"])  # the oldest that holds it (codec.SCHEMA_VERSION)
            conn.exec_driver_sql(f"PRAGMA user_version = {version}")
            conn.exec_driver_sql("BEGIN")
            METADATA.create_all(conn, tables=[t for n, t in METADATA.tables.items() if keyframes or n != "keyframe"])
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
            if keyframes:
                insert_rows(conn, KeyframeRow, list(keyframes))
            checksum.store(conn, checksum.compute(conn, tables_at(version)))  # read back: exactly what is stored
            conn.exec_driver_sql("COMMIT")
    finally:
        engine.dispose()


def _append_keyframes(conn: Any, meta: dict[str, Any], keyframes: list[dict[str, Any]]) -> None:
    """Insert ``keyframes`` into an open file in a transaction, numbered after its own; a file
    of a schema older than ``KEYFRAMES_SINCE`` gets the table and the version first."""
    version = int(meta.get("schema_version", 1))
    if version < KEYFRAMES_SINCE:
        KeyframeRow.__table__.create(conn)  # type: ignore[attr-defined]
        conn.exec_driver_sql("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(KEYFRAMES_SINCE),))
        conn.exec_driver_sql(f"PRAGMA user_version = {KEYFRAMES_SINCE}")
        first = 0
    else:
        first = int(conn.exec_driver_sql("SELECT coalesce(max(seq) + 1, 0) FROM keyframe").scalar_one())
    for i, row in enumerate(keyframes):
        row["seq"] = first + i
    insert_rows(conn, KeyframeRow, keyframes)


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


def append_events(
    path: str | os.PathLike[str],
    events: Iterable[BattleEvent],
    *,
    after: int | None = None,
    game: Battle | None = None,
    states: Callable[[int], GameState] | None = None,
) -> int:
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
    game, states : Battle and callable, optional
        the whole game after the append (the file's scenario and events plus ``events``) and
        its states by position (``GameLog.state_at``): the keyframes the new events reach are
        stored too (``store.keyframes``; a file of an older schema gets its ``keyframe`` table
        and schema version 4). Without them the file's keyframes stay as they are (still true:
        they lie before the new events).

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
    new_keyframes: list[dict[str, Any]] = []
    if game is not None and states is not None:
        try:
            new_keyframes = game_keyframes(game, states, after=len(game.events) - len(rows))
        except DocumentError as err:
            raise BattleFileError(path, f"{err.what} (nothing appended)", err.where) from None
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
                if new_keyframes and int(count) + len(rows) == len(game.events if game is not None else ()):
                    _append_keyframes(conn, meta, new_keyframes)
                else:
                    new_keyframes = []
                if sums is not None:  # a file saved before checksums stays without them
                    sums = checksum.after_append(path, conn, sums, int(count))
                    if new_keyframes:
                        sums["tables"] = {
                            **sums["tables"],
                            "meta": checksum.table_digest(conn, "meta"),
                            "keyframe": checksum.table_digest(conn, "keyframe"),
                        }
                    checksum.store(conn, sums)
                conn.exec_driver_sql("COMMIT")
            except BaseException:
                with suppress(sqlalchemy.exc.DBAPIError):  # SQLite may have rolled back already
                    conn.exec_driver_sql("ROLLBACK")
                raise
        return int(count) + len(rows)
    finally:
        engine.dispose()
