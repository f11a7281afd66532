"""The command view in the main window: the "command" layer in the Layers dock, the Odds and
Analysis docks, a general dragged with the mouse updating the overlay and the odds, and a
replay timeline driving the overlay and moved by the charts."""

from __future__ import annotations

from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.replay.timeline import Timeline
from battlestudio.ui.command_overlay import LAYER
from PySide6.QtCore import Qt
from tests.analysis import known_game
from tests.ui.window_helpers import drag, make_window, px


def known_window(qtbot, tmp_path, recorded: bool = False):
    """The window on the known game's scenario (with its recorded game when ``recorded``)."""
    w = make_window(qtbot, tmp_path, Document(Battle(known_game.scenario(), known_game.events() if recorded else [])))
    w.map_view.fit_table()
    return w


def test_docks_and_command_layer(qtbot, tmp_path):
    w = known_window(qtbot, tmp_path)
    cv = w.command_view
    assert {d.objectName() for d in cv.docks.values()} == {"dock_odds", "dock_analysis"}
    item = w.layers_panel.item(LAYER)
    assert item is not None and item.checkState(0) == Qt.CheckState.Checked
    reaches = cv.overlay.reaches.items
    assert cv.overlay.picture.reaches and all(i.isVisible() for i in cv.overlay.items() if i not in reaches.values())
    assert not any(r.isVisible() for r in reaches.values())  # command circles off by default
    w.document.set_selection({"french-c1"})  # on for the selection
    assert [k for k, r in reaches.items() if r.isVisible()] == ["french-c1"]
    item.setCheckState(0, Qt.CheckState.Unchecked)
    assert not any(i.isVisible() for i in cv.overlay.items())
    item.setCheckState(0, Qt.CheckState.Checked)
    assert all(i.isVisible() for i in cv.overlay.items() if i not in reaches.values() or i is reaches["french-c1"])
    w.document.set_selection(set())
    assert not any(r.isVisible() for r in reaches.values())


def test_dragging_a_general_with_the_mouse_updates_overlay_and_odds(qtbot, tmp_path):
    w = known_window(qtbot, tmp_path)
    cv = w.command_view
    # the corps general's own order to his division counts the division general's KE (2.12, D5)
    w.document.set_fields("commanders", {"french-d1": {"command_ability": 0}}, "Rate the division general")
    assert cv.odds_panel.set_pair("french-c1", "french-d1")
    assert cv.odds_panel.odds.distance is not None, cv.odds_panel.odds.refusal
    assert cv.overlay.picture.out_of_command() == set()
    w.map_view.set_zoom(8.0)  # close enough that the division general's flag stands clear of the corps general's
    w.map_view.centre_on_table((100.0, 65.0))
    drag(w.map_view, px(w.map_view, (100.0, 50.0)), px(w.map_view, (100.0, 82.0)))
    d1 = w.document.scenario.commanders["french-d1"].position
    assert d1[1] > 75.0, d1  # the select tool moved him
    assert cv.overlay.picture.out_of_command() == {"french-d1", "french-u1", "french-u2"}
    assert set(cv.overlay.marks.items) == {"french-d1", "french-u1", "french-u2"}
    assert cv.odds_panel.odds.distance > 35.0
    w.document.undo()  # the whole drag is one undo step
    assert cv.overlay.picture.out_of_command() == set()
    w.document.undo()  # and the rating: the window closes without asking to save
    assert not w.document.is_modified


def test_replay_timeline_drives_the_overlay(qtbot, tmp_path):
    w = known_window(qtbot, tmp_path, recorded=True)
    cv = w.command_view
    log = GameLog.from_battle(w.document.battle)
    timeline = Timeline(log, 0)
    cv.bind_timeline(timeline)
    cv.docks["analysis"].show()
    cv.docks["analysis"].raise_()
    qtbot.waitUntil(lambda: bool(cv.analysis_panel.views), timeout=5000)
    timeline.seek(cv.analysis_panel.turn_ends[2])
    assert cv.overlay.picture.out_of_command() == {"french-d1", "french-u1", "french-u2"}
    assert "o1" in cv.overlay.orders.items and cv.overlay.orders.items["o3"].pending
    cv.analysis_panel.turn_requested.emit(3)  # a click on turn 3 in a chart
    assert timeline.position == len(log) and cv.overlay.picture.out_of_command() == set()
    cv.bind_timeline(None)
