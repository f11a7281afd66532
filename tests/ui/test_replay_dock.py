"""The Replay dock on the bundled Jena 1806 game: it opens ready to replay, the timeline bar and
the keyboard move the cursor, the map, OOB tree and Properties show the state at the cursor,
the event list explains each roll, clicking an event selects and centres its unit, trails and
change halos follow the log."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from battlestudio.replay.game import GameLog
from battlestudio.ui.coords import scene_to_table
from battlestudio.play.document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


@pytest.fixture
def jena(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(JENA, ask=False)
    return w


def assert_map_shows(w, state) -> None:
    """Every unit and general on the table at ``state`` has its item where the state puts it."""
    items = w.map_view.map_scene.items_by_kind
    on_table = {i for i in state.units if i not in state.off_table}
    assert set(items["units"]) == on_table
    assert set(items["commanders"]) == {i for i in state.commanders if i not in state.off_table}
    for uid in on_table:
        assert scene_to_table(items["units"][uid].pos()) == pytest.approx(state.units[uid].rect().centre)


def test_opens_at_the_start_of_the_finished_game(jena):
    doc = jena.document
    assert isinstance(doc, PlayDocument)
    assert doc.timeline.position == 0 and len(doc.log) == len(doc.battle.events)
    assert jena.play_view.dock.isVisible()
    assert "Start of the game" in jena.play_view.panel.bar.where.text()
    assert_map_shows(jena, doc.log.initial)
    bar = jena.play_view.panel.bar
    assert bar.turn_box.minimum() == 1 and bar.turn_box.maximum() == 40
    assert len(bar.track.turns) == 40 and len(bar.track.phases) == len(doc.log.phases())


def test_bar_buttons_turn_box_and_speed(jena):
    t = jena.document.timeline
    log: GameLog = t.log
    bar = jena.play_view.panel.bar
    bar.buttons["turn_fwd"].click()
    assert t.position == log.turn_starts()[0]
    bar.buttons["phase_fwd"].click()
    assert t.position == log.phase_starts()[1]
    bar.buttons["event_fwd"].click()
    assert t.position == log.phase_starts()[1] + 1
    bar.buttons["event_back"].click()
    bar.buttons["phase_back"].click()
    assert t.position == log.phase_starts()[0]
    bar.turn_box.setValue(14)
    assert t.cursor.turn == 14 and t.position == log.turn_starts()[13]
    assert "Turn 14" in bar.where.text() and "09:15" in bar.where.text()
    bar.buttons["end"].click()
    assert t.at_end
    bar.speed_box.setCurrentIndex(bar.speed_box.findData(4.0))
    assert t.speed == 4.0
    bar.buttons["play"].click()  # from the end, playback starts again at the beginning
    assert t.playing and t.position == 0 and bar.timer.isActive()
    assert bar.timer.interval() == max(15, round(t.interval * 1000))
    bar.buttons["play"].click()
    assert not t.playing and not bar.timer.isActive()
    # clicking on the track seeks to the position under the mouse
    x = bar.track.x_of(log.turn_starts()[19])
    from PySide6.QtTest import QTest

    QTest.mouseClick(bar.track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(round(x), 10))
    assert abs(t.position - log.turn_starts()[19]) <= len(log) / max(1, bar.track.width() - 12) + 1


def test_keyboard_on_map_and_bar(qtbot, jena):
    t = jena.document.timeline
    log = t.log
    view = jena.map_view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert t.position == 1
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert t.position == log.phase_starts()[1]
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert t.position == log.turn_starts()[1]
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert t.position == log.turn_starts()[1] - 1
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert t.at_end
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert t.at_start
    qtbot.keyClick(view, Qt.Key.Key_Space)  # pressed and released without panning: play
    assert t.playing
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert not t.playing
    bar = jena.play_view.panel.bar
    bar.setFocus()
    qtbot.keyClick(bar, Qt.Key.Key_PageDown)
    assert t.position == log.turn_starts()[0]
    qtbot.keyClick(bar, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert t.position == log.phase_starts()[1]
    qtbot.keyClick(bar, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert t.position == log.phase_starts()[0]


def test_map_tree_and_properties_show_the_state_at_the_cursor(jena):
    doc = jena.document
    t, log = doc.timeline, doc.log
    for turn in (5, 12, 33):
        t.jump_to(turn)
        state = log.state_at(t.position)
        assert_map_shows(jena, state)
    # Rüchel's corps is off table early and on the map after it arrives
    arrival = next(p for p, e in enumerate(log.events) if e.kind == "reinforcement_arrived")
    who = log.events[arrival].arrivals[0][0]
    t.seek(arrival)
    assert (
        jena.map_view.map_scene.item_for(who) is None
        and who not in doc.scenario.units.keys() | doc.scenario.commanders.keys()
    )
    t.seek(arrival + 1)
    assert jena.map_view.map_scene.item_for(who) is not None
    # a unit that lost figures: the Properties dock shows its strength at the cursor, not the scenario's
    loss = next(p for p, e in enumerate(log.events) if e.kind == "casualties" and e.figures)
    uid = log.events[loss].unit
    t.seek(loss + 1)
    doc.set_selection({uid})
    ed = jena.properties_panel.editors["units"]["figures"]
    assert ed.widget.value() == log.state_at(loss + 1).units[uid].figures
    assert (
        ed.widget.value() == doc.base.scenario.units[uid].figures - log.events[loss].figures
        or log.state_at(loss).units[uid].figures != doc.base.scenario.units[uid].figures
    )
    t.seek(loss)
    assert ed.widget.value() == log.state_at(loss).units[uid].figures
    assert jena.oob_panel.index_of(uid).isValid()
    # nothing is recorded while replaying the past: an edit is refused and says why
    jena.properties_panel.apply("units", "figures", 1)
    assert doc.scenario.units[uid].figures == log.state_at(loss).units[uid].figures
    assert "Replaying" in jena.statusBar().currentMessage()


def test_event_list_explains_rolls_and_clicking_selects_and_centres(jena):
    doc = jena.document
    t, log = doc.timeline, doc.log
    roll = next(p for p, e in enumerate(log.events) if e.kind == "command_roll")
    t.seek(roll + 1)
    panel = jena.play_view.panel
    key = t.cursor.key
    start, end = log.phase_range(key)
    assert len(panel.item_texts()) == end - start
    line = panel.item_texts()[roll - start]
    assert line.startswith(f"roll for {log.events[roll].order_id}:") and "d10" in line
    assert panel.events.currentItem() is panel._items[roll - start]
    move = next(p for p, e in enumerate(log.events) if e.kind == "moved" and e.turn >= 2)
    t.seek(move)  # the move's phase, before the move
    start, _ = log.phase_range(t.cursor.key)
    item = panel._items[move - start]
    jena.map_view.set_zoom(jena.map_view.zoom() * 4)  # room to scroll: the whole table no longer fits
    panel.events.itemClicked.emit(item, 1)
    mover = log.events[move].id
    assert t.position == move + 1
    assert doc.selection == {mover}
    centre = scene_to_table(jena.map_view.mapToScene(jena.map_view.viewport().rect().center()))
    assert centre == pytest.approx(doc.scenario.record(mover).position, abs=2.0)


def test_trails_and_halos_follow_the_cursor(jena):
    doc = jena.document
    t, log = doc.timeline, doc.log
    marks = jena.play_view.marks
    move = next(p for p, e in enumerate(log.events) if e.kind == "moved" and e.turn >= 3)
    t.seek(move)
    t.step_event(1)
    mover = log.events[move].id
    assert mover in marks.changed_ids
    assert not marks.halos.path().isEmpty()
    assert marks.trail_ids[mover][-1] == pytest.approx(log.events[move].path[-1])
    assert marks.trail_ids[mover] == log.trail(mover, marks.trail_turns, t.position)
    jena.play_view.panel.trail_box.setValue(0)
    assert not marks.trail_ids and not marks._trail_items
    jena.play_view.panel.highlight_box.setChecked(False)
    assert marks.halos.path().isEmpty()


def test_clicking_a_turn_in_the_analysis_moves_the_replay_cursor(jena):
    doc = jena.document
    analysis = jena.command_view.analysis_panel
    analysis.turn_requested.emit(12)
    assert doc.timeline.cursor.turn == 12
    assert doc.timeline.position == analysis.turn_ends[12]
    assert_map_shows(jena, doc.log.state_at(doc.timeline.position))
    assert "Turn 12" in jena.play_view.panel.bar.where.text()
