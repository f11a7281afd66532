"""A ``.battle`` file is opened (or appended to) only when its schema is exactly BattleStudio's:
a trigger, a view, a generated column, a virtual table, an unknown table or column is refused
before any table is read, naming what was found (issue 27: a trigger emptied the order of
battle when a game was appended; a generated column took 1 GB to open)."""

from __future__ import annotations

import sqlite3

import pytest

from battlestudio import store
from battlestudio.replay.events import Annotation
from battlestudio.store import BattleFileError
from battlestudio.store.rows import SCHEMA_COLUMNS, secure


@pytest.fixture
def battle_file(tmp_path, jena):
    path = tmp_path / "jena.battle"
    store.save(jena, path)
    return path


def _sql(path, *statements):
    con = sqlite3.connect(path)
    for st in statements:
        con.execute(st)
    con.commit()
    con.close()


def _counts(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT (SELECT count(*) FROM unit), (SELECT count(*) FROM commander)").fetchone()
    finally:
        con.close()


@pytest.mark.parametrize(
    "statement,named",
    [
        (
            "CREATE TRIGGER wipe AFTER INSERT ON event BEGIN DELETE FROM unit; DELETE FROM commander; END",
            "trigger 'wipe' on 'event'",
        ),
        ("CREATE VIEW everything AS SELECT * FROM unit", "view 'everything'"),
        (
            "ALTER TABLE unit ADD COLUMN big TEXT GENERATED ALWAYS AS (hex(zeroblob(1000))) VIRTUAL",
            "generated column unit.big",
        ),
        ("CREATE TABLE notes (x)", "table 'notes'"),
        ("ALTER TABLE side ADD COLUMN extra TEXT", "unknown column side.extra"),
        ("CREATE INDEX ix_mine ON unit (name)", "index 'ix_mine' on 'unit'"),
    ],
)
def test_foreign_schema_refused_on_open_and_append(battle_file, jena, statement, named):
    _sql(battle_file, statement)
    before = _counts(battle_file)
    with pytest.raises(BattleFileError) as info:
        store.load(battle_file)
    msg = str(info.value)
    assert msg.startswith(f"{battle_file}: not opened: the file's schema is not BattleStudio's (")
    assert named in msg, msg
    with pytest.raises(BattleFileError, match="schema is not BattleStudio's"):
        store.append_events(battle_file, [Annotation(turn=1, side="", phase="", text="note")])
    assert _counts(battle_file) == before  # the trigger never ran: the order of battle is whole


def test_virtual_table_refused(battle_file):
    made = ""
    for module in ("fts5(name)", "fts4(name)", "fts3(name)", "rtree(id, x0, x1)"):  # whichever this SQLite has
        try:
            _sql(battle_file, f"CREATE VIRTUAL TABLE search USING {module}")
        except sqlite3.OperationalError:
            continue
        made = module
        break
    assert made, "this SQLite builds none of fts5, fts4, fts3, rtree: no virtual table can be made to refuse"
    with pytest.raises(BattleFileError, match=r"virtual table 'search'"):
        store.load(battle_file)


def test_column_of_another_type_refused(tmp_path, battle_file):
    _sql(battle_file, "ALTER TABLE unit RENAME TO unit_old")
    cols = ", ".join(f"{c} {'TEXT' if c == 'men' else t}" for c, t in SCHEMA_COLUMNS["unit"].items())
    _sql(battle_file, f"CREATE TABLE unit ({cols})", "INSERT INTO unit SELECT * FROM unit_old", "DROP TABLE unit_old")
    with pytest.raises(BattleFileError, match=r"column unit.men of type TEXT \(expected INTEGER\)"):
        store.load(battle_file)


def test_saved_schema_is_the_known_one(battle_file):
    """``SCHEMA_COLUMNS`` is what ``store.save`` writes (keeps the check current with ``tables``)."""
    con = sqlite3.connect(battle_file)
    found = {
        n: {r[1]: r[2] for r in con.execute(f'PRAGMA table_xinfo("{n}")')}
        for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    con.close()
    assert found == SCHEMA_COLUMNS
    assert store.load(battle_file).scenario.units  # and it opens


def test_trusted_schema_off():
    con = secure(sqlite3.connect(":memory:"))
    assert con.execute("PRAGMA trusted_schema").fetchone()[0] == 0
