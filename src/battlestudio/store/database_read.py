"""Reading ``.battle`` files: rows → document → checked Battle.

Every way a file can be wrong ends in a ``BattleFileError`` naming the file and the problem:
missing, empty, not SQLite, damaged, a foreign SQLite database, a newer schema version, or a
bad value (named by table, row id and column).

Events are read as rows with the raw SQLite cursor: their place (kind, turn, side, phase) is
checked at once, and their payloads are kept as text in a ``RecordedEvents`` that checks and
builds each event the first time it is read (``lazy_events``), or all of them before
``load_database`` returns (the default). Either way a bad payload value raises a
``BattleFileError`` naming the file, ``event seq=N`` and the value's path in the payload.
"""

from __future__ import annotations

import gc
import json
import os
import re
from typing import Any
from collections.abc import Callable, Sequence

from battlestudio.model.oob import OrderOfBattle
from battlestudio.replay.battle import Battle, StoredKeyframe
from battlestudio.replay.events import BattleEvent, event_from_dict, event_kinds
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.rules import load_event_types
from battlestudio.store import checksum
from battlestudio.store.codec import (
    COLLECTIONS,
    FORMAT,
    INFO,
    SCHEMA_VERSION,
    SOURCE,
    RecordSpec,
    battle_from_doc,
    event_from_doc,
    oob_to_doc,
)
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.event_places import raise_for_places
from battlestudio.store.game_doc import GAME_SINCE, game_from_doc
from battlestudio.store.keyframes import stored_keyframe_reader
from battlestudio.store.rows import (
    COLLECTION_TABLE_NAMES,
    EVENT_TABLE,
    INFO_TABLE,
    KEYFRAME_TABLE,
    KEYFRAMES_SINCE,
    OOB_EDGE_TABLE,
    OOB_NODE_TABLE,
    SOURCE_TABLE,
    check_header,
    connect,
    parse_json,
    record_from_row,
    sql_errors,
    tables_at,
)

SQLITE_MAGIC = b"SQLite format 3\x00"


def precheck_file(path: str | os.PathLike[str]) -> bytes:
    """The first 100 bytes of ``path``; BattleFileError if missing, a directory or empty."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        raise BattleFileError(path, "no such file") from None
    except IsADirectoryError:
        raise BattleFileError(path, "is a directory, not a file") from None
    except OSError as exc:
        raise BattleFileError(path, f"cannot read: {exc.strerror or exc}") from None
    if not head:
        raise BattleFileError(path, "file is empty")
    return head


def load_database(path: str | os.PathLike[str], lazy_events: bool = False) -> Battle:
    """Read the ``.battle`` file ``path``.

    With ``lazy_events`` the battle's ``events`` are a ``RecordedEvents`` whose events are
    checked and built when first read (a bad one raises ``BattleFileError`` then); otherwise
    every event is checked and built here.

    Raises
    ------
    BattleFileError
        naming the file and what is wrong (see module docstring).
    """
    paused = gc.isenabled()
    gc.disable()  # reading makes no cycles; the collector would only rescan what is read
    try:
        return _load_database(path, lazy_events)
    finally:
        if paused:
            gc.enable()


def _load_database(path: str | os.PathLike[str], lazy_events: bool) -> Battle:
    head = precheck_file(path)
    if not head.startswith(SQLITE_MAGIC):
        hint = " (it looks like JSON: name it .battle.json)" if head.lstrip()[:1] in (b"{", b"[") else ""
        raise BattleFileError(path, f"not an SQLite database{hint}")
    mode = "rw" if os.access(path, os.W_OK) else "ro"  # rw lets SQLite roll back a crashed append
    doc: dict[str, Any] = {}
    conn = None
    try:
        with sql_errors(path, "damaged or unreadable .battle file"):
            conn = connect(os.fspath(path), mode)
            conn.execute("BEGIN")
            version = check_header(os.fspath(path), conn)
            sums = checksum.read(path, dict(conn.execute("SELECT key, value FROM meta").fetchall()))
            if sums is not None:  # before any row is used: damage is named, not loaded
                checksum.verify_tables(path, conn, sums, tables_at(version))
            read_document(conn, doc, version)
            events = read_events(conn, path, sums)
            stored = read_keyframes(conn, len(events)) if version >= KEYFRAMES_SINCE else []
            conn.execute("COMMIT")
        game = doc.pop("game", None)  # checked against the events, which the doc does not hold
        battle = battle_from_doc(doc)
        if game is not None:
            for key, value in game_from_doc(game, len(events)).items():
                setattr(battle, key, value)
        raise_for_places(events.heads(), battle.scenario, "events[{i}]")  # seq = index: no gaps
        battle.keyframes = [
            StoredKeyframe(pos, stored_keyframe_reader(path, seq, text, battle.scenario)) for seq, pos, text in stored
        ]
        if not lazy_events:
            events.build_all()  # a BattleFileError naming the row
        battle.events = events if lazy_events else list(events)
        return battle
    except DocumentError as err:
        raise BattleFileError(path, err.what, _table_where(err.where, doc)) from None
    finally:
        if conn is not None:
            conn.close()


def read_document(conn: Any, doc: dict[str, Any], version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """Fill ``doc`` with all tables of an open, checked .battle file of schema ``version``
    (``sqlite3`` connection with ``sqlite3.Row`` rows; values not yet checked; events:
    ``read_events``). A field added after ``version`` has no column and is left out (its default).

    Filling a caller's dict lets an error message name the row of a half-read document.
    """
    doc.update({"format": FORMAT, "schema_version": SCHEMA_VERSION})
    info_spec = INFO.at_version(version)
    info = conn.execute(f"SELECT {_columns(info_spec)} FROM {INFO_TABLE}").fetchall()
    if len(info) != 1:
        raise DocumentError("scenario_info", f"expected exactly one row, found {len(info)}")
    doc["info"] = record_from_row(info_spec, info[0], "info")
    for key, full in COLLECTIONS.items():
        spec = full.at_version(version)
        rows = conn.execute(f"SELECT {_columns(spec)} FROM {COLLECTION_TABLE_NAMES[key]} ORDER BY rowid")
        doc[key] = []
        for i, r in enumerate(rows):
            doc[key].append({"id": r["id"]})  # for the message if the row is bad
            doc[key][i] = record_from_row(spec, r, f"{key}[{i}]")
    source_spec = SOURCE.at_version(version)
    sources = conn.execute(f"SELECT {_columns(source_spec)} FROM {SOURCE_TABLE} ORDER BY seq")
    doc["sources"] = [record_from_row(source_spec, r, f"sources[{i}]") for i, r in enumerate(sources)]
    oob = OrderOfBattle()
    for seq, node in conn.execute(f"SELECT seq, id FROM {OOB_NODE_TABLE} ORDER BY seq"):
        oob.graph.add_node(_oob_id(node, f"{OOB_NODE_TABLE} seq={seq}.id"))
    for seq, sup, sub in conn.execute(f"SELECT seq, superior, subordinate FROM {OOB_EDGE_TABLE} ORDER BY seq"):
        where = f"{OOB_EDGE_TABLE} seq={seq}"
        oob.graph.add_edge(_oob_id(sup, f"{where}.superior"), _oob_id(sub, f"{where}.subordinate"))
    doc["oob"] = oob_to_doc(oob)
    if version >= GAME_SINCE:
        row = conn.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
        if row is not None:
            try:
                doc["game"] = json.loads(row[0])
            except (TypeError, ValueError) as exc:
                raise DocumentError("game", f"the meta row game is not valid JSON: {exc}") from None
    doc["events"] = []  # read_events
    return doc


def read_events(conn: Any, path: str | os.PathLike[str], sums: dict[str, Any] | None = None) -> RecordedEvents:
    """The events of an open, checked .battle file, their places checked, not yet built;
    with ``sums`` (the file's ``checksum`` record) the rows are checked against it first.

    Raises
    ------
    DocumentError
        for a row whose kind, turn, side or phase is bad (``event seq=N.turn``...), or when
        rows are missing: a save numbers the events 0 to n - 1 and appending goes on from the
        last, so a gap in ``seq`` is a deleted row (``event seq=100 to 200: missing``).
    """
    load_event_types()  # every installed ruleset's kinds, before the kind check below
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples, made in C
    kinds = event_kinds()
    columns = f"SELECT {checksum.EVENT_COLUMNS} FROM {EVENT_TABLE}"
    rest = cursor.execute(f"{columns} ORDER BY seq").fetchall()
    if sums is not None:  # damage is named as such before any row is read as an event
        checksum.verify_events(path, sums, rest)
    bad = cursor.execute(  # the places are checked by SQLite: no Python loop over the rows
        f"{columns} WHERE typeof(turn) != 'integer' OR typeof(side) != 'text' OR typeof(phase) != 'text' "
        f"OR kind IS NULL OR kind NOT IN ({', '.join('?' * len(kinds))}) ORDER BY seq LIMIT 1",
        list(kinds),
    ).fetchone()
    if bad is not None:
        event_from_doc(_event_doc(*bad), f"events[{bad[0]}]")  # raises its DocumentError
        raise DocumentError(f"events[{bad[0]}]", "bad kind, turn, side or phase")  # (not reached)
    if rest and (rest[0][0] != 0 or rest[-1][0] != len(rest) - 1):  # seq is the rowid: unique integers
        raise DocumentError(*_missing_seqs([r[0] for r in rest]))
    # (turn, side, phase), one tuple per phase shared by its events (and their texts by the
    # events built: sqlite3 makes new strings for every row): 4x faster than a second query
    shared: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    heads = [shared.setdefault(h, h) for h in [r[2:5] for r in rest]]
    return RecordedEvents(heads, rest, _event_builder(path, heads))


def read_keyframes(conn: Any, events: int) -> list[tuple[int, int, Any]]:
    """``(seq, position, state text)`` of each row of the ``keyframe`` table, by position (the
    text is read when the keyframe is used: ``store.keyframes.decode_state``).

    Raises
    ------
    DocumentError
        for a row whose position is not an event count of this game (0 to ``events``).
    """
    out = []
    for seq, pos, text in conn.execute(f"SELECT seq, position, state FROM {KEYFRAME_TABLE} ORDER BY position, seq"):
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos <= events:
            raise DocumentError(
                f"keyframe seq={seq}.position", f"expected an event count from 0 to {events}, got {pos!r}"
            )
        out.append((seq, pos, text))
    return out


def _missing_seqs(seqs: list[int]) -> tuple[str, str]:
    """``(where, what)`` of the first gap in the sorted event numbers ``seqs`` (which do not run
    0 to ``len(seqs) - 1``), counting every missing one."""
    gaps, expected = [], 0
    for s in seqs:
        if s != expected:
            gaps.append((expected, s - 1) if s > expected else (s, s))
        expected = s + 1
    lo, hi = gaps[0]
    missing = sum(b - a + 1 for a, b in gaps if b >= a)
    where = f"event seq={lo}" if lo == hi else f"event seq={lo} to {hi}"
    more = f" ({missing} rows missing in {len(gaps)} gaps)" if len(gaps) > 1 else ""
    return where, (
        f"missing{more}: the events must be numbered 0 to n - 1 without gaps, and a game with "
        "deleted events cannot be replayed"
    )


def _event_builder(
    path: str | os.PathLike[str], heads: Sequence[tuple[Any, ...]] | None = None
) -> Callable[[int, Any], BattleEvent]:
    """``build(i, row)`` for ``RecordedEvents``: the checked event of one event row, or a
    ``BattleFileError`` naming ``path``, the row (``event seq=N``) and the bad value. With
    ``heads`` (the rows' turn, side and phase, in row order) event ``i`` takes its texts from
    ``heads[i]`` (shared by a phase's events) instead of its row's copies."""

    def build(i: int, row: tuple[Any, ...]) -> BattleEvent:
        seq, kind, turn, side, phase, payload = row
        if heads is not None:
            turn, side, phase = heads[i]
        try:
            data = parse_json(payload, f"event seq={seq}.payload")
            if not isinstance(data, dict):
                raise DocumentError(f"event seq={seq}.payload", "expected a JSON object")
            if not data.keys().isdisjoint(_HEAD_KEYS):  # a payload overriding its columns: check all
                return event_from_doc(
                    {"kind": kind, "turn": turn, "side": side, "phase": phase, **data}, f"events[{seq}]"
                )
            data.update(kind=kind, turn=turn, side=side, phase=phase)
            try:
                return event_from_dict(data)
            except (ValueError, TypeError) as exc:
                raise DocumentError(f"events[{seq}]", str(exc)) from None
            except RecursionError:
                raise DocumentError(f"events[{seq}]", "nested too deeply") from None
        except DocumentError as err:
            raise BattleFileError(path, err.what, _table_where(err.where, {})) from None

    return build


_HEAD_KEYS = frozenset(("kind", "turn", "side", "phase"))


def _columns(spec: RecordSpec) -> str:
    """The columns of ``spec``'s table, named (a file missing one is an SQL error, not a gap)."""
    names = [column for name, codec in spec.fields for column in codec.columns(name)]
    return ", ".join(names)  # unquoted: SQLite reads an unknown quoted name as a string


def _oob_id(value: Any, where: str) -> str:
    """An order-of-battle node id read from a row: a non-empty text, else a DocumentError."""
    if not isinstance(value, str) or not value:
        raise DocumentError(where, f"expected a non-empty text id, got {value!r}")
    return value


def _event_doc(seq: int, kind: Any, turn: Any, side: Any, phase: Any, payload: Any) -> dict[str, Any]:
    data = parse_json(payload, f"event seq={seq}.payload")
    if not isinstance(data, dict):
        raise DocumentError(f"event seq={seq}.payload", "expected a JSON object")
    return {"kind": kind, "turn": turn, "side": side, "phase": phase, **data}


_PATH = re.compile(r"^(\w+)\[(\d+)\](.*)$")


def _table_where(where: str, doc: dict[str, Any]) -> str:
    """``units[3].facing`` → ``unit id='u-17'.facing``: name the row a user can find."""
    if where == "game" or where.startswith("game."):
        return "meta key='game'" + (": " + where.removeprefix("game.") if where != "game" else "")
    m = _PATH.match(where)
    if not m or m.group(1) not in COLLECTION_TABLE_NAMES and m.group(1) != "events":
        return where
    key, index, rest = m.group(1), int(m.group(2)), m.group(3)
    if key == "events":
        return f"event seq={index}{rest}"
    record = doc[key][index] if key in doc and index < len(doc[key]) else {}
    table = COLLECTION_TABLE_NAMES[key]
    return f"{table} id={record.get('id')!r}{rest}" if "id" in record else where
