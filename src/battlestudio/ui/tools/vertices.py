"""The vertex tool: reshape an existing terrain feature or town zone.

Click a feature to edit it: its vertices get handles. Drag a handle to move the vertex (one
undo step per drag); double-click an edge (or Ctrl+click it) to insert a vertex there;
right-click a vertex, or hover it and press Delete, to remove it (areas keep at least 3
vertices, lines 2). A town zone that is an upright rectangle stays one while its corners are
dragged, so the default 225 cm² square can be resized.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem
from shapely.geometry import LineString, Polygon

from battlestudio.edits import PutRecords
from battlestudio.model.geometry import Point
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.tools.base import Tool, new_merge_key

GRAB_PX = 8.0
"""How near (screen pixels) the cursor must be to grab a vertex or an edge."""


def vertices_of(rec) -> tuple[list[Point], bool]:
    """(vertices, closed) of a terrain feature or town zone; a ring's repeated last point dropped."""
    geom = rec.polygon if hasattr(rec, "polygon") else rec.geometry
    if geom.geom_type == "Polygon":
        return [tuple(c[:2]) for c in geom.exterior.coords[:-1]], True
    if geom.geom_type == "LineString":
        return [tuple(c[:2]) for c in geom.coords], False
    return [], False


def with_vertices(rec, vertices: list[Point], closed: bool):
    """``rec`` with its outline replaced by ``vertices`` (holes are dropped)."""
    geom = Polygon(vertices) if closed else LineString(vertices)
    return replace(rec, polygon=geom) if hasattr(rec, "polygon") else replace(rec, geometry=geom)


def is_upright_rectangle(vertices: list[Point]) -> bool:
    """True for 4 vertices forming an axis-aligned rectangle."""
    if len(vertices) != 4:
        return False
    xs = sorted({round(x, 6) for x, _ in vertices})
    ys = sorted({round(y, 6) for _, y in vertices})
    return len(xs) == 2 and len(ys) == 2


def nearest_on_segment(p: Point, a: Point, b: Point) -> tuple[Point, float]:
    """Closest point to ``p`` on segment ``ab`` and its distance (cm)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    q = (ax + t * dx, ay + t * dy)
    return q, ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5


class VertexTool(Tool):
    """Edit the vertices of a terrain feature or town zone."""

    name = "vertices"
    hint = (
        "Click a terrain feature or town; drag vertices, double-click an edge to add one, "
        "right-click a vertex to delete it"
    )
    kinds = ("terrain", "town")

    def __init__(self) -> None:
        super().__init__()
        self.target: tuple[str, str] | None = None  # (container, id)
        self._drag: int | None = None
        self._key = None
        self._hover: int | None = None
        self._start: list[Point] = []

    def activate(self, view) -> None:
        super().activate(view)
        self._pick_from_selection()

    def reset(self) -> None:
        super().reset()
        self._drag = None

    def document_changed(self) -> None:
        if self.target and self.target[1] not in getattr(self.document.scenario, self.target[0]):
            self.target = None
        self._show_handles()

    def _pick_from_selection(self) -> None:
        s = self.document.scenario
        for rid in sorted(self.document.selection):
            for kind in ("terrain", "towns"):
                if rid in getattr(s, kind):
                    self.target = (kind, rid)
                    self._show_handles()
                    return

    def record(self):
        """The record being edited, or None."""
        if self.target is None:
            return None
        return getattr(self.document.scenario, self.target[0]).get(self.target[1])

    def _show_handles(self) -> None:
        if self.view is None:
            return
        self.clear_previews()
        rec = self.record()
        if rec is None:
            return
        pen = QPen(QColor("#1f3f9f"), 1.0)
        pen.setCosmetic(True)
        for x, y in vertices_of(rec)[0]:
            h = QGraphicsRectItem(QRectF(-4.0, -4.0, 8.0, 8.0))
            h.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            h.setPos(table_to_scene(x, y))
            h.setBrush(QColor("#ffffff"))
            h.setPen(pen)
            self.add_preview(h)

    def vertex_at(self, event: QMouseEvent) -> int | None:
        """Index of the target's vertex under the cursor, or None."""
        rec = self.record()
        if rec is None:
            return None
        for i, (x, y) in enumerate(vertices_of(rec)[0]):
            at = QPointF(self.view.mapFromScene(table_to_scene(x, y)))
            if (at - event.position()).manhattanLength() <= GRAB_PX:
                return i
        return None

    def edge_at(self, event: QMouseEvent) -> tuple[int, Point] | None:
        """(index to insert at, point on the edge) for the edge under the cursor, or None."""
        rec = self.record()
        if rec is None:
            return None
        verts, closed = vertices_of(rec)
        p = self.view.table_pos(event.position())
        pairs = list(zip(verts, verts[1:] + verts[:1] if closed else verts[1:], strict=False))
        best = None
        for i, (a, b) in enumerate(pairs):
            q, d = nearest_on_segment(p, a, b)
            if d <= self.px_to_cm(GRAB_PX) and (best is None or d < best[2]):
                best = (i + 1, q, d)
        return (best[0], self.view.snap(best[1])) if best else None

    def _push(self, vertices: list[Point], closed: bool, text: str, key=None) -> None:
        kind, rid = self.target
        rec = self.record()
        self.document.push(PutRecords(kind, {rid: with_vertices(rec, vertices, closed)}, text, merge_key=key))

    def _noun(self) -> str:
        rec = self.record()
        return rec.name or ("town zone" if self.target[0] == "towns" else rec.kind.value.replace("_", " "))

    def press(self, event: QMouseEvent) -> None:
        if self.target is not None:
            i = self.vertex_at(event)
            if i is not None:
                if event.button() == Qt.MouseButton.RightButton:
                    self.delete_vertex(i)
                    return
                if event.button() == Qt.MouseButton.LeftButton:
                    self._drag = i
                    self._start = vertices_of(self.record())[0]
                    self._key = new_merge_key("vertex")
                    return
            if event.button() == Qt.MouseButton.LeftButton and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                if self.insert_at(event):
                    return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        item = self.item_at(event, self.kinds)
        if item is None:
            self.target = None
            self.document.set_selection(())
            self.clear_previews()
            return
        self.target = ("towns" if item.kind == "town" else "terrain", item.id)
        self.document.set_selection({item.id})
        self._show_handles()

    def move(self, event: QMouseEvent) -> None:
        if self._drag is None:
            self._hover = self.vertex_at(event) if self.target else None
            return
        verts, closed = vertices_of(self.record())
        p = self.table_pos(event)
        if self.target[0] == "towns" and is_upright_rectangle(self._start):
            verts = self._resized_rectangle(self._drag, p)
        else:
            verts = list(self._start)
            verts[self._drag] = p
        if closed and not Polygon(verts).is_valid:
            return
        self._push(verts, closed, f"Reshape {self._noun()}", self._key)

    def _resized_rectangle(self, i: int, p: Point) -> list[Point]:
        """The start rectangle with corner ``i`` dragged to ``p``, the opposite corner fixed."""
        ox, oy = self._start[(i + 2) % 4]
        if abs(p[0] - ox) < 1.0 or abs(p[1] - oy) < 1.0:
            p = (
                ox + (1.0 if p[0] >= ox else -1.0) * max(1.0, abs(p[0] - ox)),
                oy + (1.0 if p[1] >= oy else -1.0) * max(1.0, abs(p[1] - oy)),
            )
        out = list(self._start)
        out[i] = p
        out[(i + 2) % 4] = (ox, oy)
        # the two neighbours share one coordinate with each end
        for j in ((i + 1) % 4, (i + 3) % 4):
            sx, sy = self._start[j]
            cx, cy = self._start[i]
            out[j] = (p[0] if abs(sx - cx) < 1e-6 else ox, p[1] if abs(sy - cy) < 1e-6 else oy)
        return out

    def release(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag = None

    def double_click(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.target is not None:
            self.insert_at(event)

    def insert_at(self, event: QMouseEvent) -> bool:
        """Insert a vertex where the cursor is on an edge of the target; True if one was added."""
        hit = self.edge_at(event)
        if hit is None:
            return False
        verts, closed = vertices_of(self.record())
        verts.insert(hit[0], hit[1])
        self._push(verts, closed, f"Add vertex to {self._noun()}")
        return True

    def delete_vertex(self, i: int) -> bool:
        """Remove vertex ``i`` unless the outline would get too few; True if removed."""
        verts, closed = vertices_of(self.record())
        if len(verts) <= (3 if closed else 2):
            self.set_hint("Cannot delete: too few vertices left")
            return False
        del verts[i]
        if closed and not Polygon(verts).is_valid:
            self.set_hint("Cannot delete: the outline would cross itself")
            return False
        self._push(verts, closed, f"Delete vertex of {self._noun()}")
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self._hover is not None and self.target:
            self.delete_vertex(self._hover)
            self._hover = None
            return True
        if event.key() == Qt.Key.Key_Escape:
            self.target = None
            self.clear_previews()
            return True
        return False
