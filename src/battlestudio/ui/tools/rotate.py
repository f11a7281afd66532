"""The rotate tool: turn the selection by a handle ahead of its front, in 15° steps with Shift.

The selected units and commanders, with the formations of the selected commanders, turn as
one body about their common anchor (the mean of the
units' footprint centres, ``edits.deploy.anchor_of``), so a line stays a line; a single unit
wheels about the centre of its footprint (the editor places troops; it does not perform the
rules' wheels). The handle stands ahead of the selection's front, in the first selected unit's
facing; dragging it, or dragging a selected unit, turns the selection. Like moves, the whole
drag is one undo step. While a game is recorded each unit turns about its own centre, as before.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem, QGraphicsLineItem

from battlestudio.edits.deploy import anchor_of, group_rotate_edit
from battlestudio.edits.moves import snapshot
from battlestudio.model.geometry import forward, normalize_angle
from battlestudio.model.units import Unit
from battlestudio.play.document import PlayDocument
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.tools.base import Tool, new_merge_key

HANDLE_PX = 34.0
"""Distance of the handle ahead of the front edge, screen pixels."""

STEP_DEG = 15.0
"""Rotation step with Shift held, degrees."""


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Direction from ``a`` to ``b`` in degrees counter-clockwise from +x (table frame)."""
    return normalize_angle(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])))


class RotateTool(Tool):
    """Turn the selected units; click a unit to select it first."""

    name = "rotate"
    hint = (
        "Drag the handle (or a selected unit) to turn the selection about its centre (a selected "
        "commander brings his formation); Shift snaps to 15°; [ and ] turn by 15°"
    )
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self) -> None:
        super().__init__()
        self._dragging = False
        self._ids: list[str] = []
        self._pivot = (0.0, 0.0)
        self._grab_angle = 0.0
        self._key = None
        self._handle: QGraphicsEllipseItem | None = None
        self._stem: QGraphicsLineItem | None = None

    def activate(self, view) -> None:
        super().activate(view)
        self._refresh_handle()

    def reset(self) -> None:
        super().reset()
        self._handle = self._stem = None
        self._dragging = False

    def document_changed(self) -> None:
        self._refresh_handle()

    def _turned_ids(self) -> list[str]:
        """The selected units and commanders, with the formations of the selected commanders
        (they turn together); [] when that holds no unit."""
        s = self.document.scenario
        picked = [i for i in sorted(self.document.selection) if i in s.units or i in s.commanders]
        below = [n for c in picked if c in s.commanders for n in s.oob.all_subordinates(c)]
        ids = list(dict.fromkeys([*picked, *(n for n in below if n in s.units or n in s.commanders)]))
        return ids if any(i in s.units for i in ids) else []

    def _selected_units(self) -> dict[str, Unit]:
        s = self.document.scenario
        return {i: s.units[i] for i in self._turned_ids() if i in s.units}

    def anchor(self) -> tuple[float, float]:
        """The point (cm) the selection turns about (``edits.deploy.anchor_of``)."""
        return anchor_of(snapshot(self.document.scenario, self._turned_ids(), ("units", "commanders")))

    def handle_point(self) -> tuple[float, float] | None:
        """Table point (cm) of the handle, or None when no unit is selected: ahead of the
        selection's foremost front (in the first unit's facing) by ``HANDLE_PX``."""
        units = self._selected_units()
        if not units:
            return None
        u = next(iter(units.values()))
        fx, fy = forward(u.facing)
        ax, ay = self.anchor()
        ahead = max((v.position[0] - ax) * fx + (v.position[1] - ay) * fy for v in units.values())
        d = ahead + self.px_to_cm(HANDLE_PX)
        return (ax + fx * d, ay + fy * d)

    def _refresh_handle(self) -> None:
        if self.view is None:
            return
        self.clear_previews()
        self._handle = self._stem = None
        p = self.handle_point()
        if p is None:
            return
        pen = QPen(QColor("#ff9d00"), 2.0)
        pen.setCosmetic(True)
        self._stem = QGraphicsLineItem(QLineF(table_to_scene(*self.anchor()), table_to_scene(*p)))
        self._stem.setPen(pen)
        self.add_preview(self._stem)
        self._handle = QGraphicsEllipseItem(QRectF(-6.0, -6.0, 12.0, 12.0))
        self._handle.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self._handle.setPos(table_to_scene(*p))
        self._handle.setBrush(QColor("#ffd27a"))
        self._handle.setPen(pen)
        self.add_preview(self._handle)

    def _on_handle(self, event: QMouseEvent) -> bool:
        if self._handle is None:
            return False
        at = self.view.mapFromScene(self._handle.pos())
        return (QPointF(at) - event.position()).manhattanLength() <= 10.0

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        on_handle = self._on_handle(event)
        item = None if on_handle else self.item_at(event, ("unit",))
        if not on_handle:
            if item is None:
                return
            if item.id not in self.document.selection:
                self.document.set_selection({item.id})
                return
        self._key = new_merge_key("rotate")
        self._ids = self._turned_ids()
        start = self.document.gesture_start(self._ids, self._key, ("units", "commanders"))
        first = next(rec for kind, rec in start.values() if kind == "units")
        self._pivot = anchor_of(start)
        self._grab_angle = bearing(self._pivot, self.view.table_pos(event.position()))
        self._grab_facing = first.facing
        self._dragging = True

    def move(self, event: QMouseEvent) -> None:
        if not self._dragging:
            return
        angle = bearing(self._pivot, self.view.table_pos(event.position()))
        facing = self._grab_facing + (angle - self._grab_angle)
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            facing = round(facing / STEP_DEG) * STEP_DEG
        self.turn(self._ids, facing - self._grab_facing, self._key)
        self.set_hint(f"Facing {normalize_angle(facing):.0f}°")

    def release(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._dragging:
            self._dragging = False
            self.set_hint(type(self).hint)

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_BracketLeft, Qt.Key.Key_BracketRight) and self._selected_units():
            delta = STEP_DEG if event.key() == Qt.Key.Key_BracketLeft else -STEP_DEG
            self.turn(self._turned_ids(), delta, new_merge_key("rotate-key"))
            return True
        return False

    def turn(self, ids: list[str], delta: float, key: object) -> None:
        """Turn the records ``ids`` as they stood at the start of gesture ``key`` by ``delta``
        degrees CCW about their anchor, as one undo step per ``key``; in a game each unit turns
        about its own centre (``PlayDocument.rotate`` records it)."""
        if isinstance(self.document, PlayDocument):  # a game records each unit's own turn
            self.document.rotate(ids, delta, key)
            return
        start = self.document.gesture_start(ids, key, ("units", "commanders"))
        edit = group_rotate_edit(start, delta, anchor_of(start), key)
        if edit is not None:
            self.document.push(edit)
