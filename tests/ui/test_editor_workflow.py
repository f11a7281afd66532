"""The issue's end-to-end editing session, driven by real mouse and keyboard events.

On the bundled Elchingen scenario: draw a wood polygon, place a unit by dropping it from the
order-of-battle tree onto the map, move it, rotate it, reassign it in the tree; then undo
everything back to an identical document, redo it all, save, reopen and compare.
"""

from __future__ import annotations

import copy

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from battlestudio import store
from battlestudio.model import TerrainKind
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, drag, drop_on_tree, make_window, mouse, px

UNIT = "french-bde-villatte"


def ordered(s):
    """The scenario with every container's key order and each commander's subordinate order."""
    g = s.oob.graph
    return (
        s,
        [list(getattr(s, k)) for k in ("units", "commanders", "terrain", "towns", "objectives")],
        {n: list(g.successors(n)) for n in g.nodes},
    )


def test_draw_place_move_rotate_reassign_undo_redo_save_reopen(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    work = tmp_path / "elchingen.battle.json"
    store.save(store.load(ELCHINGEN), work)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 1000)
    assert w.files.open_path(work)
    view, doc = w.map_view, w.document
    s = doc.scenario
    view.fit_table()
    original = copy.deepcopy(ordered(s))

    # 1. draw a wood: click four vertices, Enter finishes
    w.set_tool("draw:woods")
    view.setFocus()
    for p in [(20.0, 100.0), (50.0, 96.0), (56.0, 124.0), (24.0, 128.0)]:
        at = px(view, p)
        mouse(view, "press", at)
        mouse(view, "release", at)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    (wood,) = [t for t in s.terrain.values() if t.id not in original[0].terrain]
    assert wood.kind == TerrainKind.WOODS and abs(wood.geometry.area - 30 * 28) < 60
    assert doc.undo_text.startswith("Draw wood")

    QApplication.processEvents()

    # 2. place a unit by dragging its tree row onto the map (enter, move, drop)
    mime = w.oob_panel.proxy.mimeData([w.oob_panel.index_of(UNIT)])
    at = px(view, (170.0, 55.0))  # open ground between the armies
    act, btn, mods = Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    for event in (
        QDragEnterEvent(at, act, mime, btn, mods),
        QDragMoveEvent(at, act, mime, btn, mods),
        QDropEvent(at.toPointF(), act, mime, btn, mods),
    ):
        QApplication.sendEvent(view.viewport(), event)
        assert event.isAccepted()
    placed = s.units[UNIT]
    assert abs(placed.position[0] - 170.0) < 0.5 and abs(placed.position[1] - 55.0) < 0.5
    assert doc.selection == {UNIT}

    QApplication.processEvents()  # a user's gestures are separated by turns of the event loop

    # 3. move it with the select tool: one drag, one undo step
    w.set_tool("select")
    steps = doc.undo_count
    centre = placed.rect().centre
    drag(view, px(view, centre), px(view, (centre[0] + 20.0, centre[1] + 10.0)))
    moved = s.units[UNIT]
    assert doc.undo_count == steps + 1
    assert (
        abs(moved.position[0] - placed.position[0] - 20.0) < 1.0
        and abs(moved.position[1] - placed.position[1] - 10.0) < 1.0
    )

    QApplication.processEvents()

    # 4. rotate it by dragging the handle a quarter turn, Shift snapping to 15°
    w.set_tool("rotate")
    tool = view.tool
    handle = px(view, tool.handle_point())
    pivot = px(view, moved.rect().centre)
    quarter = QPoint(pivot.x() - (handle.y() - pivot.y()), pivot.y() + (handle.x() - pivot.x()))
    drag(view, handle, quarter, steps=8, modifiers=Qt.KeyboardModifier.ShiftModifier)
    turned = s.units[UNIT]
    assert doc.undo_count == steps + 2
    assert turned.facing % 15.0 == 0.0 and turned.facing != moved.facing

    QApplication.processEvents()

    # 5. reassign it in the tree from Loison's 2e division to Malher's 3e division
    assert drop_on_tree(w.oob_panel, UNIT, "french-3eme-division")
    assert s.oob.superior(UNIT) == "french-3eme-division"
    final = copy.deepcopy(ordered(s))
    assert doc.undo_count == 5

    # undo everything: identical to the file; redo everything: identical to the final state
    while doc.can_undo:
        w.actions["undo"].trigger()
    assert ordered(s) == original and not w.isWindowModified()
    while doc.can_redo:
        w.actions["redo"].trigger()
    assert ordered(s) == final

    # save, reopen, compare
    out = tmp_path / "after.battle"
    assert w.files.save_as(out)
    assert w.files.open_path(out)
    assert w.document is not doc and w.document.scenario == final[0]
