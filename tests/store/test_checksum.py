"""Content checksums in a ``.battle`` file (issue 27): damage is named by table, not loaded;
appending keeps them current block by block; files saved before checksums still open."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from battlestudio import store
from battlestudio.replay.events import BattleEvent
from battlestudio.store import BattleFileError, checksum
from tests.store.conftest import jena_battle


def _sql(path, *statements, params=()):
    con = sqlite3.connect(path)
    for s in statements:
        con.execute(s, params) if params else con.execute(s)
    con.commit()
    con.close()


def _meta(path) -> dict:
    con = sqlite3.connect(path)
    try:
        return json.loads(con.execute("SELECT value FROM meta WHERE key = 'checksums'").fetchone()[0])
    finally:
        con.close()


def _load_error(path) -> str:
    with pytest.raises(BattleFileError) as err:
        store.load(path)
    return str(err.value)


@pytest.fixture
def saved(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    return p


def test_a_save_writes_one_checksum_per_table_and_the_event_blocks(saved, jena):
    sums = _meta(saved)
    con = sqlite3.connect(saved)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    columns = [r[1] for r in con.execute("PRAGMA table_info(meta)")]
    con.close()
    assert columns == ["key", "value"]  # a row of the existing key/value table, no new column
    assert set(sums["tables"]) == tables - {"event"}
    assert sums["event"]["rows"] == len(jena.events) and len(sums["event"]["blocks"]) == 1
    assert store.load(saved).events == jena.events


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        ("UPDATE unit SET figures = figures + 1 WHERE rowid = 2", "table unit"),
        ("UPDATE unit SET position_x = position_x + 1e-9 WHERE rowid = 1", "table unit"),
        ("UPDATE side SET name = 'Preußen ' WHERE rowid = 1", "table side"),
        ("UPDATE commander SET echelon = 'army' WHERE rowid = 2", "table commander"),
        ("DELETE FROM terrain WHERE rowid = 1", "table terrain"),
        ("UPDATE oob_edge SET subordinate = superior WHERE seq = 0", "table oob_edge"),
        ("UPDATE scenario_info SET turns = 99", "table scenario_info"),
        ("UPDATE meta SET value = '0.0.1' WHERE key = 'app_version'", "table meta"),
        ("UPDATE event SET payload = replace(payload, 'Closewitz', 'X') WHERE seq = 5", "table event, seq 0 to 5"),
        ("DELETE FROM event WHERE seq = 5", "table event (5 rows, the checksum counts 6)"),
    ],
)
def test_a_changed_row_is_named_by_its_table_and_not_loaded(saved, sql, table):
    _sql(saved, sql)
    msg = _load_error(saved)
    assert msg.startswith(f"{saved}: {table}: damaged or changed outside BattleStudio"), msg
    assert "not opened" in msg


def test_a_changed_value_that_would_pass_every_check_is_still_caught(saved):
    # one flipped digit of a position stays in range: only the checksum can tell
    _sql(saved, "UPDATE unit SET position_x = 61.0 WHERE rowid = 1")
    assert "table unit: damaged" in _load_error(saved)


def test_unreadable_checksums_are_named(saved):
    _sql(saved, "UPDATE meta SET value = '{\"version\": 1}' WHERE key = 'checksums'")
    assert "meta key='checksums': damaged: the checksums are not readable" in _load_error(saved)


def test_a_file_saved_before_checksums_opens_and_appends(saved, jena):
    _sql(saved, "DELETE FROM meta WHERE key = 'checksums'")
    assert store.load(saved).events == jena.events
    assert store.append_events(saved, [BattleEvent(3, "french", "command")]) == len(jena.events) + 1
    assert store.load(saved).events[-1] == BattleEvent(3, "french", "command")
    con = sqlite3.connect(saved)
    assert con.execute("SELECT count(*) FROM meta WHERE key = 'checksums'").fetchone()[0] == 0
    con.close()
    store.save(store.load(saved), saved)  # the next save adds them
    assert _meta(saved)["event"]["rows"] == len(jena.events) + 1


def test_appending_keeps_the_checksum_current_across_blocks(tmp_path, monkeypatch, jena):
    monkeypatch.setattr(checksum, "EVENT_BLOCK", 4)  # 6 events: blocks 0-3, 4-5
    p = tmp_path / "a.battle"
    store.save(jena, p)
    first = _meta(p)["event"]["blocks"]
    assert len(first) == 2
    new = [BattleEvent(2, "prussian", "command"), BattleEvent(2, "prussian", "movement")]
    new.append(BattleEvent(3, "french", "command"))
    store.append_events(p, new)  # 9 events: the last block rehashed, a new one begun
    sums = _meta(p)
    assert sums["event"]["rows"] == 9 and len(sums["event"]["blocks"]) == 3
    assert sums["event"]["blocks"][0] == first[0]  # the full block is not read again
    assert sums["event"]["blocks"][1] != first[1]
    assert store.load(p).events == jena.events + new
    # equal to what a whole save computes
    store.save(store.load(p), tmp_path / "b.battle")
    assert _meta(tmp_path / "b.battle")["event"] == sums["event"]


def test_appending_to_a_file_whose_last_events_were_changed_is_refused(saved, monkeypatch):
    monkeypatch.setattr(checksum, "EVENT_BLOCK", 4)
    store.save(store.load(saved), saved)  # blocks 0-3, 4-5 (the size read from the file)
    assert _meta(saved)["event"]["block"] == 4
    before = saved.read_bytes()
    _sql(saved, "UPDATE event SET turn = 2 WHERE seq = 5")
    changed = saved.read_bytes()
    with pytest.raises(BattleFileError) as err:
        store.append_events(saved, [BattleEvent(3, "french", "command")])
    assert "table event, seq 4 to 5: damaged" in str(err.value)
    assert saved.read_bytes() == changed != before  # nothing appended, nothing blessed


def test_appending_to_a_file_with_rows_added_outside_is_refused(saved, jena):
    _sql(
        saved,
        "INSERT INTO event (seq, turn, side, phase, kind, payload) VALUES (6, 2, 'french', 'command', 'base', '{}')",
    )
    with pytest.raises(BattleFileError) as err:
        store.append_events(saved, [BattleEvent(3, "french", "command")])
    assert "the file holds 7 events, its checksum counts 6" in str(err.value)


def test_a_copy_of_a_file_keeps_its_checksums_valid(saved, tmp_path):
    copy = tmp_path / "copy.battle"
    shutil.copyfile(saved, copy)
    _sql(copy, "VACUUM")  # rowids may be renumbered; the rows' order and values are what count
    assert store.load(copy).scenario == store.load(saved).scenario


def test_the_checksum_is_the_same_for_the_same_content():
    a, b = jena_battle(), jena_battle()
    assert a == b
    rows = [(0, "x", 1, "s", "p", "{}"), (1, "y", 1.0, "s", None, b"\x00")]
    assert checksum.rows_digest(rows) != checksum.rows_digest([(0, "x", "1", "s", "p", "{}"), rows[1]])
    assert checksum.rows_digest(rows) == checksum.rows_digest(list(rows))
