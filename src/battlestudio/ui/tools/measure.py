"""The measure tool: a tape measure from press to release, in table cm and ground metres.

Measuring changes nothing in the document. The tape stays on the map until the next
measurement or Esc; the status hint and ``last`` give the length.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsSimpleTextItem, QGraphicsItem

from battlestudio.model.geometry import Point
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.overlays import format_ground
from battlestudio.ui.tools.base import Tool, distance


def tape_text(cm: float, ground_scale: float) -> str:
    """Label of a measured length: "23.5 cm = 705 m" (``ground_scale`` metres per cm)."""
    return f"{cm:.1f} cm = {format_ground(cm * ground_scale)}"


class MeasureTool(Tool):
    """Measure distances on the table."""

    name = "measure"
    hint = "Drag to measure a distance (table cm and ground metres); Esc clears"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self) -> None:
        super().__init__()
        self.start: Point | None = None
        self.last: tuple[Point, Point, float] | None = None
        """(start, end, length in cm) of the current or last measurement."""
        self._line: QGraphicsLineItem | None = None
        self._text: QGraphicsSimpleTextItem | None = None
        self._active = False

    def reset(self) -> None:
        super().reset()
        self._line = self._text = None
        self._active = False

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        self.reset()
        self.start = self.table_pos(event)
        self._active = True
        pen = QPen(QColor("#b00020"), 2.0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self._line = QGraphicsLineItem()
        self._line.setPen(pen)
        self.add_preview(self._line)
        self._text = QGraphicsSimpleTextItem()
        self._text.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self._text.setBrush(QColor("#700010"))
        self.add_preview(self._text)
        self._update(self.start)

    def move(self, event: QMouseEvent) -> None:
        if self._active:
            self._update(self.table_pos(event))

    def release(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._active:
            self._update(self.table_pos(event))
            self._active = False

    def _update(self, end: Point) -> None:
        length = distance(self.start, end)
        self.last = (self.start, end, length)
        text = tape_text(length, self.document.scenario.info.ground_scale)
        self._line.setLine(QLineF(table_to_scene(*self.start), table_to_scene(*end)))
        self._text.setText(text)
        self._text.setPos(table_to_scene(*end) + QPointF(0.0, 0.0))
        self.set_hint(f"Distance {text}")

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.reset()
            self.set_hint(type(self).hint)
            return True
        return False
