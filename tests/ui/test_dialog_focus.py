"""Closing a game dialog gives the window the keyboard back (a fresh tester found Ctrl+O ignored
after closing the Order dialog until a menu was clicked): on Jena while recording, the Order
dialog and the Umpire Entry dialog each closed leave the focus on the map, and the window's
shortcut (Ctrl+O, File > Open) then fires."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def test_closing_a_game_dialog_gives_the_window_its_shortcuts_back(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(JENA, ask=False)
    w.show()
    qtbot.waitExposed(w)
    pv = w.play_view
    pv.actions["resume"].trigger()
    for open_dialog in (pv.open_order_dialog, pv.open_umpire_dialog):
        dlg = open_dialog()
        assert dlg is not None
        qtbot.waitExposed(dlg)
        dlg.activateWindow()
        dlg.setFocus()
        qtbot.waitUntil(lambda d=dlg: QApplication.activeWindow() is d)
        dlg.close()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
        assert QApplication.focusWidget() is w.map_view
    # the window's own shortcut reaches it
    triggered: list[bool] = []
    w.actions["open"].triggered.disconnect()
    w.actions["open"].triggered.connect(lambda: triggered.append(True))
    qtbot.keyClick(w.map_view, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert triggered == [True]
