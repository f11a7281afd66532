"""View ▸ Layout ▸ Analysis: the Analysis dock beside Replay, both in view; the event list
grows with the dock; a saved layout comes back; Editing goes back."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget

from tests.ui.test_replay_goto import JENA
from tests.ui.window_helpers import ModalRecorder, make_window


def _menu_action(w, name):
    view = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    layout = next(a.menu() for a in view.actions() if a.menu() is not None and a.text().replace("&", "") == "Layout")
    return next(a for a in layout.actions() if a.objectName() == f"action_layout_{name}")


def test_analysis_layout_puts_the_chart_beside_the_transport(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(JENA, ask=False)
    replay = w.findChild(QDockWidget, "dock_replay")
    analysis = w.findChild(QDockWidget, "dock_analysis")
    events = w.play_view.panel.events
    qtbot.waitUntil(lambda: replay.isVisible())
    rows_before = events.viewport().height()
    assert replay in w.tabifiedDockWidgets(analysis)  # by default they share the bottom tab
    _menu_action(w, "analysis").trigger()
    qtbot.waitUntil(lambda: analysis.isVisible() and replay.isVisible(), timeout=3000)
    qtbot.wait(50)
    r, a = replay.geometry(), analysis.geometry()
    assert replay not in w.tabifiedDockWidgets(analysis)
    assert a.left() >= r.right() - 2 and abs(a.top() - r.top()) <= 4  # side by side
    assert r.height() >= 0.35 * w.height()
    assert events.viewport().height() > rows_before  # the event list grew with the dock
    qtbot.waitUntil(lambda: bool(w.command_view.analysis_panel.views), timeout=10000)
    assert w.command_view.analysis_panel.tabs.isVisible()
    # Editing goes back to the arrangement before
    assert _menu_action(w, "editing").isEnabled()
    _menu_action(w, "editing").trigger()
    qtbot.wait(50)
    assert replay in w.tabifiedDockWidgets(analysis)
    assert not _menu_action(w, "editing").isEnabled()


def test_a_saved_analysis_layout_comes_back(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(JENA, ask=False)
    _menu_action(w, "analysis").trigger()
    odds = w.findChild(QDockWidget, "dock_odds")
    odds.hide()  # the user's own change
    _menu_action(w, "save_analysis").trigger()
    _menu_action(w, "editing").trigger()
    qtbot.wait(50)
    assert odds.isVisible()
    assert w.layouts.analysis() is True  # the saved one
    qtbot.wait(50)
    assert not odds.isVisible()
