"""Opening a ``.battle`` file changed outside BattleStudio (issue 27, content checksums): the
window refuses it with a message naming the file and the table, and keeps the open document;
a file saved before checksums opens, and the window's next save protects it."""

from __future__ import annotations

import copy
import sqlite3

import pytest

from battlestudio import store
from battlestudio.edits import MoveRecords
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


@pytest.fixture
def modals(monkeypatch) -> ModalRecorder:
    return ModalRecorder(monkeypatch)


@pytest.fixture
def window(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    return w


def _sql(path, statement):
    con = sqlite3.connect(path)
    con.execute(statement)
    con.commit()
    con.close()


def test_a_battle_file_changed_outside_is_refused_naming_the_table(window, modals, tmp_path):
    damaged = tmp_path / "elchingen.battle"
    store.save(store.load(ELCHINGEN), damaged)
    _sql(damaged, "UPDATE unit SET figures = 30 WHERE rowid = 1")  # a value every other check accepts
    uid = next(iter(window.document.scenario.units))
    window.document.push(MoveRecords("units", {uid: (61.0, 61.0)}, None, "Move"))
    before_doc, before = window.document, copy.deepcopy(window.document.scenario)
    assert not window.files.open_path(damaged)
    errors = modals.of("critical")
    assert len(errors) == 1
    text = errors[0][2]
    assert str(damaged) in text and "table unit" in text and "damaged or changed outside BattleStudio" in text
    assert window.document is before_doc and window.document.scenario == before and window.isWindowModified()


def test_a_file_saved_before_checksums_opens_and_is_saved_with_them(window, modals, tmp_path):
    old = tmp_path / "old.battle"
    store.save(store.load(ELCHINGEN), old)
    _sql(old, "DELETE FROM meta WHERE key = 'checksums'")
    assert window.files.open_path(old)
    assert modals.of("critical") == []
    uid = next(iter(window.document.scenario.units))
    window.document.push(MoveRecords("units", {uid: (62.0, 58.0)}, None, "Move"))
    window.actions["save"].trigger()
    assert modals.of("critical") == []
    con = sqlite3.connect(old)
    assert con.execute("SELECT count(*) FROM meta WHERE key = 'checksums'").fetchone()[0] == 1
    con.close()
    assert store.load(old).scenario.units[uid].position == (62.0, 58.0)
