"""The town tool: click to add a town zone, drag its corners to resize it.

A new zone is the default 15 × 15 cm square (225 cm², Torden over Europa 4.8) centred on the
click. Clicking an existing zone selects it and shows its corner handles; dragging a corner
resizes the rectangle with the opposite corner fixed (the vertex tool's rectangle rule).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent

from battlestudio.edits import PutRecords
from battlestudio.model.terrain import TownZone, default_town_polygon
from battlestudio.ui.tools.vertices import VertexTool


class TownTool(VertexTool):
    """Add town zones and resize them."""

    name = "town"
    hint = "Click empty ground to add a 15 × 15 cm town zone; click a zone and drag its corners to resize"
    cursor = Qt.CursorShape.CrossCursor
    kinds = ("town",)

    def press(self, event: QMouseEvent) -> None:
        if (
            event.button() == Qt.MouseButton.LeftButton
            and self.target is not None
            and self.vertex_at(event) is not None
        ):
            super().press(event)
            return
        if event.button() == Qt.MouseButton.LeftButton and self.item_at(event, ("town",)) is None:
            self.add_town(self.table_pos(event))
            return
        super().press(event)

    def add_town(self, centre: tuple[float, float]) -> str:
        """Push a new default town zone centred on ``centre`` (cm); return its id."""
        s = self.document.scenario
        tid = s.next_id("town")
        name = f"Town {len(s.towns) + 1}"
        self.document.push(
            PutRecords("towns", {tid: TownZone(tid, name, default_town_polygon(centre))}, f"Add town zone {name}")
        )
        self.target = ("towns", tid)
        self.document.set_selection({tid})
        self._show_handles()
        return tid
