"""The Sides dock: add, rename, recolour, set nations, delete an empty side — each one undo step —
and refuse to delete a side that holds units, saying how many."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QInputDialog

from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

JENA = ELCHINGEN.with_name("jena-1806.battle.json")


def test_sides_dock_edits_are_each_one_undo_step(qtbot, tmp_path, monkeypatch):
    rec = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    panel, doc = w.sides_panel, w.document
    sc = doc.scenario
    before = dict(sc.sides)
    assert panel.list.topLevelItemCount() == len(before)
    assert panel.current() == next(iter(before)) and panel.rename_button.isEnabled()  # ready at once
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
    assert panel.list.currentItem().toolTip(0) == "Bavarian army (#123456)"
    qtbot.mouseClick(panel.nation_button, Qt.MouseButton.LeftButton)
    assert sc.sides["bavarian"].nations == ("Bavaria", "Württemberg") and doc.undo_count == steps + 4
    w.actions["undo"].trigger()
    assert sc.sides["bavarian"].nations == ("Bavarian",)
    w.actions["redo"].trigger()
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert "bavarian" not in sc.sides and doc.undo_count == steps + 5
    assert not rec.of("critical")
    assert panel.list.topLevelItemCount() == len(before)
    assert panel.current() == next(iter(before)) and panel.rename_button.isEnabled()  # ready at once

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


def test_a_newly_opened_file_has_its_first_side_current(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    w.sides_panel.select(list(w.document.scenario.sides)[-1])
    assert w.files.open_path(JENA, ask=False)  # the side that was current is not in this file
    assert w.sides_panel.current() == next(iter(w.document.scenario.sides))
    assert w.sides_panel.colour_button.isEnabled()
