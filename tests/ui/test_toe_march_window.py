"""Torden over Europa chapter 4 in the window, on the bundled Jena battle in the French movement
phase: a limbered battery unlimbers through the Actions dock towards a point the user picks on
the map (4.6 "i den retning der ønskes"), one recorded change; a brigade in column dragged into
the Isserstedt forest is told that only infantry in line stands at a wood's edge (4.7), and one
dragged onto the Saale bridge that out of march column it counts as in the river (4.7 Broer)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from battlestudio import store
from battlestudio.model.units import Formation
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from tests.ui.test_side_on_the_move import drag_by
from tests.ui.test_toe_unfold_square import _to_french_movement
from tests.ui.window_helpers import ModalRecorder, make_window, mouse, px

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
BATTERY = "french-v-corps-foot-guns-1"
WOODS = "french-100e-ligne"  # put south of the Isserstedt forest (its southern edge y 114-118)
BRIDGE = "french-103e-ligne"  # put west of the Saale bridge at Jena (x 465-475, y 71-77)


def _jena(tmp_path: Path) -> Path:
    """Jena without its game: the V Corps foot battery limbered at (240, 100) facing north, the
    100e Ligne in column facing north below the forest, the 103e in column facing east."""
    battle = store.load(JENA)
    s = battle.scenario
    s.units[BATTERY] = replace(s.units[BATTERY], formation=Formation.LIMBERED, position=(240.0, 100.0), facing=90.0)
    s.units[WOODS] = replace(s.units[WOODS], formation=Formation.COLUMN, position=(145.0, 105.0), facing=90.0)
    s.units[BRIDGE] = replace(s.units[BRIDGE], formation=Formation.COLUMN, position=(455.0, 74.0), facing=0.0)
    path = tmp_path / "jena-march.battle.json"
    store.save(Battle(s, []), path)
    return path


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(_jena(tmp_path), ask=False)
    w.play_view.seed = 1806
    w.play_view.actions["start"].trigger()
    assert isinstance(w.document, PlayDocument) and w.document.recording
    _to_french_movement(w)
    w.map_view.fit_table()
    return w


def test_a_battery_unlimbers_towards_a_point_picked_on_the_map(qtbot, window):
    w = window
    play = w.document
    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(BATTERY)
    assert panel.select_action("unlimber") and panel.spec is not None
    centre = play.session.state.units[BATTERY].rect().centre
    pick = next(b for b in panel.form.findChildren(type(panel.roll_button)) if b.text() == "Pick on map")
    qtbot.mouseClick(pick, Qt.MouseButton.LeftButton)
    east = (centre[0] + 20.0, centre[1])
    mouse(w.map_view, "press", px(w.map_view, east))
    mouse(w.map_view, "release", px(w.map_view, east))
    panel.update_preview()
    text = panel.preview.toPlainText()
    assert "Legal" in text and "the gun unlimbers facing" in text and "4.6 'i den retning der ønskes" in text, text
    n = len(play.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert [e.kind for e in play.log.events[n:]] == ["moved", "formation_changed"]
    u = play.session.state.units[BATTERY]
    assert u.formation is Formation.UNLIMBERED and min(u.facing, 360.0 - u.facing) < 2.0  # east, as picked
    assert u.rect().centre == pytest.approx(centre, abs=0.01)


def test_drags_into_woods_and_onto_a_bridge_say_which_rule(qtbot, window):
    w = window
    play = w.document
    n = len(play.log)
    drag_by(w, play, WOODS, (0.0, 14.0))
    said = w.statusBar().currentMessage()
    assert "not legal" in said and "Isserstedt forest" in said and "only infantry in line may stand" in said, said
    assert "(4.7)" in said
    drag_by(w, play, BRIDGE, (15.0, 0.0))
    said = w.statusBar().currentMessage()
    assert "not legal" in said and "Saale bridge at Jena" in said and "counts as in the river (4.7" in said, said
    # the umpire's ruling stands: both moves are recorded, each with the log's note of the rule
    kinds = [e.kind for e in play.log.events[n:]]
    assert kinds == ["moved", "annotation", "moved", "annotation"], kinds
    notes = [e for e in play.log.events[n:] if e.kind == "annotation"]
    assert "only infantry in line may stand" in notes[0].text and "counts as in the river" in notes[1].text


def test_a_brigade_pivots_about_a_corner_from_the_actions_dock(qtbot, window):
    """4.4 Pivotering: the 100e Ligne wheels 30° to the left about its front-left corner."""
    from PySide6.QtWidgets import QComboBox, QSpinBox

    w = window
    play = w.document
    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(WOODS)
    assert panel.select_action("pivot") and panel.spec is not None
    corner: QComboBox = panel.form.widgets["corner"][0]
    corner.setCurrentIndex(corner.findData("front-left"))
    way: QComboBox = panel.form.widgets["direction"][0]
    way.setCurrentIndex(way.findData("left"))
    degrees: QSpinBox = panel.form.widgets["degrees"][0]
    degrees.setValue(30)
    panel.update_preview()
    text = panel.preview.toPlainText()
    assert "Legal" in text and "pivots 30° about its front-left corner, which stays still" in text, text
    before = play.session.state.units[WOODS]
    n = len(play.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert [e.kind for e in play.log.events[n:]] == ["moved"]
    after = play.session.state.units[WOODS]
    assert after.facing == pytest.approx(120.0)
    assert after.rect().corners()[0] == pytest.approx(before.rect().corners()[0], abs=0.01)
