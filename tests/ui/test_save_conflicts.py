"""Saving never overwrites another writer's work unasked (issue 27), through the window: two
windows on one file (the second Save asks: Reload, Save As…, Overwrite, Cancel), recording into
a ``.battle`` another program replaced (refused, Save As offered), a read-only file (asked
before it is replaced), a symlink (its target is written), a FIFO (refused at once on open)."""

from __future__ import annotations

import os
import shutil
import stat
import time
from dataclasses import replace

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from battlestudio import store
from battlestudio.edits import MoveRecords
from battlestudio.play.document import PlayDocument
from battlestudio.store.journal import journal_path
from battlestudio.ui import dialogs
from tests.ui.test_play_discard import _record_two_phases, jena88  # noqa: F401 - the fixture
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

B = QMessageBox.StandardButton


@pytest.fixture
def battle(tmp_path):
    """A copy of the bundled Elchingen 1805 battle to edit."""
    path = tmp_path / "elchingen.battle.json"
    shutil.copy(ELCHINGEN, path)
    return path


def _move(window, uid: str, to: tuple[float, float]) -> None:
    window.document.push(MoveRecords("units", {uid: to}, None, "Move"))


def _two_windows_edit_and_save(qtbot, tmp_path, battle):
    """Window A and B open ``battle``; A moves the first unit and saves; B moves the second."""
    a = make_window(qtbot, tmp_path / "a", show=False)
    b = make_window(qtbot, tmp_path / "b", show=False)
    assert a.files.open_path(battle) and b.files.open_path(battle)
    first, second = sorted(a.document.scenario.units)[:2]
    _move(a, first, (50.0, 40.0))
    a.actions["save"].trigger()
    assert not a.document.is_modified
    _move(b, second, (60.0, 45.0))
    return a, b, first, second


def test_second_window_save_asks_and_cancel_keeps_the_first_windows_work(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    a, b, first, second = _two_windows_edit_and_save(qtbot, tmp_path, battle)
    saved_by_a = battle.read_bytes()
    modal.choice_answer = "Cancel"
    b.actions["save"].trigger()
    asked = modal.of("choice")
    assert len(asked) == 1 and asked[0][1] == "File changed on disk"
    assert asked[0][2].startswith("“elchingen.battle.json” was replaced by another file (modified ")
    assert battle.read_bytes() == saved_by_a  # A's move is still in the file
    assert b.document.is_modified and b.isWindowModified()
    assert store.load(battle).scenario.units[first].position == (50.0, 40.0)


def test_second_window_overwrite_replaces_and_a_third_save_asks_no_more(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    a, b, first, second = _two_windows_edit_and_save(qtbot, tmp_path, battle)
    modal.choice_answer = "Overwrite"
    b.actions["save"].trigger()
    assert len(modal.of("choice")) == 1 and not b.document.is_modified
    on_disk = store.load(battle).scenario
    assert on_disk.units[second].position == (60.0, 45.0)  # B's version, as the user chose
    assert on_disk.units[first].position != (50.0, 40.0)
    _move(b, first, (30.0, 30.0))
    b.actions["save"].trigger()  # B's own save since: nothing to ask
    assert len(modal.of("choice")) == 1 and store.load(battle).scenario.units[first].position == (30.0, 30.0)
    _move(a, first, (20.0, 20.0))
    modal.choice_answer = "Cancel"
    a.actions["save"].trigger()  # now A is the one behind
    assert len(modal.of("choice")) == 2 and a.document.is_modified


def test_second_window_save_as_keeps_both_versions(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    a, b, first, second = _two_windows_edit_and_save(qtbot, tmp_path, battle)
    saved_by_a = battle.read_bytes()
    modal.choice_answer = "Save As…"
    modal.save_name = str(tmp_path / "elchingen-b.battle.json")
    b.actions["save"].trigger()
    assert battle.read_bytes() == saved_by_a
    mine = store.load(tmp_path / "elchingen-b.battle.json").scenario
    assert mine.units[second].position == (60.0, 45.0) and mine.units[first].position != (50.0, 40.0)
    assert b.document.path == tmp_path / "elchingen-b.battle.json" and not b.document.is_modified


def test_second_window_reload_shows_the_first_windows_save(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    a, b, first, second = _two_windows_edit_and_save(qtbot, tmp_path, battle)
    saved_by_a = battle.read_bytes()
    modal.choice_answer = "Reload"
    b.actions["save"].trigger()
    assert battle.read_bytes() == saved_by_a
    assert b.document.scenario.units[first].position == (50.0, 40.0)  # A's move, read again
    assert b.document.scenario.units[second].position != (60.0, 45.0)  # B's dropped, as chosen
    assert not b.document.is_modified
    assert modal.of("question") == []  # the choice said it drops the changes: not asked twice


def test_a_touch_or_same_bytes_is_no_conflict(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, show=False)
    assert w.files.open_path(battle)
    later = time.time_ns() + 3_000_000_000
    os.utime(battle, ns=(later, later))
    _move(w, sorted(w.document.scenario.units)[0], (50.0, 40.0))
    w.actions["save"].trigger()
    assert modal.of("choice") == [] and not w.document.is_modified


def test_close_with_changes_after_another_save_asks_again_before_overwriting(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    a, b, first, second = _two_windows_edit_and_save(qtbot, tmp_path, battle)
    saved_by_a = battle.read_bytes()
    modal.question_answer = B.Save  # "Unsaved changes": Save
    modal.choice_answer = "Cancel"  # ... but not over A's save
    assert not b.close()
    assert [c[1] for c in modal.calls] == ["Unsaved changes", "File changed on disk"]
    assert battle.read_bytes() == saved_by_a and b.document.is_modified


def test_recording_into_a_replaced_battle_is_refused_and_save_as_keeps_the_game(
    qtbot,
    tmp_path,
    monkeypatch,
    jena88,  # noqa: F811 - the fixture
):
    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(jena88, ask=False)
    other = store.load(jena88)  # another program puts a battle without one unit there, same 88 events
    gone = sorted(other.scenario.units)[-1]
    del other.scenario.units[gone]
    other.scenario.oob.graph.remove_node(gone)
    other.scenario.info = replace(other.scenario.info, title="Another Jena")
    store.save(other, tmp_path / "other.battle")
    os.replace(tmp_path / "other.battle", jena88)
    replaced = jena88.read_bytes()
    doc, _ = _record_two_phases_opened(qtbot, w, jena88)
    assert not journal_path(jena88).exists()  # nothing added beside another game
    assert jena88.read_bytes() == replaced
    warned = [c for c in modal.of("warning") if c[1] == "File changed by another program"]
    assert len(warned) == 1, modal.calls
    assert "jena88.battle: the file was replaced by another file" in warned[0][2]
    assert "Save the game under another name now?" in warned[0][2]
    assert doc.is_modified
    recorded = list(doc.log.events)
    modal.choice_answer = "Save As…"
    modal.save_name = str(tmp_path / "jena88-mine.battle")
    w.actions["save"].trigger()
    assert [c[1] for c in modal.of("choice")] == ["File changed on disk"]
    assert jena88.read_bytes() == replaced  # the other program's file, untouched
    assert store.load(tmp_path / "jena88-mine.battle").events == recorded
    assert not doc.is_modified and doc.path == tmp_path / "jena88-mine.battle"


def _record_two_phases_opened(qtbot, w, path):
    """``_record_two_phases`` on a window that has ``path`` open already (opening it again
    would take the new file's identity)."""
    monkey_open = w.files.open_path
    w.files.open_path = lambda p, ask=True: True  # type: ignore[method-assign] - already open
    try:
        return _record_two_phases(qtbot, w, path)
    finally:
        w.files.open_path = monkey_open  # type: ignore[method-assign]


def test_read_only_file_is_replaced_only_when_the_user_says_so(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, show=False)
    assert w.files.open_path(battle)
    battle.chmod(0o444)
    before = battle.read_bytes()
    uid = sorted(w.document.scenario.units)[0]
    _move(w, uid, (50.0, 40.0))
    modal.question_answer = B.Cancel
    w.actions["save"].trigger()
    asked = modal.of("question")
    assert [c[1] for c in asked] == ["Replace a read-only file?"] and f"{battle} is read-only" in asked[0][2]
    assert battle.read_bytes() == before and w.document.is_modified
    modal.question_answer = B.Save
    w.actions["save"].trigger()
    assert store.load(battle).scenario.units[uid].position == (50.0, 40.0)
    assert stat.S_IMODE(battle.stat().st_mode) == 0o444 and not w.document.is_modified
    assert modal.of("critical") == []


def test_save_through_a_symlink_writes_its_target(qtbot, tmp_path, monkeypatch, battle):
    modal = ModalRecorder(monkeypatch)
    link = tmp_path / "link.battle.json"
    link.symlink_to(battle)
    w = make_window(qtbot, tmp_path, show=False)
    assert w.files.open_path(link)
    uid = sorted(w.document.scenario.units)[0]
    _move(w, uid, (50.0, 40.0))
    w.actions["save"].trigger()
    assert modal.calls == [] and link.is_symlink() and link.resolve() == battle
    assert store.load(battle).scenario.units[uid].position == (50.0, 40.0)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".json")) == [
        "elchingen.battle.json",
        "link.battle.json",
    ]


def test_opening_a_fifo_is_refused_at_once_naming_it(qtbot, tmp_path, monkeypatch):
    modal = ModalRecorder(monkeypatch)
    fifo = tmp_path / "pipe.battle"
    os.mkfifo(fifo)
    w = make_window(qtbot, tmp_path, show=False)
    t = time.perf_counter()
    assert not w.files.open_path(fifo)
    assert time.perf_counter() - t < 2
    (error,) = modal.of("critical")
    assert error[1] == "Could not open file" and f"{fifo}: not a regular file" in error[2]


def test_the_file_changed_question_has_its_four_buttons(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path, show=False)
    seen: list[list[str]] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append([btn.text() for btn in box.buttons()])
        next(btn for btn in box.buttons() if btn.text() == "Save As…").click()

    QTimer.singleShot(0, answer)
    assert dialogs.ask_file_changed(w, "x.battle", "was changed by another program") == "save_as"
    assert sorted(seen[0]) == sorted(["Reload", "Save As…", "Overwrite", "Cancel"])
    QTimer.singleShot(0, lambda: QApplication.activeModalWidget().reject())
    assert dialogs.ask_file_changed(w, "x.battle", "was deleted or moved away") == "cancel"


def test_a_window_of_a_recording_shares_the_files_identity(qtbot, tmp_path, monkeypatch, jena88):  # noqa: F811
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, show=False)
    assert w.files.open_path(jena88, ask=False)
    base = w.document
    w.play_view.start_game()
    assert isinstance(w.document, PlayDocument) and w.document.disk is base.disk is not None
