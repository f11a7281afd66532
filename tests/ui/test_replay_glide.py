"""Units glide between two replay steps when playing by phase or turn, and end exactly where
the state puts them; fast speeds and stepping by hand jump."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from battlestudio.ui import map_scene
from battlestudio.ui.coords import table_to_scene
from tests.ui.test_replay_goto import JENA
from tests.ui.window_helpers import ModalRecorder, make_window


def _centre(unit, item) -> QPointF:
    return table_to_scene(*unit.position) + item._shape.offset


@pytest.fixture
def jena(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    return w


@pytest.fixture
def jena_items(qtbot, tmp_path, monkeypatch):
    """Jena opened with the map's older unit path (one item each)."""
    monkeypatch.setattr(map_scene, "UNIT_PATH", "items")
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    return w


def test_a_turn_played_at_normal_speed_glides_the_rows_that_moved(jena, qtbot):
    w, t = jena, jena.document.timeline
    scene = w.map_view.map_scene
    glide, a = w.play_view.glide, scene.unit_arrays
    assert scene.arrays_on
    bar = w.play_view.panel.bar
    bar.unit_box.setCurrentIndex(bar.unit_box.findData("turn"))
    bar.speed_box.setCurrentIndex(bar.speed_box.findData(1.0))
    t.jump_to(3)
    before = {rid: tuple(a.shown[a.row[rid]]) for rid in a.ids}
    bar.press("play")
    try:
        qtbot.waitUntil(lambda: glide.gliding, timeout=5000)
        state = t.state
        rows, start, end = glide._rows.copy(), glide._from.copy(), glide._to.copy()
        assert rows.size, "turn 3 moves units"
        for r, s0, e0 in zip(rows, start, end, strict=True):
            rid = a.ids[r]
            x, y = state.units[rid].rect().centre
            assert tuple(e0) == pytest.approx((x, -y))  # heading for the state's place
            assert tuple(s0) == pytest.approx(before[rid])  # from where it was drawn
        qtbot.wait(120)  # part of the way
        if glide.gliding:
            c = a.shown[rows]
            lo, hi = np.minimum(start, end) - 1e-6, np.maximum(start, end) + 1e-6
            assert ((c >= lo) & (c <= hi)).all()
            between = ((c != start).any(axis=1) & (c != end).any(axis=1)).sum()
            assert between > 0, "some units were drawn between their two places"
        qtbot.waitUntil(lambda: not glide.gliding, timeout=3000)
    finally:
        t.pause()
    glide.finish()
    state = t.state
    for rid in a.ids:  # every unit ends where the state at the cursor puts it
        x, y = state.units[rid].rect().centre
        assert tuple(a.shown[a.row[rid]]) == pytest.approx((x, -y))
    assert np.array_equal(a.shown, a.centre)
    assert glide.frames >= 3


def test_a_turn_played_at_normal_speed_glides_the_units_that_moved(jena_items, qtbot):
    w, t = jena_items, jena_items.document.timeline
    glide, items = w.play_view.glide, w.map_view.map_scene.items_by_kind["units"]
    bar = w.play_view.panel.bar
    bar.unit_box.setCurrentIndex(bar.unit_box.findData("turn"))
    bar.speed_box.setCurrentIndex(bar.speed_box.findData(1.0))
    t.jump_to(3)
    before = {rid: QPointF(item._centre) for rid, item in items.items()}
    bar.press("play")
    try:
        qtbot.waitUntil(lambda: glide.gliding, timeout=5000)
        state = t.state
        moving = {rid: m for rid, m in glide._moves.items()}
        assert moving, "turn 3 moves units"
        qtbot.wait(120)  # part of the way
        between = 0
        for rid, (item, a, b) in moving.items():
            assert b == _centre(state.units[rid], item)  # heading for the state's place
            assert a == before[rid]  # from where it was shown
            c = item._centre
            if glide.gliding and c != a and c != b:
                lo_x, hi_x = sorted((a.x(), b.x()))
                lo_y, hi_y = sorted((a.y(), b.y()))
                assert lo_x - 1e-6 <= c.x() <= hi_x + 1e-6 and lo_y - 1e-6 <= c.y() <= hi_y + 1e-6
                between += 1
        assert between > 0, "some units were drawn between their two places"
        qtbot.waitUntil(lambda: not glide.gliding, timeout=3000)
    finally:
        t.pause()
    glide.finish()
    state = t.state
    for rid, item in items.items():  # every unit ends where the state at the cursor puts it
        assert item._centre == _centre(state.units[rid], item)
    assert glide.frames >= 3


def test_stepping_by_hand_and_the_fastest_speed_jump(jena, qtbot):
    w, t = jena, jena.document.timeline
    glide = w.play_view.glide
    t.jump_to(3)
    t.step_turn(1)  # paused: no glide
    assert not glide.gliding
    bar = w.play_view.panel.bar
    bar.unit_box.setCurrentIndex(bar.unit_box.findData("turn"))
    bar.speed_box.setCurrentIndex(bar.speed_box.count() - 1)  # 32x: a step every ~16 ms
    frames = glide.frames
    seen: list[int] = []
    t.position_changed.connect(seen.append)
    bar.press("play")
    try:
        qtbot.waitUntil(lambda: len(seen) >= 3, timeout=15000)
    finally:
        t.pause()
    assert glide.frames == frames and not glide.gliding


def test_after_a_glide_the_map_matches_a_full_redraw(jena, qtbot):
    """The unit layer redraws only the rectangles a glide touched: once it is over, the picture
    equals a redraw of everything (no unit left behind half-way, no ghost)."""
    w, t = jena, jena.document.timeline
    glide, view = w.play_view.glide, w.map_view
    bar = w.play_view.panel.bar
    bar.unit_box.setCurrentIndex(bar.unit_box.findData("turn"))
    bar.speed_box.setCurrentIndex(bar.speed_box.findData(1.0))
    t.jump_to(5)
    qtbot.wait(50)
    bar.press("play")
    try:
        qtbot.waitUntil(lambda: glide.gliding, timeout=5000)
        qtbot.wait(100)
        mid = view.viewport().grab().toImage()
        qtbot.waitUntil(lambda: not glide.gliding, timeout=3000)
        t.pause()
    finally:
        t.pause()
    glide.finish()
    qtbot.wait(50)
    done = view.viewport().grab().toImage()
    layer = view.map_scene.array_layer if view.map_scene.arrays_on else view.map_scene.unit_layer
    layer.mark_all()
    qtbot.wait(50)
    full = view.viewport().grab().toImage()
    assert done == full
    assert mid != full  # mid-glide the units stood elsewhere
