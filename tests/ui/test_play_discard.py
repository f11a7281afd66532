"""Recording semantics of a ``.battle`` file through the window: the file is written only on
Save. Closing without saving and answering Discard leaves it byte for byte as it was opened
(the phases closed meanwhile were in its journal, which goes too); Save writes every event and
removes the journal; a journal left by an editor that died is offered on the next open; Undo
(Ctrl+Z) after Next Phase reopens the phase and takes its move back.

The file is the first 88 events of the bundled Jena 1806 game (turn 2 under way), converted to
``.battle`` with ``battlestudio convert``, with the engine's names for its Table 1 placeholders.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMessageBox

from battlestudio import store
from battlestudio.cli import main as cli
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.store.journal import journal_path, read_journal
from tests.ui.test_play_record import ENGINE, JENA, _unit_on_table
from tests.ui.window_helpers import ModalRecorder, drag, make_window, px


@pytest.fixture
def jena88(tmp_path):
    """Jena's first 88 recorded events, as a .battle file made by ``battlestudio convert``."""
    b = store.load(JENA)
    s = b.scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    src = tmp_path / "jena88.battle.json"
    store.save(Battle(s, list(b.events[:88])), src)
    path = tmp_path / "jena88.battle"
    assert cli(["convert", str(src), str(path)]) == 0
    assert len(store.load(path).events) == 88
    return path


def _record_two_phases(qtbot, w, path):
    """Open ``path``, go on with its game, drag a unit, Next Phase twice; the document."""
    w.resize(1500, 950)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 88
    pv.start_game()  # goes on from the end of the recorded game
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording and len(doc.log) == 88
    side = doc.session.key.side
    uid = _unit_on_table(doc, side)
    w.map_view.fit_table()
    centre = doc.scenario.units[uid].rect().centre
    drag(w.map_view, px(w.map_view, centre), px(w.map_view, (centre[0] + 6.0, centre[1] + 4.0)))
    # the move (and, when the movement rules refuse it, the log's note that the umpire recorded it)
    assert [e.kind for e in doc.log.events[-2:] if e.kind != "annotation"][-1] == "moved", w.statusBar().currentMessage()
    for _ in range(2):
        pv.actions["next_phase"].trigger()
    assert len(doc.log) > 90 and doc.is_modified
    return doc, uid


def test_discard_leaves_the_battle_file_as_it_was_opened(qtbot, tmp_path, monkeypatch, jena88):
    modal = ModalRecorder(monkeypatch)
    before = jena88.read_bytes()
    w = make_window(qtbot, tmp_path)
    doc, _ = _record_two_phases(qtbot, w, jena88)
    # the closed phases are in the journal beside the file, not in the file
    assert jena88.read_bytes() == before
    journal = read_journal(jena88)
    assert journal is not None and journal.keep == 88
    assert list(journal.events) == list(doc.log.events[88 : len(doc.log) - doc.log.undoable])
    assert store.load(jena88).events == list(doc.log.events[:88])

    modal.question_answer = QMessageBox.StandardButton.Discard
    w.close()
    assert [c[1] for c in modal.of("question")] == ["Unsaved changes"]
    assert jena88.read_bytes() == before and len(store.load(jena88).events) == 88
    assert not journal_path(jena88).exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("jena88.battle")) == [
        "jena88.battle",
        "jena88.battle.json",
    ]  # nothing left beside it


def test_save_writes_every_event_and_removes_the_journal(qtbot, tmp_path, monkeypatch, jena88):
    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    doc, _ = _record_two_phases(qtbot, w, jena88)
    recorded = list(doc.log.events)
    assert journal_path(jena88).exists()
    modal.question_answer = QMessageBox.StandardButton.Save
    w.close()
    assert store.load(jena88).events == recorded and len(recorded) > 88
    assert not journal_path(jena88).exists()


def test_a_journal_left_by_a_dead_editor_is_offered_on_open(qtbot, tmp_path, monkeypatch, jena88):
    modal = ModalRecorder(monkeypatch)
    before = jena88.read_bytes()
    w = make_window(qtbot, tmp_path)
    doc, _ = _record_two_phases(qtbot, w, jena88)
    journaled = list(doc.log.events[: len(doc.log) - doc.log.undoable])
    # as if this editor had been killed: its journal names a process that is gone
    jp = journal_path(jena88)
    lines = jp.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    head["pid"] = 2**22 + 12345
    jp.write_text(json.dumps(head) + "\n" + "".join(lines[1:]) + '{"at": 9', encoding="utf-8")  # a torn last write

    w2 = make_window(qtbot, tmp_path / "second")
    modal.question_answer = QMessageBox.StandardButton.Yes
    assert w2.files.open_path(jena88, ask=False)
    asked = modal.of("question")[-1]
    assert asked[1] == "Restore unsaved recording" and f"{len(journaled) - 88} recorded event(s)" in asked[2]
    again = w2.document
    assert list(again.battle.events) == journaled and again.is_modified
    assert jena88.read_bytes() == before  # still not written
    assert not jp.exists()  # taken over by the second window's recovery copy
    assert w2.recovery.data_path.exists()
    assert store.load(w2.recovery.data_path).events == journaled


def test_ctrl_z_after_next_phase_reopens_the_phase_and_undoes_its_move(qtbot, tmp_path, monkeypatch, jena88):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(jena88, ask=False)
    w.play_view.seed = 5
    w.play_view.start_game()
    doc = w.document
    key = doc.session.key
    uid = _unit_on_table(doc, key.side)
    start = doc.scenario.units[uid].position
    w.map_view.fit_table()
    centre = doc.scenario.units[uid].rect().centre
    drag(w.map_view, px(w.map_view, centre), px(w.map_view, (centre[0] + 6.0, centre[1] + 4.0)))
    w.play_view.actions["next_phase"].trigger()
    assert doc.session.key != key
    assert w.actions["undo"].text() == "&Undo Next phase"
    assert w.actions["undo"].shortcut().matches(QKeySequence(QKeySequence.StandardKey.Undo))
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.map_view.setFocus()
    qtbot.keyClick(w.map_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.session.key == key and doc.recording
    assert w.actions["undo"].isEnabled() and w.actions["undo"].text().startswith("&Undo Move")
    qtbot.keyClick(w.map_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.units[uid].position == pytest.approx(start)
    assert len(doc.log) == 88


def test_a_recovery_copy_older_than_the_journal_gives_way_to_it(jena88):
    from battlestudio.ui.file_commands import newest_game

    b = store.load(jena88)
    full = store.load(JENA)
    journaled = Battle(b.scenario, list(full.events[:96]))
    older = Battle(b.scenario, list(full.events[:90]))
    newer = Battle(b.scenario, list(full.events[:99]))
    assert newest_game(older, journaled).events == journaled.events  # phases closed after the autosave
    assert newest_game(newer, journaled) is newer  # the copy holds the open phase too
    other = Battle(b.scenario, list(full.events[:89]) + [full.events[95]])
    assert newest_game(other, journaled) is other  # they went apart: the copy, as before
