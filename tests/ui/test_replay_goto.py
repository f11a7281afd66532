"""Go to in the Replay dock on the bundled Jena game: "turn 14, second side, fire" in one action
(Ctrl+G, type, Enter), picked from the menu, the same places as the CLI's ``--at``; the track's
tooltip names turn, side and phase; its side bands follow the player-turns."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QPushButton

from battlestudio.session.text import position_at
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


def test_ctrl_g_then_typing_goes_to_turn_14_second_side_fire(jena, qtbot):
    t = jena.document.timeline
    bar = jena.play_view.panel.bar
    jena.play_view.dock.hide()
    jena.activateWindow()
    qtbot.waitUntil(jena.isActiveWindow)
    jena.map_view.setFocus()
    qtbot.keyClick(jena.map_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert jena.play_view.dock.isVisible() and bar.goto_box.hasFocus()
    qtbot.keyClicks(bar.goto_box, "14:2:fire:start")
    qtbot.keyClick(bar.goto_box, Qt.Key.Key_Return)
    c = t.cursor
    assert (c.turn, c.side, c.phase) == (14, "prussian", "fire")
    start, end = t.log.phase_range((14, "prussian", "fire"))
    assert t.position == start + 1  # begun: where the phase step stops
    assert bar.goto_box.text() == "14:prussian:fire:1" and "Turn 14" in bar.where.text()
    assert jena.play_view.panel.heading.text() == "<b>Turn 14</b>, prussian: Passive side's firing (skydning) — 1 event"
    # without :start the same text means what the CLI means: the end of the phase
    assert bar.go_to("14:prussian:movement")
    assert (
        t.position == position_at(t.log, "14:prussian:movement") == t.log.phase_range((14, "prussian", "movement"))[1]
    )


def test_a_place_the_game_does_not_hold_is_said_and_the_cursor_stays(jena):
    t = jena.document.timeline
    bar = jena.play_view.panel.bar
    bar.go_to("5")
    pos = t.position
    assert not bar.go_to("41:prussian:fire")
    assert t.position == pos
    assert "no phase at 41" in bar.goto_error and "turns 1–40" in bar.where.text()
    assert not bar.go_to("14:prussian:fire:x")
    assert "not start, end or a number" in bar.goto_error
    # a long message is clipped and in the tooltip: the window does not grow past the screen
    width = jena.width()
    assert not bar.go_to("1:russian:fire")
    jena.layout().activate()
    assert jena.width() == width and "russian" in bar.where.toolTip()


def test_picked_from_the_menu(jena):
    t = jena.document.timeline
    bar = jena.play_view.panel.bar
    bar.fill_goto_menu()
    turn = next(a.menu() for a in bar.goto_menu.actions() if a.text().startswith("Turn 14 "))
    side = next(a.menu() for a in turn.actions() if a.text() == "prussian")
    next(a for a in side.actions() if a.text() == "fire").trigger()
    assert t.position == t.log.phase_range((14, "prussian", "fire"))[0] + 1
    next(a for a in bar.goto_menu.actions() if a.text() == "End of the game").trigger()
    assert t.at_end


def test_track_tooltip_names_turn_side_and_phase_and_bands_follow_the_sides(jena):
    log = jena.document.log
    track = jena.play_view.panel.bar.track
    start, end = log.phase_range((14, "prussian", "fire"))
    assert track.place_at(start + 1) == f"turn 14, prussian, fire (event {start + 1})"
    assert track.place_at(end) == f"turn 14, prussian, fire (event {end})"
    assert track.place_at(0) == "start of the game"
    assert len(track.side_runs) == 80  # 40 turns, two player-turns each
    assert [r[2] for r in track.side_runs[:2]] == ["french", "prussian"]
    assert track.side_colour("french") == jena.document.base.scenario.sides["french"].colour


def test_the_go_to_shortcut_is_in_the_game_menu_and_clashes_with_nothing(jena):
    go = jena.play_view.panel.commands["goto"]
    assert go.shortcut() == QKeySequence("Ctrl+G")
    assert go in jena.play_view.menu.actions()


@pytest.mark.parametrize("suffix", [".battle.json", ".battle"])
def test_a_bookmark_survives_save_and_reopen_and_next_previous_go_there(jena, qtbot, tmp_path, suffix):
    panel = jena.play_view.panel
    t = jena.document.timeline
    jena.activateWindow()
    qtbot.waitUntil(jena.isActiveWindow)
    assert panel.bar.go_to("14:2:fire:start")
    jena.map_view.setFocus()
    qtbot.keyClick(jena.map_view, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert jena.document.is_modified
    item = panel.bookmarks.topLevelItem(0)
    assert item.text(0) == "Turn 14, prussian, fire" and item.text(1) == "turn 14, prussian, fire"
    item.setText(0, "Prussian fire at Vierzehnheiligen")  # as edited in place
    item.setText(2, "the line breaks after this")
    panel.bar.go_to("30:french:movement:start")
    panel.commands["bookmark_add"].trigger()
    t.to_start()
    path = tmp_path / f"marked{suffix}"
    assert jena.files.save_as(path)
    assert not jena.document.is_modified
    assert jena.files.open_path(path, ask=False)
    panel = jena.play_view.panel
    t = jena.document.timeline
    assert [b.name for b in jena.document.battle.bookmarks] == [
        "Prussian fire at Vierzehnheiligen",
        "Turn 30, french, movement",
    ]
    assert panel.bookmarks.topLevelItemCount() == 2 and panel.bookmarks.topLevelItem(0).text(2) == (
        "the line breaks after this"
    )
    assert [name for _, name in panel.bar.track.bookmarks][0] == "Prussian fire at Vierzehnheiligen"
    jena.activateWindow()
    qtbot.waitUntil(jena.isActiveWindow)
    jena.map_view.setFocus()
    t.to_start()
    qtbot.keyClick(jena.map_view, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert t.position == t.log.phase_range((14, "prussian", "fire"))[0] + 1
    qtbot.keyClick(jena.map_view, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert (t.cursor.turn, t.cursor.side, t.cursor.phase) == (30, "french", "movement")
    qtbot.keyClick(jena.map_view, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert panel.message == "No bookmark after this point" and t.cursor.turn == 30
    qtbot.keyClick(jena.map_view, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert (t.cursor.turn, t.cursor.side) == (14, "prussian")
    # a click on a bookmark goes there; Remove takes it away (and the file is unsaved again)
    panel.bookmarks.setCurrentItem(panel.bookmarks.topLevelItem(1))
    panel.bookmarks.itemClicked.emit(panel.bookmarks.topLevelItem(1), 0)
    assert t.cursor.turn == 30
    panel.findChild(QPushButton, "replay_bookmark_remove").click()
    assert [b.name for b in jena.document.battle.bookmarks] == ["Prussian fire at Vierzehnheiligen"]
    assert jena.document.is_modified


def test_a_game_reopens_at_its_last_cursor_per_file(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    copy = tmp_path / "copy.battle"
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(JENA, ask=False)
    assert w.files.save_as(copy)
    assert w.play_view.panel.bar.go_to("14:2:fire:start")
    at_copy = w.document.timeline.position
    qtbot.waitUntil(lambda: w.settings.replay_cursor(copy) == at_copy, timeout=3000)  # once it rests
    assert w.files.open_path(JENA, ask=False)  # another file: its own cursor
    assert w.document.timeline.position == 0
    w.play_view.panel.bar.go_to("3:start")
    at_jena = w.document.timeline.position
    w.close()
    w2 = make_window(qtbot, tmp_path)  # the same settings file
    assert w2.files.open_path(copy, ask=False)
    t = w2.document.timeline
    assert t.position == at_copy and (t.cursor.turn, t.cursor.side, t.cursor.phase) == (14, "prussian", "fire")
    assert w2.files.open_path(JENA, ask=False)
    assert w2.document.timeline.position == at_jena


def test_a_changed_rule_value_is_named_in_the_replay_dock(qtbot, tmp_path, monkeypatch):
    from battlestudio import store
    from battlestudio.rules import params
    from battlestudio.rules.fingerprint import fingerprint
    from tests.test_ruleset_fingerprint import changed_rules

    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    battle.ruleset_record = fingerprint("toe", battle.scenario.info.parameters)
    path = tmp_path / "recorded.battle"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    assert w.play_view.panel.ruleset_note.isHidden()
    old = "[rules.engage_distance_cm]\nvalue = 20\n"
    changed_rules(tmp_path, monkeypatch, old, old.replace("20", "25"))
    try:
        assert w.files.open_path(JENA, ask=False) and w.files.open_path(path, ask=False)
        note = w.play_view.panel.ruleset_note
        assert note.isVisible()
        assert note.text() == (
            "The rule numbers changed since this game was recorded (recorded → now): engage_distance_cm: 20 → 25"
        )
    finally:
        monkeypatch.undo()
        params.load_ruleset_file.cache_clear()
