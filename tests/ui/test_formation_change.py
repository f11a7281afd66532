"""Changing a unit's formation with the real Properties ▸ Formation combo (keyboard input), on
the Elchingen table of the map tests: in the editor it is one undo step and the unit's footprint
on the map changes about its fixed front-edge midpoint; while recording under Torden over Europa
it is one ``FormationChanged`` event placed by the ruleset (4.5), the rule shown, and undo takes
it back. The combo's values are the ``Formation`` enum, never its plain string."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from battlestudio.document import Document
from battlestudio.model.units import Formation
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.replay.flow_events import FormationChanged
from battlestudio.ui.coords import scene_to_table
from tests.ui.window_helpers import ModalRecorder, make_window

UID = "u-39ligne"  # 39e Ligne, 16 figures in line


def footprint_on_map(w, uid: str) -> list[tuple[float, float]]:
    """The corners (cm) of the map item drawing ``uid``, sorted."""
    item = w.map_view.map_scene.item_for(uid)
    poly = item.shape().toFillPolygon()
    return sorted(tuple(round(c, 6) for c in scene_to_table(item.mapToScene(p))) for p in list(poly)[:4])


def pick_from_list(qtbot, w, value: Formation) -> None:
    """The user opens the Properties ▸ Formation list and clicks ``value``."""
    editor = w.properties_panel.editors["units"]["formation"]
    combo: QComboBox = editor.widget
    combo.setFocus()
    combo.showPopup()
    view = combo.view()
    row = editor.index_of(value)
    assert row >= 0, f"{value} is not offered"
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def pick_next_formation(qtbot, combo: QComboBox) -> None:
    """The user steps the focused combo one entry down with the keyboard."""
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)


def test_editor_formation_combo_stores_the_enum_in_one_step(qtbot, tmp_path, monkeypatch, scenario):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    doc = w.document
    doc.set_selection({UID})
    before = doc.scenario.units[UID]
    assert before.formation is Formation.LINE
    shown = footprint_on_map(w, UID)
    combo: QComboBox = w.properties_panel.editors["units"]["formation"].widget
    pick_next_formation(qtbot, combo)
    after = doc.scenario.units[UID]
    assert type(after.formation) is Formation and after.formation is Formation.COLUMN
    assert after.position == before.position  # the front-edge midpoint stays (4.5)
    assert doc.undo_count == 1 and doc.undo_text == "Set formation of 39e Ligne"
    assert footprint_on_map(w, UID) == sorted(tuple(round(c, 6) for c in p) for p in after.rect().corners())
    assert footprint_on_map(w, UID) != shown
    doc.undo()
    assert doc.scenario.units[UID].formation is Formation.LINE and combo.currentText() == "line"
    assert footprint_on_map(w, UID) == shown


@pytest.fixture
def recording(qtbot, tmp_path, monkeypatch, scenario):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    w.play_view.seed = 14
    assert w.play_view.start_game() is w.document
    return w


def test_recording_a_formation_change_is_one_event_under_the_rules(qtbot, recording):
    w = recording
    doc: PlayDocument = w.document
    doc.set_selection({UID})
    before = doc.scenario.units[UID]
    shown = footprint_on_map(w, UID)
    n = len(doc.log)
    combo: QComboBox = w.properties_panel.editors["units"]["formation"].widget
    pick_next_formation(qtbot, combo)
    new = doc.log.events[n:]
    assert [type(e) for e in new] == [FormationChanged] and new[0].formation == "column"
    u = doc.scenario.units[UID]
    assert u.formation is Formation.COLUMN and (u.position, u.facing) == (before.position, before.facing)
    assert footprint_on_map(w, UID) != shown
    assert doc.base.scenario.units[UID].formation is Formation.LINE  # the scenario is untouched
    note = w.properties_panel.note.text()
    assert "4.5" in note and "front edge" in note and "formation_change_cm" in note
    assert doc.undo_text == "Set formation of 39e Ligne"
    w.undo()
    assert len(doc.log) == n and doc.scenario.units[UID].formation is Formation.LINE
    assert combo.currentText() == "line" and footprint_on_map(w, UID) == shown


def test_recording_line_to_march_column_turns_on_the_spot(qtbot, recording):
    w = recording
    doc: PlayDocument = w.document
    doc.set_selection({UID})
    before = doc.scenario.units[UID]
    n, steps = len(doc.log), doc.undo_count
    pick_from_list(qtbot, w, Formation.MARCH_COLUMN)  # picked directly: one change
    u = doc.scenario.units[UID]
    assert u.formation is Formation.MARCH_COLUMN
    assert [e.kind for e in doc.log.events[n:]].count("formation_changed") == 1
    # 4.5: the figures turn right on the spot: the new front is the old right edge
    right = before.rect().edges()["right"]
    mid = ((right[0][0] + right[1][0]) / 2, (right[0][1] + right[1][1]) / 2)
    assert u.position == pytest.approx(mid) and u.facing == pytest.approx((before.facing - 90) % 360)
    assert "turn on the spot" in w.properties_panel.note.text()
    assert doc.undo_text == "Set formation of 39e Ligne" and doc.undo_count > steps
    w.undo()
    assert doc.scenario.units[UID] == before


def test_two_formation_changes_are_two_events_and_two_undo_steps(qtbot, recording):
    w = recording
    doc: PlayDocument = w.document
    doc.set_selection({UID})
    before = doc.scenario.units[UID]
    combo: QComboBox = w.properties_panel.editors["units"]["formation"].widget
    n, steps = len(doc.log), doc.undo_count
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # column
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # march column: a second change, paid again (4.4)
    changes = doc.log.events[n:]
    assert [(e.kind, e.formation) for e in changes] == [
        ("formation_changed", "column"),
        ("formation_changed", "march_column"),
    ]
    assert doc.undo_count == steps + 2
    w.undo()
    assert doc.scenario.units[UID].formation is Formation.COLUMN
    w.undo()
    assert doc.scenario.units[UID] == before


def test_infantry_cannot_be_limbered_while_recording(qtbot, recording):
    w = recording
    doc: PlayDocument = w.document
    doc.set_selection({UID})
    n = len(doc.log)
    combo: QComboBox = w.properties_panel.editors["units"]["formation"].widget
    pick_from_list(qtbot, w, Formation.LIMBERED)
    assert len(doc.log) == n and doc.scenario.units[UID].formation is Formation.LINE
    assert combo.currentText() == "line"
    assert "infantry cannot be limbered" in w.statusBar().currentMessage()


def test_recording_refuses_what_the_rules_forbid_and_the_combo_goes_back(qtbot, recording):
    w = recording
    doc: PlayDocument = w.document
    small = next(u for u in doc.scenario.units.values() if u.formation is Formation.LINE and 0 < u.figures < 6)
    doc.set_selection({small.id})
    n = len(doc.log)
    combo: QComboBox = w.properties_panel.editors["units"]["formation"].widget
    pick_next_formation(qtbot, combo)
    assert len(doc.log) == n and doc.scenario.units[small.id].formation is Formation.LINE
    assert combo.currentText() == "line"
    assert "cannot form column" in w.statusBar().currentMessage()
