"""DockHost: where the window's controllers put their docks, menus and toolbars.

The main window hands each controller (``CommandView``, ``PlayView``) a ``DockHost`` instead of
itself: it can add a dock (kept with the window's saved layout and listed in View ▸ Docks), put a
dock in a tab behind one already there, and add a menu (before Help) or a toolbar — nothing else
of the window.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QTabBar, QToolBar, QWidget


class DockHost:
    """The dock areas, menu bar and toolbar areas of ``main``; docks are listed in ``docks_menu``."""

    def __init__(self, main: QMainWindow, docks_menu: QMenu) -> None:
        self._main = main
        self._docks_menu = docks_menu
        self._by_name: dict[str, QDockWidget] = {}

    def add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """Put ``widget`` in a dock named ``name`` (its object name: the saved layout keeps it by
        that name) in ``area``, listed in View ▸ Docks."""
        dock = QDockWidget(title, self._main)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self._main.addDockWidget(area, dock)
        self._docks_menu.addAction(dock.toggleViewAction())
        self._by_name[name] = dock
        return dock

    def tabify(self, anchor: str, dock: QDockWidget, raise_anchor: bool = True) -> None:
        """Put ``dock`` in a tab behind the dock named ``anchor`` (``add_dock``'s name); with
        ``raise_anchor`` that one stays in front, else ``dock`` comes to the front.

        Raises
        ------
        KeyError
            when no dock named ``anchor`` was added.
        """
        first = self._by_name[anchor]
        self._main.tabifyDockWidget(first, dock)
        if raise_anchor:
            first.raise_()

    def hide_stale_tab_bars(self) -> int:
        """Hide the dock-area tab bars the window no longer uses: Qt keeps the bars of earlier
        tab groups (made while the docks were tabified at the window's first, smaller size) and
        leaves them drawn over the docks (e.g. a "Problems | Analysis | Replay" strip across the
        order-of-battle tree). A bar in use sits right below one of the visible docks it lists.
        Returns how many were hidden."""
        docks = [d for d in self._main.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]
        bars = [
            b
            for b in self._main.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if b.isVisible()
        ]

        def titles(bar: QTabBar) -> set[str]:
            return {bar.tabText(i) for i in range(bar.count())}

        def in_use(bar: QTabBar) -> bool:
            g = bar.geometry()
            return any(
                d.windowTitle() in titles(bar)
                and abs(g.top() - d.geometry().bottom() - 1) <= 4
                and abs(g.left() - d.geometry().left()) <= 4
                for d in docks
            )

        central = self._main.centralWidget()
        hidden = 0
        for bar in bars:  # one another bar in use repeats, or one lying on the map (never the only way to a tab)
            if in_use(bar):
                continue
            repeated = any(o is not bar and titles(bar) <= titles(o) and in_use(o) for o in bars)
            on_map = central is not None and central.geometry().contains(bar.geometry())
            if not (repeated or on_map):
                continue
            bar.hide()
            hidden += 1
        return hidden

    def add_menu(self, title: str, name: str) -> QMenu:
        """A new menu ``title`` (object name ``name``) in the menu bar, before Help when there is one."""
        bar = self._main.menuBar()
        menu = QMenu(title, bar)
        menu.setObjectName(name)
        help_action = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        if help_action is None:
            bar.addMenu(menu)
        else:
            bar.insertMenu(help_action, menu)
        return menu

    def add_toolbar(self, title: str, name: str, new_row: bool = False) -> QToolBar:
        """A new toolbar ``title`` (object name ``name``) at the top, on a row of its own with ``new_row``."""
        bar = QToolBar(title, self._main)
        bar.setObjectName(name)
        if new_row:
            self._main.addToolBarBreak()
        self._main.addToolBar(bar)
        return bar
