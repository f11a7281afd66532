"""Battles on a club server: ``serve_init``, ``publish``, ``load_club`` and ``fetch``.

A published battle's rows are the rows a ``.battle`` file holds (``database_write``'s row
builders), copied with ``COPY``; reading goes back through ``database_read.read_document`` and
the document codec, so a value from the server is checked exactly as one from a file.
"""

from __future__ import annotations

import gc
import json
import os
from typing import Any

from psycopg import sql

from battlestudio import __version__
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import event_kinds
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.store.club import HIDDEN_POSITIONS, ClubError, ClubURL, ScenarioLocked
from battlestudio.store.club.schema import (
    battle_schema,
    create_battle_schema,
    create_club_schema,
    ensure_player_roles,
)
from battlestudio.store.club.server import as_url, club_errors, connect
from battlestudio.store.codec import COLLECTIONS, FORMAT, INFO, SCHEMA_VERSION, SOURCE, battle_to_doc
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.rows import COLLECTION_TABLE_NAMES, SCHEMA_COLUMNS


def serve_init(url: str | ClubURL) -> None:
    """See ``store.club.serve_init``."""
    import psycopg.errors

    u = as_url(url)
    with connect(u) as conn:
        try:
            with club_errors(u):
                create_club_schema(conn)
        except ClubError as err:
            if not isinstance(err.__context__, psycopg.errors.InsufficientPrivilege):
                raise
            raise ClubError(
                u.shown,
                f"serve-init needs a login that may create schemas and roles on this database (its owner with "
                f"CREATEROLE, or a superuser): {err.__context__.diag.message_primary or err.__context__}",
            ) from None


def require_club(conn: Any, u: ClubURL) -> None:
    """ClubError unless ``serve_init`` has run on this database."""
    with club_errors(u):
        found = conn.execute("SELECT to_regclass('club.battle') IS NOT NULL").fetchone()[0]
    if not found:
        raise ClubError(
            u.shown, f"not a club database: no club tables; run battlestudio serve-init {u.shown.split('?')[0]}"
        )


def battle_row(conn: Any, u: ClubURL, *, lock: bool = False) -> tuple[int, str, int, bool]:
    """``(id, status, next_seq, hidden_positions)`` of ``u``'s battle, or a ClubError."""
    if u.battle is None:
        raise ClubError(u.shown, "no battle in the URL: add ?battle=N (battlestudio publish prints N)")
    require_club(conn, u)
    with club_errors(u):
        row = conn.execute(
            "SELECT id, status, next_seq, hidden_positions FROM club.battle WHERE id = %s"
            + (" FOR UPDATE" if lock else ""),
            (u.battle,),
        ).fetchone()
        if row is None:
            known = [str(r[0]) for r in conn.execute("SELECT id FROM club.battle ORDER BY id LIMIT 20")]
            listed = ", ".join(known) or "none yet: battlestudio publish FILE URL"
            raise ClubError(u.shown, f"no battle {u.battle} on this server (battles: {listed})")
    return int(row[0]), str(row[1]), int(row[2]), bool(row[3])


def _rows_of(battle: Battle, where: str) -> tuple[dict[str, Any], dict[str, list[tuple[Any, ...]]]]:
    """The document of ``battle`` and, per table, its rows as tuples in ``SCHEMA_COLUMNS`` order."""
    from battlestudio.store.database import row_from_record
    from battlestudio.store.database_write import _oob_rows, _row_of
    from battlestudio.store.game_doc import GAME_SINCE, game_to_doc

    try:
        doc = battle_to_doc(Battle(battle.scenario, []))
        game = game_to_doc(battle)
        if game is not None:
            doc["game"] = game
            doc["schema_version"] = max(int(doc["schema_version"]), GAME_SINCE)
        events = [_row_of(battle.events, i) for i in range(len(battle.events))]
    except DocumentError as err:
        raise BattleFileError(where, f"{err.what} (not published)", err.where) from None
    tables: dict[str, list[dict[str, Any]]] = {}
    meta = {"format": FORMAT, "schema_version": str(doc["schema_version"]), "app_version": __version__}
    if doc.get("game") is not None:
        meta["game"] = json.dumps(doc["game"], ensure_ascii=False, allow_nan=False, sort_keys=True)
    tables["meta"] = [{"key": k, "value": v} for k, v in meta.items()]
    tables["scenario_info"] = [{"id": 1, **row_from_record(INFO, doc["info"])}]
    for key, spec in COLLECTIONS.items():
        tables[COLLECTION_TABLE_NAMES[key]] = [row_from_record(spec, r) for r in doc[key]]
    tables["source"] = [{"seq": i, **row_from_record(SOURCE, s)} for i, s in enumerate(doc["sources"])]
    tables["oob_node"], tables["oob_edge"] = _oob_rows(doc["oob"])
    tables["event"] = events
    out = {name: [tuple(r[c] for c in SCHEMA_COLUMNS[name]) for r in rows] for name, rows in tables.items()}
    return doc, out


def publish(path: str | os.PathLike[str], url: str | ClubURL) -> int:
    """See ``store.club.publish``."""
    from battlestudio import store

    u = as_url(url)
    battle = store.load(path)
    return publish_battle(battle, u, os.fspath(path))


def publish_battle(battle: Battle, u: ClubURL, where: str = "battle") -> int:
    """Publish ``battle`` (see ``publish``); ``where`` names it in errors."""
    doc, tables = _rows_of(battle, where)
    hidden = bool(battle.scenario.info.parameters.get(HIDDEN_POSITIONS, False) is True)
    status = "running" if battle.events else "setup"
    with connect(u) as conn, club_errors(u):
        require_club(conn, u)
        if u.battle is None:
            row = conn.execute(
                "INSERT INTO club.battle (title, next_seq, hidden_positions) VALUES (%s, %s, %s) RETURNING id",
                (battle.scenario.info.title, len(battle.events), hidden),
            ).fetchone()
            assert row is not None  # RETURNING gives the row
            battle_id = int(row[0])
        else:
            battle_id, old_status, _n, _h = battle_row(conn, u, lock=True)
            if old_status == "running":
                raise ScenarioLocked(
                    u.shown, f"battle {battle_id}'s game is running: it cannot be republished until the game ends"
                )
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(battle_schema(battle_id))))
            for table in ("claim", "phase_close", "action"):
                conn.execute(
                    sql.SQL("DELETE FROM club.{} WHERE battle = %s").format(sql.Identifier(table)), (battle_id,)
                )
            conn.execute(
                "UPDATE club.battle SET title = %s, status = 'setup', next_seq = %s, hidden_positions = %s, "
                "published_by = current_user, published_at = now() WHERE id = %s",
                (battle.scenario.info.title, len(battle.events), hidden, battle_id),
            )
        ensure_player_roles(conn, sorted(battle.scenario.sides))
        schema = battle_schema(battle_id)
        create_battle_schema(conn, battle_id, list(SCHEMA_COLUMNS))
        cur = conn.cursor()
        for name, rows in tables.items():
            if not rows:
                continue
            cols = list(SCHEMA_COLUMNS[name])
            statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                sql.Identifier(schema, name), sql.SQL(", ").join(sql.Identifier(c) for c in cols)
            )
            with cur.copy(statement) as copy:
                for r in rows:
                    copy.write_row(r)
        conn.execute(
            "UPDATE club.battle SET status = %s WHERE id = %s", (status, battle_id)
        )  # after the rows: the lock
        conn.execute("SELECT pg_notify(%s, %s)", (f"battle_{battle_id}", "published"))
    return battle_id


class _Row(tuple[Any, ...]):
    """A row readable by position and by column name (as ``sqlite3.Row``)."""

    names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names[key])
        return tuple.__getitem__(self, key)


def _row_factory(cursor: Any) -> Any:
    desc = cursor.description or []
    names = {d.name: i for i, d in enumerate(desc)}
    cls = type("Row", (_Row,), {"names": names})

    def make(values: Any) -> Any:
        return cls(values)

    return make


class _Reader:
    """What ``read_document`` needs of a connection (``execute`` returning rows that read by
    name and by position), on a psycopg connection whose search_path is the battle's schema;
    SQLite's ``ORDER BY rowid`` (insertion order: sorted by id) reads as ``ORDER BY id COLLATE "C"``."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, query: str, params: Any = None) -> Any:
        query = query.replace("ORDER BY rowid", 'ORDER BY id COLLATE "C"')
        cur = self.conn.cursor(row_factory=_row_factory)
        return cur.execute(query, params)


def read_battle(conn: Any, u: ClubURL, battle_id: int) -> Battle:
    """The checked Battle of ``battle_id`` read on ``conn`` (in a repeatable-read transaction
    the caller opened), named ``u`` in errors."""
    from battlestudio.rules import load_event_types
    from battlestudio.store.database_read import _event_builder, _table_where, read_document
    from battlestudio.store.event_places import raise_for_places
    from battlestudio.store.game_doc import game_from_doc
    from battlestudio.store.codec import battle_from_doc

    schema = battle_schema(battle_id)
    doc: dict[str, Any] = {}
    with club_errors(u):
        conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(schema)))
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        try:
            version = int(meta.get("schema_version", ""))
        except ValueError:
            raise ClubError(
                u.shown, f"bad schema version {meta.get('schema_version')!r} in battle {battle_id}'s meta table"
            ) from None
        if meta.get("format") != FORMAT or not 1 <= version <= SCHEMA_VERSION:
            raise ClubError(
                u.shown,
                f"battle {battle_id} was published by another BattleStudio (format {meta.get('format')!r}, schema "
                f"version {version}; this one reads up to {SCHEMA_VERSION}): update BattleStudio",
            )
        try:
            read_document(_Reader(conn), doc, version)
            load_event_types()
            rows = conn.execute("SELECT seq, kind, turn, side, phase, payload FROM event ORDER BY seq").fetchall()
            _check_events(rows)
            game = doc.pop("game", None)
            battle = battle_from_doc(doc)
            events = RecordedEvents([r[2:5] for r in rows], rows, _event_builder(u.shown))
            if game is not None:
                for key, value in game_from_doc(game, len(events)).items():
                    setattr(battle, key, value)
            raise_for_places(events.heads(), battle.scenario, "events[{i}]")
            events.build_all()
            battle.events = list(events)
            return battle
        except DocumentError as err:
            raise ClubError(u.shown, err.what, _table_where(err.where, doc)) from None
        except BattleFileError as err:
            if isinstance(err, ClubError):
                raise
            raise ClubError(u.shown, err.what, err.where) from None


def _check_events(rows: list[Any]) -> None:
    """DocumentError for an event row of an unknown kind or a gap in the seqs (as a file's)."""
    from battlestudio.store.database_read import _missing_seqs
    from battlestudio.store.codec import event_from_doc
    from battlestudio.store.rows import parse_json

    kinds = event_kinds()
    for seq, kind, turn, side, phase, payload in rows:
        if kind not in kinds:
            data = parse_json(payload, f"event seq={seq}.payload")
            event_from_doc({"kind": kind, "turn": turn, "side": side, "phase": phase, **data}, f"events[{seq}]")
            raise DocumentError(f"events[{seq}].kind", f"unknown event kind {kind!r}")
    if rows and (rows[0][0] != 0 or rows[-1][0] != len(rows) - 1):
        raise DocumentError(*_missing_seqs([r[0] for r in rows]))


def load_club(url: str | ClubURL) -> Battle:
    """See ``store.club.load_club``."""
    u = as_url(url)
    paused = gc.isenabled()
    gc.disable()
    try:
        with connect(u) as conn, club_errors(u):
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            battle_id, _status, next_seq, _hidden = battle_row(conn, u)
            _refuse_partial_view(conn, u, battle_id, next_seq)
            return read_battle(conn, u, battle_id)
    finally:
        if paused:
            gc.enable()


def _refuse_partial_view(conn: Any, u: ClubURL, battle_id: int, next_seq: int) -> None:
    """ClubError when row-level security hides part of the battle from this login (a player's
    own side only, a spectator while the game runs): a part of a battle is not a battle."""
    schema = battle_schema(battle_id)
    with club_errors(u):
        whole = conn.execute(
            sql.SQL(
                "SELECT (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user) "
                "OR pg_has_role((SELECT tableowner FROM pg_tables WHERE schemaname = %s AND tablename = 'unit'), "
                "'MEMBER') "
                "OR coalesce((SELECT bool_and(club.can_see(%s, id)) FROM {}.side), true)"
            ).format(sql.Identifier(schema)),
            (schema, battle_id),
        ).fetchone()[0]
    if not whole:
        raise ClubError(
            u.shown,
            f"this login sees part of battle {battle_id} only (a player sees their own side, a spectator "
            "nothing while the game runs): a whole battle is read by an umpire, or by a spectator after the game",
        )


def fetch(url: str | ClubURL, path: str | os.PathLike[str]) -> Battle:
    """See ``store.club.fetch``."""
    from battlestudio import store

    battle = load_club(url)
    store.save(battle, path)
    return battle
