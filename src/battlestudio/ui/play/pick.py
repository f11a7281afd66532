"""Picking a place on the map for a dialog: an order's objective, an annotation's pin.

``pick_point(view, hint, done)`` puts a one-shot tool on the map: the next left click calls
``done((x, y))`` with the table point in cm (snapped when snapping is on), Esc or a right click
calls ``done(None)``; either way the tool that was current before comes back.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from battlestudio.model.geometry import Point
from battlestudio.ui.tools.base import Tool


class PickPointTool(Tool):
    """One click on the table, then back to the previous tool."""

    name = "pick"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, hint: str, done: Callable[[Point | None], None], previous: Tool | None) -> None:
        super().__init__()
        self.hint = hint
        self._done = done
        self._previous = previous

    def _finish(self, point: Point | None) -> None:
        view, done = self.view, self._done
        self._done = None
        if view is not None:
            view.set_tool(self._previous)
        if done is not None:
            done(point)

    def press(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._finish(self.table_pos(event))
        elif event.button() == Qt.MouseButton.RightButton:
            self._finish(None)

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self._finish(None)
            return True
        return False


def pick_point(view, hint: str, done: Callable[[Point | None], None]) -> PickPointTool:
    """Let the user click a place on ``view`` (a ``MapView``); see the module docstring."""
    tool = PickPointTool(hint, done, view.tool)
    view.set_tool(tool)
    view.setFocus()
    return tool
