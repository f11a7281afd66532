"""Edit ▸ Copy in one battle, Edit ▸ Paste in another: the pasted units never get a side the
document lacks. A side of the same nation takes them without asking; otherwise a small dialog
asks — an existing side, or the copied side added (one undo step with the paste)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from battlestudio.ui.paste_sides_dialog import NEW, PasteSidesDialog
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

BUNDLED = {p.name.split("-")[0]: p for p in bundled_scenarios()}


def _keys(qtbot, w, key) -> None:
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.map_view.setFocus()
    qtbot.keyClick(w.map_view, key, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()


def _pick(qtbot, box, data) -> None:
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(box.count()):
        if box.currentData() == data:
            return
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentData() == data


def test_paste_into_another_battle_maps_or_asks_for_sides(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)  # "save changes?" is answered Discard
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    sc = w.document.scenario
    austrians = sorted(u for u, r in sc.units.items() if r.side == "austrian")[:4]
    w.document.set_selection(austrians)
    _keys(qtbot, w, Qt.Key.Key_C)
    asked: list[PasteSidesDialog] = []

    def answer(choice):
        def fake_exec(self: PasteSidesDialog) -> int:
            asked.append(self)
            (box,) = self.boxes.values()
            labels = [label.text() for label in self.findChildren(QLabel)]
            assert "Austria: Riesch's corps (austrian), 4 record(s):" in labels
            _pick(qtbot, box, choice)
            qtbot.mouseClick(self.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
            return self.result()

        monkeypatch.setattr(PasteSidesDialog, "exec", fake_exec)

    # Auerstedt has no Austrian side: asked; the Prussian side is chosen
    assert w.files.open_path(BUNDLED["auerstedt"])
    auer = w.document.scenario
    before = set(auer.units)
    answer("prussian")
    _keys(qtbot, w, Qt.Key.Key_V)
    assert len(asked) == 1
    pasted = set(auer.units) - before
    assert len(pasted) == 4 and {auer.units[u].side for u in pasted} == {"prussian"}
    assert "Austria: Riesch's corps → Prussia: Brunswick's main army" in w.statusBar().currentMessage()
    w.actions["undo"].trigger()
    assert set(auer.units) == before

    # pasted again, as a new side: its colour differs from Auerstedt's sides; one undo takes both away
    answer(NEW)
    _keys(qtbot, w, Qt.Key.Key_V)
    assert len(asked) == 2
    pasted = set(auer.units) - before
    assert {auer.units[u].side for u in pasted} == {"austrian"}
    assert auer.sides["austrian"].name == "Austria: Riesch's corps"
    assert auer.sides["austrian"].colour not in {auer.sides[s].colour for s in ("french", "prussian")}
    w.actions["undo"].trigger()
    assert set(auer.units) == before and "austrian" not in auer.sides

    # Waterloo's allied side counts Prussia among its nations: Auerstedt's Prussians go there unasked
    prussians = sorted(u for u, r in auer.units.items() if r.side == "prussian")[:3]
    w.document.set_selection(prussians)
    _keys(qtbot, w, Qt.Key.Key_C)
    assert w.files.open_path(BUNDLED["waterloo"])
    waterloo = w.document.scenario
    before = set(waterloo.units)
    _keys(qtbot, w, Qt.Key.Key_V)
    assert len(asked) == 2
    pasted = set(waterloo.units) - before
    assert len(pasted) == 3 and {waterloo.units[u].side for u in pasted} == {"allied"}
    assert "→ Seventh Coalition" in w.statusBar().currentMessage()
