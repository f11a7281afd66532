"""The draw tool: polygon and polyline terrain of every kind, vertex by vertex.

Click adds a vertex; Enter or a double click finishes; Backspace removes the last vertex; Esc
cancels. Area kinds (woods, hills, marsh, fords, bridges, …) make a Polygon, linear kinds
(rivers, streams, roads, hedges, walls) a LineString. The finished feature is one
``PutRecords`` edit labelled "Draw wood", "Draw river", …; nothing touches the document
before that.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem
from shapely.geometry import LineString, Polygon

from battlestudio.edits import PutRecords
from battlestudio.model.geometry import Point
from battlestudio.model.terrain import LINEAR_KINDS, TerrainFeature, TerrainKind
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.tools.base import Tool, distance

NOUN: dict[TerrainKind, str] = {
    TerrainKind.WOODS: "wood",
    TerrainKind.HILL: "hill",
    TerrainKind.RIVER: "river",
    TerrainKind.STREAM: "stream",
    TerrainKind.FORD: "ford",
    TerrainKind.BRIDGE: "bridge",
    TerrainKind.ROAD: "road",
    TerrainKind.HEDGE: "hedge",
    TerrainKind.WALL: "wall",
    TerrainKind.MARSH: "marsh",
    TerrainKind.IMPASSABLE: "impassable ground",
    TerrainKind.BUILT_UP: "built-up area",
}
"""Undo-label noun of each terrain kind ("Draw wood")."""

ID_PREFIX = {k: f"t-{k.value.replace('_', '-')}" for k in TerrainKind}


def feature_from_vertices(kind: TerrainKind, fid: str, vertices: list[Point]) -> TerrainFeature:
    """A new terrain feature of ``kind`` through ``vertices`` (table cm).

    Raises
    ------
    ValueError
        with fewer than 3 vertices for an area or 2 for a line, or a self-crossing outline.
    """
    if kind in LINEAR_KINDS:
        if len(vertices) < 2:
            raise ValueError(f"a {NOUN[kind]} needs at least 2 points, got {len(vertices)}")
        return TerrainFeature(fid, kind, LineString(vertices))
    if len(vertices) < 3:
        raise ValueError(f"a {NOUN[kind]} needs at least 3 corners, got {len(vertices)}")
    poly = Polygon(vertices)
    if not poly.is_valid:
        raise ValueError(f"the outline of the {NOUN[kind]} crosses itself")
    return TerrainFeature(fid, kind, poly, level=1 if kind == TerrainKind.HILL else None)


class DrawTerrainTool(Tool):
    """Draw a new terrain feature of one kind."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, kind: TerrainKind) -> None:
        super().__init__()
        self.kind = TerrainKind(kind)
        self.name = f"draw:{self.kind.value}"
        self.linear = self.kind in LINEAR_KINDS
        self.hint = self._idle_hint()
        self.vertices: list[Point] = []
        self._cursor: Point | None = None
        self._preview: QGraphicsPathItem | None = None

    def _idle_hint(self) -> str:
        return (
            f"Click to start a {NOUN[self.kind]}; Enter or double-click finishes, Backspace undoes a point, Esc cancels"
        )

    def reset(self) -> None:
        super().reset()
        self.vertices = []
        self._preview = None
        self._cursor = None

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        p = self.table_pos(event)
        if self.vertices and distance(p, self.vertices[-1]) < 1e-6:
            return
        self.vertices.append(p)
        self._redraw()

    def move(self, event: QMouseEvent) -> None:
        self._cursor = self.table_pos(event)
        if self.vertices:
            self._redraw()

    def double_click(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.finish()

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        if key == Qt.Key.Key_Escape:
            self.reset()
            self.set_hint(self._idle_hint())
            return True
        if key == Qt.Key.Key_Backspace and self.vertices:
            self.vertices.pop()
            self._redraw()
            return True
        return False

    def finish(self) -> str | None:
        """Push the feature drawn so far; return its id, or None (and a hint) if it is too short."""
        try:
            fid = self.document.scenario.next_id(ID_PREFIX[self.kind])
            feature = feature_from_vertices(self.kind, fid, self.vertices)
        except ValueError as exc:
            self.set_hint(f"{exc}; keep clicking, or Esc to cancel")
            return None
        self.reset()
        self.document.push(PutRecords("terrain", {fid: feature}, f"Draw {NOUN[self.kind]}"))
        self.document.set_selection({fid})
        self.set_hint(self._idle_hint())
        return fid

    def _redraw(self) -> None:
        if not self.vertices:
            self.clear_previews()
            self._preview = None
            return
        if self._preview is None:
            self._preview = QGraphicsPathItem()
            pen = QPen(QColor("#c03000"), 2.0, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            self._preview.setPen(pen)
            if not self.linear:
                self._preview.setBrush(QColor(192, 48, 0, 40))
            self.add_preview(self._preview)
        pts = list(self.vertices)
        if self._cursor is not None:
            pts.append(self._cursor)
        path = QPainterPath(table_to_scene(*pts[0]))
        for p in pts[1:]:
            path.lineTo(table_to_scene(*p))
        if not self.linear and len(pts) > 2:
            path.closeSubpath()
        self._preview.setPath(path)
        n = len(self.vertices)
        self.set_hint(
            f"{NOUN[self.kind].capitalize()}: {n} point{'s' if n != 1 else ''}; "
            "Enter or double-click finishes, Backspace removes the last, Esc cancels"
        )
