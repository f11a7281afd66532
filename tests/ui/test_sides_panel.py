"""The Sides dock: add, rename, recolour, set nations, delete an empty side — each one undo step —
and refuse to delete a side that holds units, saying how many."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QInputDialog

from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def test_sides_dock_edits_are_each_one_undo_step(qtbot, tmp_path, monkeypatch):
    rec = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    panel, doc = w.sides_panel, w.document
    sc = doc.scenario
    before = dict(sc.sides)
    assert panel.list.topLevelItemCount() == len(before)
    answers = iter(["Bavarian", "Bavarian army", "Bavaria, Württemberg"])
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: (next(answers), True)))
    monkeypatch.setattr(QColorDialog, "getColor", staticmethod(lambda *a, **k: QColor("#123456")))

    steps = doc.undo_count
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert "bavarian" in sc.sides and doc.undo_count == steps + 1
    assert sc.sides["bavarian"].colour not in {s.colour for s in before.values()}
    assert panel.current() == "bavarian"
    qtbot.mouseClick(panel.rename_button, Qt.MouseButton.LeftButton)
    assert sc.sides["bavarian"].name == "Bavarian army" and doc.undo_count == steps + 2
    qtbot.mouseClick(panel.colour_button, Qt.MouseButton.LeftButton)
    assert sc.sides["bavarian"].colour == "#123456" and doc.undo_count == steps + 3
    assert panel.list.currentItem().toolTip(0) == "#123456"
    qtbot.mouseClick(panel.nation_button, Qt.MouseButton.LeftButton)
    assert sc.sides["bavarian"].nations == ("Bavaria", "Württemberg") and doc.undo_count == steps + 4
    w.actions["undo"].trigger()
    assert sc.sides["bavarian"].nations == ("Bavarian",)
    w.actions["redo"].trigger()
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert "bavarian" not in sc.sides and doc.undo_count == steps + 5
    assert not rec.of("critical")
    assert panel.list.topLevelItemCount() == len(before)

    # a side with units is refused, with the count
    full = next(iter(before))
    n_units = sum(u.side == full for u in sc.units.values())
    panel.select(full)
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert full in sc.sides and doc.undo_count == steps + 5
    ((_, title, text),) = rec.of("critical")
    assert f"{n_units} unit(s)" in text and before[full].name in text
    for _ in range(5):
        w.actions["undo"].trigger()
    assert dict(sc.sides) == before
