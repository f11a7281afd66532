"""Looping playback in the Replay dock: the whole game, the cursor's turn, or from one
bookmark to the next; the loop wraps while the real playback timer runs."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.test_replay_goto import JENA
from tests.ui.window_helpers import ModalRecorder, make_window


def _window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    return w, w.play_view.panel, w.document.timeline


def _play_until_wrapped(qtbot, panel, t, lo, hi):
    """Play with the real timer until the cursor has shown ``hi`` and come round: a later
    position before ``hi`` (at high speed the tick that wraps steps on from ``lo``, dropping
    the frames in between)."""
    seen: list[int] = []
    t.position_changed.connect(seen.append)
    panel.bar.press("play")
    assert t.playing
    try:
        qtbot.waitUntil(lambda: hi in seen and any(lo <= p < hi for p in seen[seen.index(hi) + 1 :]), timeout=15000)
    finally:
        t.pause()
        t.position_changed.disconnect(seen.append)
    return seen


def test_loop_between_two_bookmarks_wraps(qtbot, tmp_path, monkeypatch):
    w, panel, t = _window(qtbot, tmp_path, monkeypatch)
    t.jump_to(14)
    first = panel.add_bookmark()
    t.jump_to(15, "prussian")
    second = panel.add_bookmark()
    assert first is not None and second is not None and first.position < second.position
    box = panel.loop_box
    assert [box.itemText(i) for i in range(box.count())] == [
        "Off",
        "Whole game",
        "This turn",
        "This phase",
        f"{first.name} → {second.name}",
    ]
    box.setFocus()
    for _ in range(4):  # the keyboard picks the last choice, as a user would
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentText() == f"{first.name} → {second.name}"
    lo, hi = first.position, second.position
    assert t.loop and t.loop_range == (lo, hi)
    panel.bar.unit_box.setCurrentIndex(panel.bar.unit_box.findData("phase"))
    panel.bar.speed_box.setCurrentIndex(panel.bar.speed_box.count() - 1)  # the fastest
    t.seek(0)  # playing from outside the range starts at its first bookmark
    seen = _play_until_wrapped(qtbot, panel, t, lo, hi)
    assert seen[0] == lo and all(lo <= p <= hi for p in seen)
    assert not panel.bar.timer.isActive()  # paused: the timer stops


def test_loop_over_the_whole_game_and_this_turn(qtbot, tmp_path, monkeypatch):
    w, panel, t = _window(qtbot, tmp_path, monkeypatch)
    panel.bar.unit_box.setCurrentIndex(panel.bar.unit_box.findData("turn"))
    panel.bar.speed_box.setCurrentIndex(panel.bar.speed_box.count() - 1)
    box = panel.loop_box
    box.setCurrentIndex(box.findData("game"))
    box.activated.emit(box.currentIndex())
    assert t.loop and t.loop_range is None
    t.jump_to(39)
    seen = _play_until_wrapped(qtbot, panel, t, 0, len(t.log))
    assert seen[0] > t.log.turn_starts()[37]  # it went on from turn 39, then round
    t.jump_to(20, "prussian", "fire")
    box.setCurrentIndex(box.findData("turn"))
    box.activated.emit(box.currentIndex())
    starts = t.log.turn_starts()
    lo = max(m for m in starts if m <= t.position)
    hi = min(m for m in starts if m > lo)
    assert t.loop_range == (lo, hi) and t.log.cursor_at(lo + 1).turn == 20
    seen = _play_until_wrapped(qtbot, panel, t, lo, hi)
    assert all(lo <= p <= hi for p in seen)
    box.setCurrentIndex(box.findData(None))
    box.activated.emit(box.currentIndex())
    assert not t.loop


def test_choosing_a_bookmark_range_by_code_shows_it_in_the_box(qtbot, tmp_path, monkeypatch):
    w, panel, t = _window(qtbot, tmp_path, monkeypatch)
    t.jump_to(10)
    a = panel.add_bookmark()
    t.jump_to(12)
    b = panel.add_bookmark()
    assert panel.choose_loop((a.position, b.position)) == (a.position, b.position)
    assert panel.loop_box.currentText() == f"{a.name} → {b.name}"
    panel.fill_loops()  # a refill (bookmarks renamed, added) keeps the choice
    assert panel.loop_box.currentText() == f"{a.name} → {b.name}" and t.loop_range == (a.position, b.position)


def test_this_turn_loops_the_turn_the_cursor_is_in_when_play_is_pressed(qtbot, tmp_path, monkeypatch):
    # a fresh tester chose "This turn" at the start, went to turn 3 and pressed Play: the cursor
    # flipped between the start and turn 1's first event forever
    w, panel, t = _window(qtbot, tmp_path, monkeypatch)
    panel.bar.unit_box.setCurrentIndex(panel.bar.unit_box.findData("event"))
    panel.bar.speed_box.setCurrentIndex(panel.bar.speed_box.count() - 1)
    t.to_start()
    box = panel.loop_box
    box.setCurrentIndex(box.findData("turn"))
    box.activated.emit(box.currentIndex())
    starts = t.log.turn_starts()
    assert t.loop_range == (0, starts[1])  # as deployed: the first turn, not the one event before it
    t.jump_to(3)
    qtbot.mouseClick(panel.bar.buttons["play"], Qt.MouseButton.LeftButton)
    lo = max(m for m in starts if m <= t.position)
    assert t.loop_range == (lo, min(m for m in starts if m > lo)) and t.log.cursor_at(lo + 1).turn == 3
    t.pause()
