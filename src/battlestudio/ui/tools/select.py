"""The select/move tool: click, Shift-click, rubber band, drag to move, arrow keys to nudge.

A drag calls ``Document.move`` on every mouse move with the displacement since the press and
the gesture's merge key, so the whole drag is one undo step (an edit in the editor, one
``Moved`` per record while recording) and the map always shows the document's truth. While
recording, a drag of records of a side not on the move (``PlayDocument.why_not_moving``) asks
once, when the drag ends: Yes keeps the move, No puts them back where the drag began.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QMessageBox

from battlestudio.edits.moves import snapshot
from battlestudio.ui.items import MapItem
from battlestudio.ui.tools.base import Tool, new_merge_key, scene_rect

DRAG_START_PX = 3
"""Pixels the mouse must travel before a press becomes a drag."""

NUDGE_CM, NUDGE_BIG_CM = 1.0, 10.0
"""Arrow-key nudge in table cm (with Shift: the big step)."""

ARROWS = {
    Qt.Key.Key_Left: (-1.0, 0.0),
    Qt.Key.Key_Right: (1.0, 0.0),
    Qt.Key.Key_Up: (0.0, 1.0),  # up the table: table y grows up
    Qt.Key.Key_Down: (0.0, -1.0),
}


class SelectTool(Tool):
    """Select records and move them.

    Click selects one record (Shift toggles it in the selection); a drag from empty ground
    draws a rubber band that selects what it touches (Shift adds); a drag from a record moves
    the selection; the arrow keys nudge it 1 cm (Shift: 10 cm); Esc clears the selection.
    """

    name = "select"
    hint = "Click to select, Shift+click to add, drag to move, drag on empty ground to box-select; arrows nudge"

    def __init__(self) -> None:
        super().__init__()
        self._state = "idle"  # idle | pressed | moving | band
        self._press_view = QPointF()
        self._press_table = (0.0, 0.0)
        self._originals: dict = {}
        self._key = None
        self._band: QGraphicsRectItem | None = None
        self._band_from = QPointF()
        self._nudge_key = None
        self._nudged = (0.0, 0.0)  # the nudge gesture's displacement so far, cm

    def reset(self) -> None:
        super().reset()
        self._state = "idle"
        self._band = None

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        item = self.item_at(event)
        self._press_view = event.position()
        self._press_table = self.view.table_pos(event.position())
        sel = set(self.document.selection)
        if item is None:
            self._state = "band"
            self._band_from = self.view.mapToScene(event.position().toPoint())
            if not shift:
                self.document.set_selection(())
            return
        if shift:
            sel ^= {item.id}
            self.document.set_selection(sel)
            self._state = "idle"
            return
        if item.id not in sel:
            self.document.set_selection({item.id})
        self._state = "pressed"
        self._originals = snapshot(self.document.scenario, self.document.selection)
        self._key = new_merge_key("move")

    def move(self, event: QMouseEvent) -> None:
        if self._state == "idle":
            return
        if self._state == "pressed":
            if (event.position() - self._press_view).manhattanLength() < DRAG_START_PX:
                return
            self._state = "moving"
        if self._state == "moving":
            here = self.view.table_pos(event.position())
            dx, dy = here[0] - self._press_table[0], here[1] - self._press_table[1]
            if self.view.snap_to_grid:
                dx, dy = self._snapped_delta(dx, dy)
            self.document.move(self._originals, dx, dy, self._key)
            self.set_hint(f"Moving by {dx:+.1f}, {dy:+.1f} cm")
        elif self._state == "band":
            rect = scene_rect(self._band_from, self.view.mapToScene(event.position().toPoint()))
            if self._band is None:
                self._band = QGraphicsRectItem()
                pen = QPen(QColor("#1f5fbf"), 1.0, Qt.PenStyle.DashLine)
                pen.setCosmetic(True)
                self._band.setPen(pen)
                self._band.setBrush(QColor(31, 95, 191, 40))
                self.add_preview(self._band)
            self._band.setRect(rect)

    def _snapped_delta(self, dx: float, dy: float) -> tuple[float, float]:
        """Delta that puts the first record's reference point on the grid."""
        kind, rec = next(iter(self._originals.values()), (None, None))
        ref = getattr(rec, "position", None)
        if ref is None:
            return self.view.snap((dx, dy))
        x, y = self.view.snap((ref[0] + dx, ref[1] + dy))
        return (x - ref[0], y - ref[1])

    def release(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        if self._state == "band":
            a = self.view.mapFromScene(self._band_from)
            rect = QRect(a, event.position().toPoint()).normalized()
            hit = {  # the view's query, so screen-sized items (commander flags) are hit as drawn
                i.id
                for i in self.view.items(rect, Qt.ItemSelectionMode.IntersectsItemShape)
                if isinstance(i, MapItem) and i.isVisible()
            }
            if bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
                hit |= set(self.document.selection)
            self.document.set_selection(hit)
        if self._state == "moving":
            self.set_hint(type(self).hint)
            self._confirm_side(event)
            self._explain_move()
        self.clear_previews()
        self._band = None
        self._state = "idle"

    def _explain_move(self) -> None:
        """While recording: how the drag stands against the ruleset's movement rules."""
        explain = getattr(self.document, "explain_move", None)
        if explain is not None:
            explain()

    def _confirm_side(self, event: QMouseEvent) -> None:
        """At the end of a drag while recording: ask whether records of a side not on the move
        may move; No moves them back (the drag's events are replaced by none)."""
        why_not = getattr(self.document, "why_not_moving", None)
        why = why_not(self._originals) if why_not is not None else ""
        if not why:
            return
        answer = QMessageBox.question(
            self.view,
            "Not on the move",
            f"{why} Move {'them' if len(self._originals) > 1 else 'it'} anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self.document.move(self._originals, 0.0, 0.0, self._key)

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in ARROWS and self.document.selection:
            step = NUDGE_BIG_CM if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else NUDGE_CM
            ux, uy = ARROWS[key]
            if not event.isAutoRepeat() or self._nudge_key is None:
                self._nudge_key, self._nudged = new_merge_key("nudge"), (0.0, 0.0)
            self._nudged = (self._nudged[0] + ux * step, self._nudged[1] + uy * step)
            self.document.move(self.document.selection, *self._nudged, self._nudge_key, verb="Nudge")
            self._explain_move()
            return True
        if key == Qt.Key.Key_Escape:
            self.reset()
            self.document.set_selection(())
            return True
        return False
