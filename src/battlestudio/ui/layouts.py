"""Named window layouts for analysing a game: View ▸ Layout.

"Analysis" puts the Analysis dock beside the Replay dock at the bottom (the transport, the
event list and a chart in view together), taller than the editing layout, with the Odds dock
in front on the right. "Save Current as Analysis Layout" keeps the window's arrangement under
that name (QSettings), so the next "Analysis" restores the user's own arrangement; "Editing"
goes back to the arrangement the window had before the last "Analysis".
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from battlestudio.ui.settings import Settings

KEY = "layouts/analysis"
"""Where the saved Analysis layout is kept in the settings."""

ANALYSIS_BOTTOM_SHARE = 0.42
"""Part of the window's height the bottom docks take in the built-in Analysis layout."""


class Layouts:
    """The View ▸ Layout menu of ``main`` (docks found by object name: ``dock_replay``,
    ``dock_analysis``, ``dock_odds``), with the saved layout in ``settings``."""

    def __init__(self, main: QMainWindow, settings: Settings, view_menu: QMenu) -> None:
        self.main = main
        self.settings = settings
        self._before: QByteArray | None = None
        menu = view_menu.addMenu("&Layout")
        menu.setObjectName("menu_layout")
        self.actions: dict[str, QAction] = {}
        for name, text, slot, tip in (
            ("analysis", "&Analysis", self.analysis, "Analysis beside Replay at the bottom, Odds in front"),
            ("save_analysis", "&Save Current as Analysis Layout", self.save_analysis, "Keep this arrangement"),
            ("editing", "&Editing", self.editing, "Back to the arrangement before the Analysis layout"),
        ):
            a = QAction(text, menu)
            a.setObjectName(f"action_layout_{name}")
            a.setStatusTip(tip)
            a.triggered.connect(lambda _c=False, f=slot: f())
            menu.addAction(a)
            self.actions[name] = a
        self.actions["editing"].setEnabled(False)

    def _dock(self, name: str) -> QDockWidget | None:
        return self.main.findChild(QDockWidget, name)

    def analysis(self) -> bool:
        """Switch to the Analysis layout: the saved one when there is one, else the built-in
        arrangement. Returns True when a saved layout was restored."""
        self._before = self.main.saveState()
        self.actions["editing"].setEnabled(True)
        saved = self.settings.q.value(KEY)
        if isinstance(saved, QByteArray) and self.main.restoreState(saved):
            return True
        replay, analysis, odds = self._dock("dock_replay"), self._dock("dock_analysis"), self._dock("dock_odds")
        if replay is None or analysis is None:
            return False
        # Qt splits only a dock that is not in a tab group: take Replay's tab mates out, put
        # Analysis to its right, and the others back as tabs behind Analysis
        mates = [d for d in self.main.tabifiedDockWidgets(replay) if d is not analysis and d.isVisible()]
        for d in (replay, analysis, *mates):
            self.main.removeDockWidget(d)
            d.setFloating(False)
        self.main.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, replay)
        self.main.splitDockWidget(replay, analysis, Qt.Orientation.Horizontal)
        for d in mates:
            self.main.tabifyDockWidget(analysis, d)
        for d in (replay, analysis, *mates):
            d.show()
        self._size(replay, analysis)
        QTimer.singleShot(0, lambda: self._size(replay, analysis))  # again once the layout is applied
        analysis.raise_()
        replay.raise_()
        if odds is not None:
            odds.show()
            odds.raise_()
        return False

    def _size(self, replay: QDockWidget, analysis: QDockWidget) -> None:
        width = max(400, self.main.width())
        self.main.resizeDocks([replay, analysis], [width * 55 // 100, width * 45 // 100], Qt.Orientation.Horizontal)
        self.main.resizeDocks([replay], [int(self.main.height() * ANALYSIS_BOTTOM_SHARE)], Qt.Orientation.Vertical)

    def save_analysis(self) -> None:
        """Keep the window's arrangement now as the Analysis layout."""
        self.settings.q.setValue(KEY, self.main.saveState())
        self.settings.q.sync()

    def editing(self) -> bool:
        """Back to the arrangement before the last ``analysis``; False when there is none."""
        if self._before is None:
            return False
        ok = self.main.restoreState(self._before)
        self._before = None
        self.actions["editing"].setEnabled(False)
        return bool(ok)
